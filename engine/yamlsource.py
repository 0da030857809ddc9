"""YAML text → plain data plus a map of where every node sits.

Flows and policies are both YAML that users edit by hand, so both need errors
that point at ``file:line:col``. This module is the only place that touches
ruamel: it parses, records the position of every mapping key and sequence
item, hands back plain ``dict``/``list`` data, and turns pydantic validation
errors into one :class:`VibflowError` that lists every offending node. Nothing
after it imports ruamel, except its round-trip twin :mod:`.yamledit`, which
changes one key of a user's file and keeps the rest of it as written.

The files are hand-edited, so they are also hostile input: they are read by
:func:`~vibflow.engine.sourcefile.read_source` (regular files only, size
capped), and the data built from them is bounded in nesting, nodes and alias expansion (an
"alias bomb" — nine lines of nested ``*refs`` — expands to billions of
nodes). Each limit is reported at the ``file:line:col`` where it is crossed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, get_args

from pydantic import BaseModel, ValidationError

from vibflow.engine.errors import ErrorCode, SourceLocation, VibflowError
from vibflow.engine.sourcefile import MAX_SOURCE_BYTES, too_big

Path_ = tuple[str | int, ...]
M = TypeVar("M", bound=BaseModel)

#: How deep mappings and lists may nest (the flow schema needs 6 levels).
MAX_DEPTH = 64
#: How many nodes the plain data may have once aliases are expanded.
MAX_NODES = 100_000
#: How many times aliases (``*name``) may be expanded.
MAX_ALIASES = 1_000
#: How many characters of text the expanded data may hold.
MAX_TEXT_CHARS = 4 * MAX_SOURCE_BYTES


@dataclass(frozen=True)
class YamlDocument:
    """Parsed YAML: plain data and the 1-based position of every node."""

    display: str
    data: Any
    positions: Mapping[Path_, tuple[int, int]] = field(default_factory=dict)

    def locate(self, path: Sequence[str | int]) -> SourceLocation:
        """Position of the deepest existing node on ``path``."""
        probe = tuple(path)
        while probe and probe not in self.positions:
            probe = probe[:-1]
        line, col = self.positions.get(probe, (1, 1))
        return SourceLocation(self.display, line, col)


def parse_yaml(text: str, display: str, *, code: ErrorCode = ErrorCode.YAML_SYNTAX) -> YamlDocument:
    """Parse ``text``; a syntax error or a crossed limit becomes a located
    :class:`VibflowError`."""
    if len(text) > MAX_SOURCE_BYTES:
        raise too_big(display, code)
    deep = _flow_too_deep(text)
    if deep is not None:
        raise VibflowError(
            code,
            f"not accepted: brackets nest more than {MAX_DEPTH} levels deep here",
            hint="Write the nested values out as indented YAML.",
            location=SourceLocation(display, *_position(text, deep)),
        )
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError
    from ruamel.yaml.reader import ReaderError

    yaml = YAML(typ="rt", pure=True)
    try:
        root = yaml.load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        loc = SourceLocation(display, mark.line + 1, mark.column + 1) if mark else None
        # ruamel quotes the offending text, which may be a 60 KB line: keep it short.
        problem = _short(" ".join(str(p) for p in (exc.context, exc.problem) if p))
        ctx = exc.context_mark
        if (
            ctx is not None
            and mark is not None
            and (ctx.line, ctx.column) != (mark.line, mark.column)
        ):
            problem += f" (it was opened at line {ctx.line + 1}, column {ctx.column + 1})"
        raise VibflowError(
            code,
            f"not valid YAML: {problem or 'syntax error'}",
            hint="Fix the YAML syntax at that position.",
            location=loc,
        ) from exc
    except ReaderError as exc:
        line, col = _position(text, exc.position)
        raise VibflowError(
            code,
            f"not valid YAML: the file contains the control character "
            f"U+{exc.character:04X}, which YAML does not allow"
            if isinstance(exc.character, int)
            else "not valid YAML: the file contains a character YAML does not allow",
            hint="Remove that character.",
            location=SourceLocation(display, line, col),
        ) from exc
    except RecursionError as exc:
        raise VibflowError(
            code,
            "not valid YAML here: the document is nested too deeply",
            location=SourceLocation(display, 1, 1),
        ) from exc
    except (YAMLError, ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        # (ruamel meets some odd input — an unknown %YAML version — with a
        # KeyError from its internals rather than a YAMLError.)
        raise VibflowError(
            code,
            f"not valid YAML: {type(exc).__name__}",
            location=SourceLocation(display, 1, 1),
        ) from exc
    lc = getattr(root, "lc", None)
    start = (lc.line + 1, lc.col + 1) if lc is not None and lc.line is not None else (1, 1)
    positions: dict[Path_, tuple[int, int]] = {(): start}
    try:
        data = _plain(root, (), positions, set(), _Budget())
    except _OverLimit as exc:
        raise VibflowError(
            code,
            exc.message,
            hint="Write the values out, or use fewer anchors (&name) and aliases (*name).",
            location=SourceLocation(display, *positions.get(exc.path, start)),
        ) from exc
    except RecursionError as exc:
        raise VibflowError(
            code,
            "not valid YAML here: the document is nested too deeply",
            location=SourceLocation(display, *start),
        ) from exc
    except _SelfReference as exc:
        raise VibflowError(
            code,
            "an anchor (&name) is used inside itself (*name), which would never end",
            hint="Remove the alias from inside its own anchor.",
            location=SourceLocation(display, *positions.get(exc.path, start)),
        ) from exc
    return YamlDocument(display, data, positions)


#: Quoted text and comments (brackets in them nest nothing), or one bracket.
_FLOW_TOKEN = re.compile(
    r"""'(?:[^'\n]|'')*'"""  # single-quoted
    r"""|"(?:[^"\\\n]|\\.)*\""""  # double-quoted
    r"|(?:^|(?<=[ \t]))#[^\n]*"  # a comment
    r"|[\[\]{}]",
    re.M,
)


def _flow_too_deep(text: str) -> int | None:
    """The offset of the first bracket nesting past ``MAX_DEPTH``, or None.

    ruamel's scanner is quadratic in the flow nesting (5,000 ``[`` took seconds
    before it hit Python's recursion limit), so hostile nesting is refused here,
    in one pass, where it starts; a file with few brackets is not scanned."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return None
    depth = 0
    for found in _FLOW_TOKEN.finditer(text):
        token = found.group()
        if token in ("[", "{"):
            depth += 1
            if depth > MAX_DEPTH:
                return found.start()
        elif token in ("]", "}"):
            depth = max(0, depth - 1)
    return None


class _SelfReference(Exception):
    def __init__(self, path: Path_) -> None:
        self.path = path


class _OverLimit(Exception):
    def __init__(self, path: Path_, message: str) -> None:
        self.path = path
        self.message = message


@dataclass
class _Budget:
    """What building the plain data may still spend (see the module's limits)."""

    nodes: int = MAX_NODES
    aliases: int = MAX_ALIASES
    chars: int = MAX_TEXT_CHARS
    seen: set[int] = field(default_factory=set)

    def spend(self, node: Any, path: Path_) -> None:
        if len(path) > MAX_DEPTH:
            raise _OverLimit(
                path, f"not accepted: the data nests more than {MAX_DEPTH} levels deep"
            )
        self.nodes -= 1
        if self.nodes < 0:
            raise _OverLimit(
                path,
                f"not accepted: the document expands to more than {MAX_NODES} values "
                "(aliases repeat what they point at)",
            )
        if isinstance(node, str):
            self.chars -= len(node)
            if self.chars < 0:
                raise _OverLimit(
                    path,
                    f"not accepted: the document expands to more than {MAX_TEXT_CHARS} "
                    "characters of text (aliases repeat what they point at)",
                )
        elif isinstance(node, Mapping | list):
            # A container met a second time is an alias being expanded.
            if id(node) in self.seen:
                self.aliases -= 1
                if self.aliases < 0:
                    raise _OverLimit(
                        path,
                        f"not accepted: aliases (*name) are expanded more than {MAX_ALIASES} "
                        "times, as in an 'alias bomb'",
                    )
            else:
                self.seen.add(id(node))


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _position(text: str, offset: int) -> tuple[int, int]:
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


def _plain(
    node: Any,
    path: Path_,
    positions: dict[Path_, tuple[int, int]],
    active: set[int],
    budget: _Budget,
    alias_at: Path_ | None = None,
) -> Any:
    """Copy ruamel's round-trip nodes into plain data, remembering positions.

    ``active`` holds the containers on the current path: an alias to one of
    them (``&x {a: *x}``) is a cycle, reported instead of recursing forever.
    """
    lc = getattr(node, "lc", None)
    if isinstance(node, Mapping | list):
        if id(node) in active:
            raise _SelfReference(path)
        active = active | {id(node)}
    if alias_at is None and isinstance(node, Mapping | list) and id(node) in budget.seen:
        # An alias being expanded: a limit crossed inside it is reported at
        # the alias (*name), not at the anchor it copies.
        alias_at = path
    try:
        budget.spend(node, path)
    except _OverLimit as exc:
        raise _OverLimit(alias_at or path, exc.message) from None
    if isinstance(node, Mapping):
        out: dict[Any, Any] = {}
        for key, value in node.items():
            child = (*path, key) if isinstance(key, str | int) else (*path, str(key))
            if lc is not None:
                try:
                    line, col = lc.key(key)
                    positions[child] = (line + 1, col + 1)
                except (KeyError, TypeError):
                    pass
            out[key] = _plain(value, child, positions, active, budget, alias_at)
        return out
    if isinstance(node, list):
        items: list[Any] = []
        for index, value in enumerate(node):
            child = (*path, index)
            if lc is not None:
                try:
                    line, col = lc.item(index)
                    positions[child] = (line + 1, col + 1)
                except (KeyError, TypeError, IndexError):
                    pass
            items.append(_plain(value, child, positions, active, budget, alias_at))
        return items
    return _scalar(node)


def _scalar(node: Any) -> Any:
    """ruamel's scalar subclasses (ScalarFloat, ...) as plain Python values."""
    for kind in (bool, str, int, float):
        if isinstance(node, kind):
            return kind(node)
    return None if node is None else str(node)


def validate(
    doc: YamlDocument,
    model: type[M],
    *,
    data: Any = None,
    code: ErrorCode = ErrorCode.SCHEMA,
    what: str = "document",
    prefix: Path_ = (),
) -> M:
    """Validate ``doc`` (or pre-normalized ``data``) into ``model``.

    Every mistake is reported at once (see :func:`problems_in`), so a user
    fixes a file in one pass rather than one error per attempt.
    """
    payload = doc.data if data is None else data
    found = problems_in(doc, model, data=payload, what=what, prefix=prefix)
    if isinstance(found, list):
        raise located_error(
            code,
            found,
            hint=f"See `vibflow {what.split(maxsplit=1)[0]}s schema` for the expected shape."
            if what in {"flow definition"}
            else None,
        )
    return found


def problems_in(
    doc: YamlDocument,
    model: type[M],
    *,
    data: Any = None,
    what: str = "document",
    prefix: Path_ = (),
) -> M | list[tuple[SourceLocation, str]]:
    """The validated model, or every located problem (one per YAML node)."""
    payload = doc.data if data is None else data
    if not isinstance(payload, Mapping):
        return [
            (
                doc.locate(()),
                f"a {what} must be a YAML mapping (key: value lines), found "
                f"{'an empty document' if payload is None else kind_of(payload)}",
            )
        ]
    try:
        return model.model_validate(payload)
    except ValidationError as exc:
        out: list[tuple[SourceLocation, str]] = []
        seen: set[Path_] = set()
        known = sorted(_field_names(model))
        for err in exc.errors(include_url=False):
            path = _data_path(payload, err.get("loc", ()))
            # A union reports one error per member for the same node: the first
            # says what is wrong there; the rest would repeat it in other words.
            # (A missing key is located at its parent: keep one per missing key.)
            loc = [p for p in err.get("loc", ()) if isinstance(p, str | int)]
            key = (*path, *loc[-1:]) if err.get("type") == "missing" else path
            if key in seen:
                continue
            seen.add(key)
            out.append((doc.locate(path), _describe(err, path, known, prefix)))
        return out


def located_error(
    code: ErrorCode, problems: Sequence[tuple[SourceLocation, str]], *, hint: str | None = None
) -> VibflowError:
    """One error for one or several located problems (the first one leads)."""
    first_loc, first = problems[0]
    if len(problems) == 1:
        return VibflowError(code, first, hint=hint, location=first_loc)
    return VibflowError(
        code,
        f"{len(problems)} problems in {first_loc.file}, each listed below",
        hint=hint,
        location=first_loc,
        problems=tuple(problems),
    )


def _data_path(payload: Any, loc: Iterable[Any]) -> Path_:
    """Pydantic's error location minus union tags, walked through the data."""
    path: list[str | int] = []
    node = payload
    for part in loc:
        in_map = isinstance(node, Mapping) and part in node
        in_list = isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
        if in_map or in_list:
            path.append(part)
            node = node[part]
        elif isinstance(node, Mapping) and isinstance(part, str) and part not in node:
            # An extra/missing key or a union member tag: a missing key is
            # reported at its parent, an extra key at itself (handled above).
            continue
    return tuple(path)


def _field_names(model: type[BaseModel]) -> set[str]:
    """Every key any model reachable from ``model`` accepts (for suggestions)."""
    seen: set[type[BaseModel]] = set()
    names: set[str] = set()
    todo: list[Any] = [model]
    while todo:
        tp = todo.pop()
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            if tp in seen:
                continue
            seen.add(tp)
            for name, info in tp.model_fields.items():
                names.add(info.alias or name)
                todo.append(info.annotation)
        else:
            todo.extend(get_args(tp))
    return names


def _describe(err: Mapping[str, Any], path: Path_, known: list[str], prefix: Path_ = ()) -> str:
    kind = err.get("type", "")
    loc = [p for p in err.get("loc", ()) if isinstance(p, str | int)]
    path = (*prefix, *path)
    dotted = ".".join(str(p) for p in path) or "top level"
    if kind == "extra_forbidden":
        key = str(loc[-1]) if loc else "?"
        import difflib  # only to suggest a name for a mistyped key

        near = difflib.get_close_matches(key, known, n=1)
        suggestion = f" (did you mean '{near[0]}'?)" if near else ""
        parent = ".".join(str(p) for p in path[:-1]) or "top level"
        return f"unknown key '{key}' at {parent}{suggestion}"
    if kind == "missing":
        key = str(loc[-1]) if loc else "?"
        return f"missing required key '{key}' at {dotted}"
    if kind == "string_pattern_mismatch":
        pattern = str((err.get("ctx") or {}).get("pattern", ""))
        rule = PATTERN_WORDS.get(pattern)
        if rule:
            return f"invalid value at {dotted}: {rule}"
    expected = _YAML_TERMS.get(str(kind))
    if expected is not None:
        return f"invalid value at {dotted}: expected {expected}, found {kind_of(err.get('input'))}"
    msg = str(err.get("msg", "invalid value")).removeprefix("Value error, ")
    msg = msg.replace("Input should be", "must be").replace("Input ", "the value ")
    return f"invalid value at {dotted}: {msg}"


#: Pydantic's type errors, said in YAML's words.
_YAML_TERMS: dict[str, str] = {
    **dict.fromkeys(
        ("list_type", "tuple_type", "set_type", "frozen_set_type", "iterable_type"), "a list"
    ),
    **dict.fromkeys(
        ("dict_type", "model_type", "model_attributes_type", "mapping_type"),
        "a mapping (key: value lines)",
    ),
    **dict.fromkeys(("int_type", "int_parsing", "int_from_float"), "a whole number"),
    **dict.fromkeys(("float_type", "float_parsing"), "a number"),
    **dict.fromkeys(("string_type", "string_sub_type"), "text"),
    **dict.fromkeys(("bool_type", "bool_parsing"), "true or false"),
}


#: Regexes of the YAML dialect, said in words for error messages.
PATTERN_WORDS: dict[str, str] = {
    r"^[a-z][a-z0-9_]{0,63}$": "a name must start with a lower-case letter and use only "
    "a-z, 0-9 and _ (at most 64 characters)",
    r"^[a-z][a-z0-9_-]{0,63}$": "a flow name must start with a lower-case letter and use only "
    "a-z, 0-9, _ and - (at most 64 characters)",
    r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$": "a step name is group.name: lower-case "
    "letters, digits and _, with at least one dot",
    r"^(str|int|float|bool|path|list)\??$": "an input type is one of str, int, float, bool, "
    "path, list (add ? for optional)",
}


def kind_of(value: Any) -> str:
    """What a YAML value is, in YAML's words (never Python's type names)."""
    if value is None:
        return "nothing (an empty value)"
    if isinstance(value, bool):
        return f"{'true' if value else 'false'} (a boolean)"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "a mapping"
    return "a value of another kind"
