"""Freshness rules (spec §9, §11), pure functions over memory and repo facts.

* The active intent is stale when its stored flag says so, when it is older
  than ``stale_intent_hours``, or when ``stale_intent_commits`` or more
  commits landed since it was set. A proposed intent is reported as proposed,
  never as the user's confirmed intent.
* A verification is stale when its flag says so (the intent changed since,
  or it was migrated without scope), when a related file changed after it
  ran, or — always — when its file scope is unknown: scope-unknown
  verification is never reported as fresh.
* "After" is judged at the finest time both records keep (:func:`order`): a
  verification recorded at or after the last edit it covers is fresh. A
  verification's time is kept to the microsecond (older records, and records
  from elsewhere, to the second); a file's to the nanosecond, or the second on
  a filesystem that keeps no finer. When the two windows overlap — an edit and
  an old seconds-only record in the same second — the order cannot be told,
  and the verification is reported as *unsure*, not stale: calling it stale
  would be a guess that blames a check the user may just have run.

P0 gate 5: nothing that shows the intent may skip :func:`assess`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from vibflow.engine.clock import parse_stamp
from vibflow.steps.memory.facts import SECOND_NS, FileTime, RepoFacts
from vibflow.steps.memory.models import MemoryState, Verification
from vibflow.steps.memory.policy import MemoryPolicy


@dataclass(frozen=True)
class VerificationFreshness:
    id: str
    stale: bool
    reason: str | None
    #: Not stale, but not known to be fresh either: why (``order`` could not tell).
    unsure: str | None = None


@dataclass(frozen=True)
class Freshness:
    intent_stale: bool
    intent_proposed: bool
    intent_reasons: list[str] = field(default_factory=list)
    verification: list[VerificationFreshness] = field(default_factory=list)

    @property
    def stale_verification(self) -> int:
        return sum(1 for v in self.verification if v.stale)

    @property
    def unsure_verification(self) -> int:
        return sum(1 for v in self.verification if v.unsure and not v.stale)

    def to_json(self) -> dict[str, Any]:
        return {
            "intent_stale": self.intent_stale,
            "intent_proposed": self.intent_proposed,
            "stale_verification": self.stale_verification,
            "unsure_verification": self.unsure_verification,
            "reasons": self.intent_reasons
            + [f"verification {v.id}: {v.reason}" for v in self.verification if v.stale],
            "unsure": [
                f"verification {v.id}: {v.unsure}"
                for v in self.verification
                if v.unsure and not v.stale
            ],
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
    ran_ns, ran_precision = stamp_window(v.timestamp, ran)
    orders = [order(ran_ns, ran_precision, t) for t in facts.file_times(v.related_files)]
    changed = orders.count("after")
    if changed:
        return VerificationFreshness(v.id, True, f"{changed} related file(s) changed after it ran")
    unsure = orders.count("unsure")
    if unsure:
        return VerificationFreshness(
            v.id,
            False,
            None,
            unsure=f"{unsure} related file(s) changed in the same second it was recorded "
            "(its time is kept to the second), so which came first is unknown; "
            "rerun it to be sure",
        )
    return VerificationFreshness(v.id, False, None)


Order = Literal["before", "after", "unsure"]


def order(ran_ns: int, ran_precision_ns: int, edit: FileTime) -> Order:
    """Whether ``edit`` happened before the verification or after it.

    Each time is a window — the moment lies in ``[t, t + precision)`` — because
    a stored time is cut to its precision, never rounded up. Before (fresh) when
    the edit's window ends by the time the verification's begins (an edit in the
    same instant counts: at or after the edit is fresh); after (stale) when the
    edit's window begins once the verification's is over; otherwise the windows
    overlap and the records cannot tell. A deleted file is always after.

    A kernel stamps a file from a clock that may lag the one the verification
    was stamped from by a tick (a few ms), so an edit within that tick *after*
    a verification can read as before it; an edit before one never reads as after.
    """
    if edit.ns is None:
        return "after"
    if edit.ns + edit.precision_ns <= ran_ns:
        return "before"
    if edit.ns >= ran_ns + ran_precision_ns:
        return "after"
    return "unsure"


def stamp_window(text: str, ran: datetime) -> tuple[int, int]:
    """The verification's time in nanoseconds and how finely it was kept: as many
    digits as its stamp's fraction has (six, the microsecond, as vibflow writes
    them; none, the whole second, as older records and imports have them)."""
    seconds = int(ran.timestamp() // 1)
    ns = seconds * SECOND_NS + ran.microsecond * 1_000
    found = _FRACTION.search(text)
    digits = min(len(found.group(1)), 6) if found else 0  # a datetime keeps microseconds
    return ns, 10 ** (9 - digits)


_FRACTION = re.compile(r"T\d\d:\d\d:\d\d[.,](\d+)")


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
