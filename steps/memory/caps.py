"""Caps and archiving (spec §14): memory stays small without losing truth.

Decisions older than the archive age move to ``archived_decisions`` (never
deleted, never fed back into the active intent); past the cap the oldest
decisions are archived too. Observed events keep the newest 200,
verification the newest 30 *per file scope*, relevant files the newest 100 —
but explicit relevant files are never silently dropped for observed ones:
observed entries go first. Pure functions over the model.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from pydantic import BaseModel, ConfigDict, Field

from vibflow.engine.clock import parse_stamp
from vibflow.steps.memory.models import Decision, MemoryState, Verification


class Caps(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    decisions: int = Field(default=50, ge=1)
    events: int = Field(default=200, ge=1)
    verification_per_scope: int = Field(default=30, ge=1)
    relevant_files: int = Field(default=100, ge=1)
    decision_archive_days: int = Field(default=90, ge=1)


def apply_caps(state: MemoryState, caps: Caps, *, now: datetime | None = None) -> MemoryState:
    now = now or datetime.now(UTC)
    cutoff = now - timedelta(days=caps.decision_archive_days)
    keep: list[Decision] = []
    archive = list(state.archived_decisions)
    for d in state.decisions:
        when = parse_stamp(d.created_at) or parse_stamp(d.last_updated)
        (archive if when is not None and when < cutoff else keep).append(d)
    if len(keep) > caps.decisions:
        archive += keep[: len(keep) - caps.decisions]
        keep = keep[len(keep) - caps.decisions :]
    by_scope: dict[str, list[Verification]] = {}
    for v in state.verification:
        by_scope.setdefault(v.scope_key, []).append(v)
    kept_ver = {id(v) for vs in by_scope.values() for v in vs[-caps.verification_per_scope :]}
    files = list(state.relevant_files)
    while len(files) > caps.relevant_files:
        observed = next((i for i, f in enumerate(files) if f.source == "observed"), None)
        if observed is None:
            break  # explicit entries are never silently dropped
        del files[observed]
    return state.model_copy(
        update={
            "decisions": keep,
            "archived_decisions": archive,
            "verification": [v for v in state.verification if id(v) in kept_ver],
            "observed_context": state.observed_context[-caps.events :],
            "relevant_files": files,
        }
    )
