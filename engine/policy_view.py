"""The policy as a user inspects and edits it: each effective value with where
it came from, the project's overrides against the defaults, and one value set
in the project's file.

Values are listed by dotted key (``triggers.rules.stale_intent.enabled``); a
key in the policy's *atomic* set (a trigger's ``when``) is one value, since
an override replaces it whole. Setting a value edits the user's file by
round trip (:func:`~vibflow.engine.yamledit.set_value`), checks the result
as the whole policy, and writes it only when it is valid.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from vibflow.engine.atomicfile import atomic_write
from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.policy import USER_POLICY_DISPLAY, PolicySet
from vibflow.engine.registry import nearest
from vibflow.engine.sourcefile import read_source
from vibflow.engine.yamledit import scalar_value, set_value


@dataclass(frozen=True)
class Setting:
    key: str
    value: Any
    #: ``file:line`` of the value, or "default" when no file sets it by name.
    origin: str

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "value": self.value, "origin": self.origin}


@dataclass(frozen=True)
class Override:
    key: str
    default: Any
    value: Any
    origin: str

    @property
    def same(self) -> bool:
        return bool(self.default == self.value)

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "default": self.default,
            "value": self.value,
            "origin": self.origin,
            "same_as_default": self.same,
        }


def _leaves(
    data: Any, path: tuple[str, ...], atomic: frozenset[str]
) -> Iterator[tuple[tuple[str, ...], Any]]:
    if isinstance(data, Mapping) and data and (not path or path[-1] not in atomic):
        for key, value in data.items():
            yield from _leaves(value, (*path, str(key)), atomic)
    else:
        yield path, data


def _where(policy: PolicySet, path: tuple[str, ...]) -> str:
    found = policy.origin(path)
    return f"{found.file}:{found.line}" if found is not None else "default"


def effective(policy: PolicySet, section: str | None = None) -> list[Setting]:
    """Every effective value (of one section), with its origin."""
    raw = policy.raw()
    if section is not None and section not in raw:
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"no policy section '{section}'{nearest(section, raw)}",
            hint="`vibflow policy show` lists every section.",
        )
    data = {section: raw[section]} if section is not None else raw
    return [
        Setting(".".join(p), v, _where(policy, p)) for p, v in _leaves(data, (), policy.atomic_keys)
    ]


def overrides(
    policy: PolicySet, models: Mapping[str, type[BaseModel]] | None = None
) -> list[Override]:
    """What the project's file sets, each against the shipped default (with the
    section ``models``, also a default no shipped file spells out)."""
    defaults = policy.defaults_raw()
    for name, model in (models or {}).items():
        if name in defaults:
            full = model.model_validate(defaults[name] or {})
            defaults[name] = full.model_dump(mode="json", by_alias=True, exclude_none=True)
    out: list[Override] = []
    for path, value in _leaves(policy.user_raw(), (), policy.atomic_keys):
        if not path:
            continue
        default: Any = defaults
        for part in path:
            default = default.get(part) if isinstance(default, Mapping) else None
        out.append(Override(".".join(path), default, value, _where(policy, path)))
    return out


def set_user_value(
    user_file: Path,
    key: str,
    text: str,
    check: Callable[[str], PolicySet],
    *,
    display: str = USER_POLICY_DISPLAY,
) -> tuple[str, str]:
    """Set ``key`` to ``text`` (read as a YAML scalar) in the project's policy file.

    ``check`` builds the whole policy from the new text (raising on any
    problem); the file is written only when it passes. Returns the old and
    the new text of the file (the old is empty for a new file)."""
    path = tuple(part for part in key.split("."))
    if not key or any(not part for part in path):
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"'{key}' is not a policy key: use dotted names like triggers.snooze_minutes",
        )
    old = (
        read_source(user_file, display, code=ErrorCode.POLICY_INVALID)
        if user_file.exists() or user_file.is_symlink()
        else ""
    )
    new = set_value(old, display, path, scalar_value(text))
    try:
        check(new)
    except VibflowError as exc:
        raise VibflowError(
            exc.code,
            exc.message,
            hint=f"{display} was not changed.",
            location=exc.location,
            problems=exc.problems,
        ) from exc
    user_file.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(user_file, new)
    return old, new
