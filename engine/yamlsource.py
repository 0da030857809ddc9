"""YAML text → plain data plus a map of where every node sits.

Flows and policies are both YAML that users edit by hand, so both need errors
that point at ``file:line:col``. This module is the only place that touches
ruamel: it parses, records the position of every mapping key and sequence
item, hands back plain ``dict``/``list`` data, and turns pydantic validation
errors into one :class:`VibflowError` located at the offending node. Nothing
after it imports ruamel.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, get_args

from pydantic import BaseModel, ValidationError

from vibflow.engine.errors import ErrorCode, SourceLocation, VibflowError

Path_ = tuple[str | int, ...]
M = TypeVar("M", bound=BaseModel)


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
    """Parse ``text``; a syntax error becomes a located :class:`VibflowError`."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError
    from ruamel.yaml.reader import ReaderError

    yaml = YAML(typ="rt", pure=True)
    try:
        root = yaml.load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        loc = SourceLocation(display, mark.line + 1, mark.column + 1) if mark else None
        problem = " ".join(str(p) for p in (exc.context, exc.problem) if p)
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
    except (YAMLError, ValueError, TypeError) as exc:
        raise VibflowError(
            code,
            f"not valid YAML: {type(exc).__name__}",
            location=SourceLocation(display, 1, 1),
        ) from exc
    lc = getattr(root, "lc", None)
    start = (lc.line + 1, lc.col + 1) if lc is not None and lc.line is not None else (1, 1)
    positions: dict[Path_, tuple[int, int]] = {(): start}
    try:
        data = _plain(root, (), positions, set())
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


class _SelfReference(Exception):
    def __init__(self, path: Path_) -> None:
        self.path = path


def _position(text: str, offset: int) -> tuple[int, int]:
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


def _plain(
    node: Any, path: Path_, positions: dict[Path_, tuple[int, int]], active: set[int]
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
            out[key] = _plain(value, child, positions, active)
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
            items.append(_plain(value, child, positions, active))
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

    Only the first error is reported: the one a user would fix first, with its
    location, what is wrong, and what would be right.
    """
    payload = doc.data if data is None else data
    if not isinstance(payload, Mapping):
        raise VibflowError(
            code,
            f"a {what} must be a YAML mapping (key: value lines), found {_kind(payload)}",
            location=doc.locate(()),
        )
    try:
        return model.model_validate(payload)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        path = _data_path(payload, err.get("loc", ()))
        raise VibflowError(
            code,
            _describe(err, path, sorted(_field_names(model)), prefix),
            hint=f"See `vibflow {what.split(maxsplit=1)[0]}s schema` for the expected shape."
            if what in {"flow definition"}
            else None,
            location=doc.locate(path),
        ) from exc


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
    msg = str(err.get("msg", "invalid value")).removeprefix("Value error, ")
    return f"invalid value at {dotted}: {msg}"


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


def _kind(value: Any) -> str:
    if value is None:
        return "an empty document"
    if isinstance(value, list):
        return "a list"
    return f"a {type(value).__name__} value"
