"""The memory write gate (seed 002): one door for every write.

Checks, in order: read-only mode (a newer schema), authority (only a
confirmed writer may touch intent-shaping fields; automatic capture may only
append observed context), conflict (the same field changed by a different
writer within the conflict window needs a deliberate overwrite), and rate
(runaway automatic capture is refused). Each refusal says why and what to do.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.steps.memory.freshness import parse_time
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
        when = parse_time(existing.last_updated)
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
            and (t := parse_time(e.at)) is not None
            and 0 <= (now - t).total_seconds() < 60
        )
        if recent >= policy.observed_writes_per_minute:
            raise VibflowError(
                ErrorCode.RATE_LIMITED,
                f"{writer} appended {recent} observed events in the last minute; "
                "more are refused as runaway capture",
            )
