"""Freshness rules (spec §9, §11), pure functions over memory and repo facts.

* The active intent is stale when its stored flag says so, when it is older
  than ``stale_intent_hours``, or when ``stale_intent_commits`` or more
  commits landed since it was set. A proposed intent is reported as proposed,
  never as the user's confirmed intent.
* A verification is stale when its flag says so (the intent changed since,
  or it was migrated without scope), when a related file changed after it
  ran, or — always — when its file scope is unknown: scope-unknown
  verification is never reported as fresh.

P0 gate 5: nothing that shows the intent may skip :func:`assess`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from vibflow.engine.clock import parse_stamp
from vibflow.steps.memory.facts import RepoFacts
from vibflow.steps.memory.models import MemoryState, Verification
from vibflow.steps.memory.policy import MemoryPolicy


@dataclass(frozen=True)
class VerificationFreshness:
    id: str
    stale: bool
    reason: str | None


@dataclass(frozen=True)
class Freshness:
    intent_stale: bool
    intent_proposed: bool
    intent_reasons: list[str] = field(default_factory=list)
    verification: list[VerificationFreshness] = field(default_factory=list)

    @property
    def stale_verification(self) -> int:
        return sum(1 for v in self.verification if v.stale)

    def to_json(self) -> dict[str, Any]:
        return {
            "intent_stale": self.intent_stale,
            "intent_proposed": self.intent_proposed,
            "stale_verification": self.stale_verification,
            "reasons": self.intent_reasons
            + [f"verification {v.id}: {v.reason}" for v in self.verification if v.stale],
        }


def intent_freshness(
    state: MemoryState, facts: RepoFacts, policy: MemoryPolicy, now: datetime
) -> tuple[bool, list[str]]:
    intent = state.active_intent
    if intent is None:
        return False, []
    reasons: list[str] = []
    if intent.stale:
        reasons.append("the intent was marked stale")
    updated = parse_stamp(intent.last_updated)
    if updated is None:
        reasons.append("the intent has no valid update time")
    else:
        age_h = (now - updated).total_seconds() / 3600
        if age_h > policy.stale_intent_hours:
            reasons.append(
                f"the intent was set {age_h:.0f} h ago "
                f"(stale after {policy.stale_intent_hours:g} h)"
            )
    if intent.head_at_update:
        count = facts.commits_since(intent.head_at_update)
        if count is not None and count >= policy.stale_intent_commits:
            reasons.append(
                f"{count} commits landed since the intent was set "
                f"(stale after {policy.stale_intent_commits})"
            )
    return bool(reasons), reasons


def verification_freshness(v: Verification, facts: RepoFacts) -> VerificationFreshness:
    if v.scope_unknown or not v.related_files:
        return VerificationFreshness(
            v.id, True, "the files it covers are unknown; rerun it with --files"
        )
    if v.stale:
        return VerificationFreshness(v.id, True, "marked stale (the intent changed since it ran)")
    ran = parse_stamp(v.timestamp)
    if ran is None:
        return VerificationFreshness(v.id, True, "it has no valid time")
    changed = facts.changed_after(v.related_files, ran)
    if changed:
        return VerificationFreshness(
            v.id, True, f"{len(changed)} related file(s) changed after it ran"
        )
    return VerificationFreshness(v.id, False, None)


def assess(
    state: MemoryState, facts: RepoFacts, policy: MemoryPolicy, *, now: datetime | None = None
) -> Freshness:
    now = now or datetime.now(UTC)
    stale, reasons = intent_freshness(state, facts, policy, now)
    proposed = bool(state.active_intent and state.active_intent.proposed)
    return Freshness(
        intent_stale=stale,
        intent_proposed=proposed,
        intent_reasons=reasons,
        verification=[verification_freshness(v, facts) for v in state.verification],
    )


def cascade_intent_change(state: MemoryState) -> MemoryState:
    """A new intent makes every earlier verification stale."""
    return state.model_copy(
        update={"verification": [v.model_copy(update={"stale": True}) for v in state.verification]}
    )
