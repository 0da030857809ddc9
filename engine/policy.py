"""Policy: shipped YAML defaults, overridden by the project's own file.

``policies/*.yaml`` (package data) each hold top-level sections; the user's
``<repo>/.vibflow/policy.yaml`` overrides any of them, mapping by mapping
(lists and scalars replace). A section is validated against the model its
owner passes in, and an invalid edit is reported at the line and column of the
file that introduced it. The merged document's digest is stored with each run.

Given the models of every section (``sections``, a provider called only when
the project has its own policy file), the whole policy is checked
when it is loaded, and every mistake in it is reported at once: each command
then validates the policy the same way, before it does anything (a run is
never started on a policy that a later step would refuse).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from pydantic import BaseModel, ConfigDict, Field

from vibflow.engine.atomicfile import atomic_write
from vibflow.engine.errors import ErrorCode, SourceLocation, VibflowError
from vibflow.engine.sourcefile import read_source
from vibflow.engine.yamlsource import YamlDocument, located_error, parse_yaml, problems_in

if TYPE_CHECKING:
    # A type only: importing importlib.resources costs a command ~20 M instructions.
    from importlib.resources.abc import Traversable

M = TypeVar("M", bound=BaseModel)
USER_POLICY_DISPLAY = ".vibflow/policy.yaml"


class JournalPolicy(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    synchronous: Literal["FULL", "NORMAL"] = Field(
        default="FULL",
        description="FULL survives power loss (one fsync per transition); NORMAL survives "
        "process crashes only.",
    )


class EnginePolicy(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    journal: JournalPolicy = JournalPolicy()
    context_max_bytes: int = Field(default=65536, ge=1024, le=4 * 1024 * 1024)
    #: After this many idle minutes, the next command first writes the project
    #: recap of the activity before the gap (once per gap). 0 turns it off.
    recap_idle_minutes: int = Field(default=30, ge=0, le=7 * 24 * 60)


PARSED_DEFAULTS = "parsed.json"


class PolicySet:
    def __init__(
        self,
        defaults: Traversable | None,
        user_file: Path | None,
        *,
        sections: Callable[[], Mapping[str, type[BaseModel]]] | None = None,
        atomic: frozenset[str] = frozenset(),
        user_display: str = USER_POLICY_DISPLAY,
        user_text: str | None = None,
    ) -> None:
        self._atomic = atomic
        self._docs = _shipped(defaults)
        self._user: YamlDocument | None = None
        # Anything at the path but a missing file is read (and refused if it is
        # a folder, a FIFO or a device): a policy that silently stops applying
        # because it became something else would be worse than an error.
        if (
            user_text is None
            and user_file is not None
            and (user_file.exists() or user_file.is_symlink())
        ):
            user_text = read_source(user_file, user_display, code=ErrorCode.POLICY_INVALID)
        if user_text is not None:
            self._user = _mapping(
                parse_yaml(user_text, user_display, code=ErrorCode.POLICY_INVALID)
            )
        problems = _unknown_sections(self._docs, self._user)
        merged: dict[str, Any] = {}
        for doc in [*self._docs, *([self._user] if self._user else [])]:
            merged = _merge(merged, doc.data or {}, atomic)
        self._merged = merged
        self._sections: dict[tuple[str, type[BaseModel]], BaseModel] = {}
        # The shipped defaults alone are valid (a test pins it): the models are
        # only needed — and imported — when the project overrides something.
        wanted = sections() if sections is not None and self._user is not None else {}
        for name, model in wanted.items():
            found = self._check_section(name, model)
            if isinstance(found, list):
                problems += found
            else:
                self._sections[(name, model)] = found
        if problems:
            problems.sort(key=lambda p: (p[0].file, p[0].line, p[0].col))
            raise located_error(
                ErrorCode.POLICY_INVALID,
                problems,
                hint="Sections are the top-level names of the shipped policies "
                "(`vibflow/policies/*.yaml`)."
                if any(text.startswith("unknown policy section") for _, text in problems)
                else None,
            )

    def digest(self) -> str:
        text = json.dumps(self._merged, sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def raw(self) -> Mapping[str, Any]:
        return self._merged

    @property
    def atomic_keys(self) -> frozenset[str]:
        """Keys whose value an override replaces whole (never merged)."""
        return self._atomic

    def defaults_raw(self) -> dict[str, Any]:
        """The shipped defaults alone, merged."""
        merged: dict[str, Any] = {}
        for doc in self._docs:
            merged = _merge(merged, doc.data or {}, self._atomic)
        return merged

    def user_raw(self) -> Mapping[str, Any]:
        """What the project's own file sets (empty without one)."""
        return (self._user.data or {}) if self._user is not None else {}

    def origin(self, path: tuple[str | int, ...]) -> SourceLocation | None:
        """Where the effective value at ``path`` was set: the project's file when it
        sets it (or an atomic key above it), else the shipped default that does."""
        for doc in [self._user, *reversed(self._docs)]:
            if doc is None:
                continue
            for cut in range(len(path), 0, -1):
                if path[:cut] in doc.positions and (
                    cut == len(path) or str(path[cut - 1]) in self._atomic
                ):
                    line, col = doc.positions[path[:cut]]
                    return SourceLocation(doc.display, line, col)
        return None

    def section(self, name: str, model: type[M]) -> M:
        # Frozen models, validated once per process: hot paths (the path
        # contract, once per file) ask for their section again and again.
        key = (name, model)
        if key not in self._sections:
            found = self._check_section(name, model)
            if isinstance(found, list):
                raise located_error(ErrorCode.POLICY_INVALID, found)
            self._sections[key] = found
        return cast("M", self._sections[key])

    def _check_section(self, name: str, model: type[M]) -> M | list[tuple[SourceLocation, str]]:
        data = self._merged.get(name, {})
        if data is None:
            data = {}
        # Locate errors in the user's file when it sets the section, else in
        # the shipped default that defines it.
        owner = next(
            (d for d in [self._user, *reversed(self._docs)] if d and name in (d.data or {})),
            None,
        )
        doc = owner or YamlDocument(USER_POLICY_DISPLAY, {})
        scoped = YamlDocument(
            doc.display,
            data,
            {k[1:]: v for k, v in doc.positions.items() if k[:1] == (name,)},
        )
        return problems_in(scoped, model, what=f"policy section '{name}'", prefix=(name,))


def _shipped(defaults: Traversable | None) -> list[YamlDocument]:
    docs: list[YamlDocument] = []
    if defaults is None:
        return docs
    parsed = _parsed_defaults(defaults)
    for f in sorted(defaults.iterdir(), key=lambda t: t.name):
        if f.name.endswith(".yaml") and f.is_file():
            text = f.read_text("utf-8")
            display = f"vibflow/policies/{f.name}"
            doc = _from_parsed(parsed.get(f.name), text, display)
            if doc is None:
                doc = parse_yaml(text, display, code=ErrorCode.POLICY_INVALID)
            docs.append(_mapping(doc))
    return docs


def _unknown_sections(
    docs: list[YamlDocument], user: YamlDocument | None
) -> list[tuple[SourceLocation, str]]:
    known = {key for doc in docs for key in (doc.data or {})}
    if user is None or not known:
        return []
    # The registry module (and difflib) only when there is a section to suggest for.
    from vibflow.engine.registry import nearest

    return [
        (user.locate((key,)), f"unknown policy section '{key}'{nearest(str(key), known)}")
        for key in user.data or {}
        if key not in known
    ]


def _text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _parsed_defaults(defaults: Traversable) -> dict[str, Any]:
    """The shipped policies, parsed ahead of time (package data written by
    :func:`write_parsed_defaults`), so a command need not import a YAML parser."""
    try:
        data = json.loads(defaults.joinpath(PARSED_DEFAULTS).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _from_parsed(entry: Any, text: str, display: str) -> YamlDocument | None:
    """The pre-parsed document for exactly ``text``, or None (then it is parsed):
    an entry made from other text — the YAML was edited since — is never used."""
    if not isinstance(entry, dict) or entry.get("sha256") != _text_digest(text):
        return None
    try:
        positions = {tuple(p): (int(line), int(col)) for p, line, col in entry["positions"]}
        return YamlDocument(display, entry["data"], positions)
    except (KeyError, TypeError, ValueError):
        return None


def write_parsed_defaults(folder: Path) -> None:
    """Write ``parsed.json`` next to the shipped ``*.yaml`` (run when one changes;
    ``tests/engine/test_policy.py`` fails while it is out of date)."""
    out: dict[str, Any] = {}
    for path in sorted(folder.glob("*.yaml")):
        text = path.read_text("utf-8")
        doc = parse_yaml(text, f"vibflow/policies/{path.name}", code=ErrorCode.POLICY_INVALID)
        out[path.name] = {
            "sha256": _text_digest(text),
            "data": doc.data,
            "positions": [[list(p), line, col] for p, (line, col) in doc.positions.items()],
        }
    atomic_write(
        folder / PARSED_DEFAULTS, json.dumps(out, indent=1, sort_keys=True) + "\n", durable=False
    )


def _mapping(doc: YamlDocument) -> YamlDocument:
    if doc.data is not None and not isinstance(doc.data, dict):
        raise VibflowError(
            ErrorCode.POLICY_INVALID,
            "a policy file must be a mapping of sections (for example 'engine:')",
            location=doc.locate(()),
        )
    return doc


def _merge(
    base: Mapping[str, Any], over: Mapping[str, Any], atomic: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """``over`` on ``base``, mapping by mapping; a key in ``atomic`` is replaced whole."""
    out = dict(base)
    for key, value in over.items():
        if key not in atomic and isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = _merge(out[key], value, atomic)
        else:
            out[key] = value
    return out
