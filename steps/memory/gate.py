"""The memory write gate (seed 002): one door for every write.

Checks, in order: read-only mode (a newer schema), authority (only a
confirmed writer may touch intent-shaping fields; automatic capture may only
append observed context), conflict (the same field changed by a different
writer within the conflict window needs a deliberate overwrite), and rate
(runaway automatic capture is refused). Each refusal says why and what to do.

:func:`admit` is the gate's other half, for entries that arrive in bulk (a
legacy import): the same redaction and path contract every single write
passes, applied to each entry, with what was kept out counted and reported.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel

from vibflow.engine.clock import parse_stamp
from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.steps.memory.models import MemoryState, Stamped
from vibflow.steps.memory.policy import MemoryPolicy

Field_ = Literal[
    "active_intent",
    "decisions",
    "next_action",
    "relevant_files",
    "verification",
    "risks",
    "observed_context",
]
INTENT_SHAPING: frozenset[str] = frozenset(
    {"active_intent", "decisions", "next_action", "relevant_files"}
)
_LABEL = {
    "active_intent": "the active intent",
    "decisions": "decisions",
    "next_action": "the next action",
    "relevant_files": "the relevant files",
    "verification": "verification",
    "risks": "risks",
    "observed_context": "observed context",
}


def check_text(text: str, what: str, model: type[BaseModel], field: str) -> str:
    """``text`` without surrounding blanks, or bad input when nothing is left or it is
    longer than the model stores (``what`` names it: "the intent", "the reason").

    Checked before the write, so a user's mistake reads as one, never as the
    store's validation error."""
    clean = text.strip()
    if not clean:
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"{what} cannot be empty",
            hint="Say it in words, in quotes if it has spaces.",
        )
    # pydantic keeps Field(max_length=...) as a metadata object with that attribute.
    limits = [getattr(m, "max_length", None) for m in model.model_fields[field].metadata]
    limit = next((n for n in limits if isinstance(n, int)), None)
    if limit is not None and len(clean) > limit:
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"{what} is {len(clean)} characters long; memory keeps at most {limit}",
            hint="Say it shorter; details belong in the code or its docs.",
        )
    return clean


def check_write(
    state: MemoryState,
    *,
    field: Field_,
    writer: str,
    confirmed: bool,
    read_only: bool,
    policy: MemoryPolicy,
    now: datetime,
    existing: Stamped | None = None,
    existing_text: str | None = None,
    proposed_text: str | None = None,
    overwrite: bool = False,
    overwrite_command: str | None = None,
) -> None:
    label = _LABEL[field]
    if read_only:
        raise VibflowError(
            ErrorCode.READ_ONLY,
            f"memory is read-only here (it was written by a newer vibflow), so {label} "
            "cannot be changed",
            hint="Upgrade vibflow to write to this memory.",
        )
    shaping = field in INTENT_SHAPING
    if shaping and writer == "hook":
        raise VibflowError(
            ErrorCode.CONFIRMATION_REQUIRED,
            f"automatic capture may only append observed context, not change {label}",
        )
    if shaping and not confirmed:
        raise VibflowError(
            ErrorCode.CONFIRMATION_REQUIRED,
            f"changing {label} needs your explicit confirmation",
            hint="Answer the prompt on a terminal, or add --yes.",
        )
    if existing is not None and existing.updated_by != writer and not overwrite:
        when = parse_stamp(existing.last_updated)
        age = (now - when).total_seconds() if when else None
        if age is not None and 0 <= age < policy.conflict_window_seconds:
            theirs = f": “{existing_text}”" if existing_text else ""
            mine = f"; yours: “{proposed_text}”" if proposed_text else ""
            raise VibflowError(
                ErrorCode.WRITE_CONFLICT,
                f"{label} was changed by {existing.updated_by} {age:.0f} s ago{theirs}{mine}",
                hint=(
                    f"Keep theirs, or overwrite deliberately with `{overwrite_command}`."
                    if overwrite_command
                    else "Keep theirs, or overwrite deliberately."
                ),
            )
    if field == "observed_context":
        recent = sum(
            1
            for e in state.observed_context
            if e.source == writer
            and (t := parse_stamp(e.at)) is not None
            and 0 <= (now - t).total_seconds() < 60
        )
        if recent >= policy.observed_writes_per_minute:
            raise VibflowError(
                ErrorCode.RATE_LIMITED,
                f"{writer} appended {recent} observed events in the last minute; "
                "more are refused as runaway capture",
            )


# -- what may be stored: the same rules for every writer, import included ---------------

#: text -> (redacted text, {"secret_hits": n, ...}); the redaction contract, passed in
Redact = Callable[[str], tuple[str, Mapping[str, int]]]
#: user path -> project-relative path; raises VibflowError (a PathRejected names its rule)
Normalize = Callable[[str], str]

MAX_UNKNOWN_DEPTH = 32  # legacy fields deeper than this are dropped, never walked further


@dataclass
class Admitted:
    """What the gate let in from a batch of entries (an import), and what it kept out."""

    state: MemoryState
    counts: dict[str, int] = dataclass_field(default_factory=dict)
    #: rule -> paths dropped for breaking it (the paths themselves are never echoed)
    dropped: dict[str, int] = dataclass_field(default_factory=dict)

    def notice(self) -> str | None:
        if not self.dropped:
            return None
        total = sum(self.dropped.values())
        rules = ", ".join(f"{rule}: {n}" for rule, n in sorted(self.dropped.items()))
        return (
            f"left out {total} path(s) that break the path rules ({rules}); "
            "everything else was imported"
        )


class _Cleaner:
    def __init__(self, redact: Redact, normalize: Normalize | None) -> None:
        self._redact = redact
        self._normalize = normalize
        self.counts: dict[str, int] = {}
        self.dropped: dict[str, int] = {}

    def text(self, value: str) -> str:
        clean, counts = self._redact(value)
        for key, n in counts.items():
            self.counts[key] = self.counts.get(key, 0) + n
        return clean

    def keyed(self, key: str, value: str) -> str:
        """A value under a key: ``password: hunter2`` is a secret even when
        ``hunter2`` alone does not look like one, so the pair is judged too."""
        clean = self.text(value)
        if clean != value:
            return clean
        paired, counts = self._redact(f"{key}={value}")
        if not counts.get("secret_hits"):
            return clean
        for name, n in counts.items():
            self.counts[name] = self.counts.get(name, 0) + n
        head, sep, rest = paired.partition("=")
        return rest if sep and head == key else "[REDACTED:credential]"

    def path(self, raw: str) -> str | None:
        """``raw`` through the path contract, or None (counted under its rule)."""
        if self._normalize is None:
            return raw
        try:
            return self._normalize(raw)
        except VibflowError as exc:
            rule = getattr(exc, "rule", None)
            name = str(getattr(rule, "value", rule)) if rule is not None else "invalid_path"
            self.dropped[name] = self.dropped.get(name, 0) + 1
            return None

    def paths(self, raws: list[str]) -> list[str]:
        kept = [p for p in (self.path(r) for r in raws) if p is not None]
        return list(dict.fromkeys(kept))

    def detail(
        self, detail: Mapping[str, Any], identifiers: Mapping[str, re.Pattern[str]]
    ) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in detail.items():
            shape = identifiers.get(key)
            if isinstance(value, str):
                keep = shape is not None and shape.fullmatch(value) is not None
                out[key] = value if keep else self.keyed(key, value)
            elif isinstance(value, list):
                out[key] = [self.keyed(key, v) if isinstance(v, str) else v for v in value]
            else:
                out[key] = value
        return out

    def tree(self, value: Any, key: str = "", depth: int = 0) -> Any:
        """A legacy field of any shape: every key and string redacted."""
        if depth > MAX_UNKNOWN_DEPTH:
            return None
        if isinstance(value, str):
            return self.keyed(key, value) if key else self.text(value)
        if isinstance(value, list):
            return [self.tree(v, key, depth + 1) for v in value]
        if isinstance(value, dict):
            return {self.text(str(k)): self.tree(v, str(k), depth + 1) for k, v in value.items()}
        return value


def clean_detail(
    detail: Mapping[str, Any],
    *,
    redact: Redact,
    identifiers: Mapping[str, re.Pattern[str]],
) -> tuple[dict[str, Any], dict[str, int]]:
    """An observed event's detail redacted for storage (strings and lists of strings;
    identifiers of their exact shape kept), with the redaction counts."""
    c = _Cleaner(redact, None)
    return c.detail(detail, identifiers), c.counts


def admit(
    incoming: MemoryState,
    *,
    redact: Redact,
    normalize: Normalize | None,
    identifiers: Mapping[str, re.Pattern[str]],
) -> Admitted:
    """``incoming`` (entries from outside: a legacy import) cleaned for storage.

    Every free text, legacy field (keys too) and observed detail is redacted;
    every path goes through the path contract. A path that breaks it is left
    out — a relevant file with it is dropped, a verification keeps its other
    files (with none left its scope is unknown) — and counted by rule, so one
    bad entry in an old file does not block the rest of it.
    """
    c = _Cleaner(redact, normalize)
    files = []
    for f in incoming.relevant_files:
        path = c.path(f.path)
        if path is not None:
            files.append(f.model_copy(update={"path": path, "why": c.text(f.why)}))
    checks = []
    for v in incoming.verification:
        related = c.paths(list(v.related_files))
        lost = bool(v.related_files) and not related
        checks.append(
            v.model_copy(
                update={
                    "command": c.text(v.command),
                    "result_text": c.text(v.result_text) if v.result_text else v.result_text,
                    "related_files": related,
                    "scope_unknown": v.scope_unknown or lost,
                    "stale": v.stale or lost,
                }
            )
        )
    intent, step = incoming.active_intent, incoming.next_action
    state = incoming.model_copy(
        update={
            "active_intent": intent.model_copy(update={"text": c.text(intent.text)})
            if intent
            else None,
            "next_action": step.model_copy(update={"text": c.text(step.text)}) if step else None,
            "decisions": [
                d.model_copy(update={"text": c.text(d.text)}) for d in incoming.decisions
            ],
            "archived_decisions": [
                d.model_copy(update={"text": c.text(d.text)}) for d in incoming.archived_decisions
            ],
            "relevant_files": files,
            "verification": checks,
            "risks": [r.model_copy(update={"text": c.text(r.text)}) for r in incoming.risks],
            "observed_context": [
                e.model_copy(update={"detail": c.detail(e.detail, identifiers)})
                for e in incoming.observed_context
            ],
            "unknown_fields": {
                c.text(str(k)): c.tree(v, str(k)) for k, v in incoming.unknown_fields.items()
            },
        }
    )
    return Admitted(state, c.counts, c.dropped)


def quoted(text: str) -> str:
    """``text`` short enough to quote in a message or a command (one line, ≤ 40)."""
    one = " ".join(text.split()).replace('"', "'")
    return one if len(one) <= 40 else one[:39] + "…"
