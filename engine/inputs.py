"""Typed inputs for waits: ``--input key=value`` strings → checked values.

A wait declares ``inputs: {field: type}`` (and a flow, at its top, the inputs
``vibflow run FLOW`` takes when it starts) with type one of ``str``, ``int``,
``float``, ``bool``, ``path`` (a string the domain's path contract checks
later), ``list`` (the key repeated once per value, ``--input paths=a --input
paths=b``; one value may also hold several, comma-separated, or a JSON array
of strings taken as written); a trailing ``?``
makes it optional. Unknown keys (with the nearest declared name) and missing
required keys are bad input, reported with what the wait expects.

Inputs are user text, and users paste secrets: before a run stores them (or
a guard or step sees them) they go through an :data:`InputSanitizer` the
front door supplies (vibflow's redaction contract). The engine only knows
the seam; what counts as a secret is the domain's business.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from vibflow.engine.errors import ErrorCode, VibflowError

#: Turns checked inputs into what a run may store (same keys; values masked).
InputSanitizer = Callable[[Mapping[str, Any]], dict[str, Any]]


def keep_inputs(inputs: Mapping[str, Any]) -> dict[str, Any]:
    """The sanitizer of a runner given none: inputs stored as they came."""
    return dict(inputs)


_TRUE = {"1", "true", "yes", "on", "y"}
_FALSE = {"0", "false", "no", "off", "n"}


def parse_pairs(pairs: Sequence[str]) -> dict[str, str | list[str]]:
    """``["k=v", ...]`` → dict; a pair without ``=`` is bad input.

    A key given more than once collects its values in a list, in order: that is
    how a ``list`` input takes values that contain commas (a path may). An input
    of another type given twice is then refused by :func:`coerce`.
    """
    out: dict[str, str | list[str]] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise VibflowError(
                ErrorCode.BAD_INPUT,
                f"input '{pair}' is not KEY=VALUE",
                hint="Write inputs as --input name=value.",
            )
        name = key.strip()
        seen = out.get(name)
        if seen is None:
            out[name] = value
        else:
            out[name] = [*([seen] if isinstance(seen, str) else seen), value]
    return out


def coerce(
    declared: Mapping[str, str],
    raw: Mapping[str, Any],
    *,
    where: str,
    hint: str | None = None,
) -> dict[str, Any]:
    """Check ``raw`` against the declared input types of a wait (or of a flow's start);
    ``hint`` is what to do instead when a key is unknown."""
    unknown = sorted(set(raw) - set(declared))
    if unknown:
        close = difflib.get_close_matches(unknown[0], list(declared), n=1, cutoff=0.6)
        maybe = f" (did you mean '{close[0]}'?)" if close else ""
        expected = ", ".join(f"{k} ({t})" for k, t in declared.items()) or "no inputs"
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"{where} does not take input '{unknown[0]}'{maybe}; it expects {expected}",
            hint=hint,
        )
    out: dict[str, Any] = {}
    for key, type_name in declared.items():
        optional = type_name.endswith("?")
        base = type_name.rstrip("?")
        if key not in raw or raw[key] is None:
            if not optional:
                raise VibflowError(
                    ErrorCode.BAD_INPUT,
                    f"{where} needs input '{key}' ({base})",
                    hint=f"Add --input {key}=VALUE.",
                )
            continue
        if isinstance(raw[key], list) and base != "list":
            raise VibflowError(
                ErrorCode.BAD_INPUT,
                f"input '{key}' is given more than once, and {where} takes one value for it",
                hint=f"Give --input {key}=VALUE once (only a list input takes a repeated key).",
            )
        out[key] = _convert(raw[key], base, key, where)
    return out


def _convert(value: Any, base: str, key: str, where: str) -> Any:
    try:
        return _CONVERTERS[base](value)
    except (TypeError, ValueError) as exc:
        raise VibflowError(
            ErrorCode.BAD_INPUT, f"input '{key}' of {where} must be of type {base}"
        ) from exc


def _to_str(value: Any) -> str:
    if not isinstance(value, str) or len(value) > 4096 or "\x00" in value:
        raise ValueError(value)
    return value


def _to_list(value: Any) -> list[str]:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    if isinstance(value, str):
        return list_items(value)
    raise TypeError(value)


def list_items(value: str) -> list[str]:
    """The items one list value holds: a JSON array of strings (``["a,b.py"]``) as
    written, for a name with a comma or an edge space; otherwise — a name such as
    ``[id].tsx`` included — the comma-separated pieces, trimmed."""
    if value.lstrip().startswith("["):
        try:
            items = json.loads(value)
        except ValueError:
            items = None
        if isinstance(items, list) and items and all(isinstance(i, str) for i in items):
            return items
    return [p.strip() for p in value.split(",") if p.strip()]


def _to_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise ValueError(value)


def _to_int(value: Any) -> int:
    if isinstance(value, bool | float):
        raise TypeError(value)
    return int(value)


def _to_float(value: Any) -> float:
    if isinstance(value, bool):
        raise TypeError(value)
    return float(value)


_CONVERTERS: dict[str, Callable[[Any], Any]] = {
    "str": _to_str,
    "path": _to_str,
    "list": _to_list,
    "bool": _to_bool,
    "int": _to_int,
    "float": _to_float,
}
