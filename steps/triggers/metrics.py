"""The metrics a trigger condition may name: a registry of small functions.

A condition in ``policies/triggers.yaml`` names a metric; only the names
registered here exist (an unknown one fails validation with the nearest
names). Each metric has a kind (a number or a yes/no), a unit and a line of
help, and reads what it needs through :class:`MetricInputs` — a bundle of
lazy seams, so a check that never names a git metric never runs git.

A metric whose data is not there says so (:class:`Unavailable`) instead of
guessing: agent turns and handoffs come from other parts of vibflow, and
until a project has them the triggers built on them stay quiet, reported as
"not available" rather than firing or passing.

Records here are named tuples and plain classes rather than dataclasses: a
nudge is worked out in fresh processes (``recap``, hooks), where building a
dataclass costs about a millisecond each.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Literal, NamedTuple, Protocol

from vibflow.engine.clock import parse_stamp
from vibflow.steps.memory.freshness import Freshness
from vibflow.steps.memory.models import MemoryState

Kind = Literal["number", "bool"]
Value = int | float | bool


class Unavailable(NamedTuple):
    """A metric that cannot be measured here, and why (plain words)."""

    reason: str


Reading = Value | Unavailable


class TurnSource(Protocol):
    """Agent turns (recorded by the agent hooks): the seam their owner plugs in."""

    def files_outside_zone_in_last_turn(self) -> int | None:
        """Files the latest turn touched outside the intent zone (None: no turn yet)."""


class HandoffSource(Protocol):
    """Handoffs written in this session: the seam the handoff command plugs in."""

    def handoff_without_next_action(self, since: datetime) -> bool | None:
        """Whether a handoff since ``since`` had no confirmed next action (None: none made)."""


class DiffFacts(Protocol):
    """What a few metrics need from git (``steps.triggers.repo`` over git)."""

    def commits_since(self, sha: str) -> int | None: ...

    def diff_lines_since(self, sha: str) -> int | None:
        """Lines added plus deleted between ``sha`` and the work tree (None: unknown)."""

    def exists(self, path: str) -> bool | None: ...

    def close(self) -> None:
        """End any git work started ahead and never read."""


class MetricInputs:
    """Everything a metric may read, each behind a provider called at most once."""

    __slots__ = (
        "_fresh",
        "_state",
        "freshness",
        "handoffs",
        "memory",
        "now",
        "repo",
        "session_started",
        "turns",
    )

    def __init__(
        self,
        now: datetime,
        session_started: datetime,
        memory: Callable[[], MemoryState],
        freshness: Callable[[], Freshness],
        repo: DiffFacts,
        turns: TurnSource | None = None,
        handoffs: HandoffSource | None = None,
    ) -> None:
        self.now = now
        self.session_started = session_started
        self.memory = memory
        self.freshness = freshness
        self.repo = repo
        self.turns = turns
        self.handoffs = handoffs
        self._state: MemoryState | None = None
        self._fresh: Freshness | None = None

    def state(self) -> MemoryState:
        if self._state is None:
            self._state = self.memory()
        return self._state

    def fresh(self) -> Freshness:
        if self._fresh is None:
            self._fresh = self.freshness()
        return self._fresh


class Metric(NamedTuple):
    name: str
    kind: Kind
    unit: str
    help: str
    read: Callable[[MetricInputs], Reading]


def _decisions_count(m: MetricInputs) -> Reading:
    return len(m.state().decisions)


def _patch_applies(m: MetricInputs) -> Reading:
    started = m.session_started
    count = 0
    for event in m.state().observed_context:
        at = parse_stamp(event.at)
        if event.kind == "patch_apply" and at is not None and at >= started:
            count += 1
    return count


def _intent_base(m: MetricInputs) -> tuple[datetime | None, str | None] | Unavailable:
    intent = m.state().active_intent
    if intent is None:
        return Unavailable("no active intent is set")
    return parse_stamp(intent.last_updated), intent.head_at_update


def _intent_age_hours(m: MetricInputs) -> Reading:
    base = _intent_base(m)
    if isinstance(base, Unavailable):
        return base
    if base[0] is None:
        return Unavailable("the intent has no valid update time")
    return round((m.now - base[0]).total_seconds() / 3600, 3)


def _since_intent(m: MetricInputs, count: Callable[[str], int | None]) -> Reading:
    base = _intent_base(m)
    if isinstance(base, Unavailable):
        return base
    if not base[1]:
        return Unavailable("the intent was set without a commit to compare with")
    found = count(base[1])
    return Unavailable("git could not compare with the intent's commit") if found is None else found


def _diff_lines(m: MetricInputs) -> Reading:
    return _since_intent(m, m.repo.diff_lines_since)


def _commits(m: MetricInputs) -> Reading:
    return _since_intent(m, m.repo.commits_since)


def _intent_stale(m: MetricInputs) -> Reading:
    if m.state().active_intent is None:
        return Unavailable("no active intent is set")
    return m.fresh().intent_stale


def _verification_stale(m: MetricInputs) -> Reading:
    if not m.state().verification:
        return Unavailable("no verification is recorded")
    return m.fresh().stale_verification > 0


def _outside_zone(m: MetricInputs) -> Reading:
    found = m.turns.files_outside_zone_in_last_turn() if m.turns is not None else None
    return Unavailable("no agent turn is recorded yet") if found is None else found


def _handoff(m: MetricInputs) -> Reading:
    if m.handoffs is None:
        return Unavailable("no handoff was made in this session")
    found = m.handoffs.handoff_without_next_action(m.session_started)
    return Unavailable("no handoff was made in this session") if found is None else found


def _missing_files(m: MetricInputs) -> Reading:
    explicit = m.state().explicit_files()
    if not explicit:
        return 0
    return sum(1 for f in explicit if m.repo.exists(f.path) is False)


def _next_action_missing(m: MetricInputs) -> Reading:
    return m.state().next_action is None


METRICS: dict[str, Metric] = {
    m.name: m
    for m in (
        Metric(
            "decisions_count",
            "number",
            "decisions",
            "decisions recorded in memory",
            _decisions_count,
        ),
        Metric(
            "patch_applies_in_session",
            "number",
            "patches",
            "patches applied by an agent in this session (observed patch_apply events)",
            _patch_applies,
        ),
        Metric(
            "intent_age_hours",
            "number",
            "hours",
            "hours since the intent was set",
            _intent_age_hours,
        ),
        Metric(
            "diff_lines_since_intent",
            "number",
            "lines",
            "lines added or deleted since the commit the intent was set at",
            _diff_lines,
        ),
        Metric(
            "commits_since_intent",
            "number",
            "commits",
            "commits since the intent was set",
            _commits,
        ),
        Metric(
            "intent_stale",
            "bool",
            "yes/no",
            "the intent is stale by the memory policy (age or commits)",
            _intent_stale,
        ),
        Metric(
            "verification_stale",
            "bool",
            "yes/no",
            "a recorded verification is stale (a related file changed, or its scope is unknown)",
            _verification_stale,
        ),
        Metric(
            "files_outside_zone_in_last_turn",
            "number",
            "files",
            "files the last agent turn touched outside the intent zone",
            _outside_zone,
        ),
        Metric(
            "handoff_without_next_action",
            "bool",
            "yes/no",
            "a handoff in this session was made without a confirmed next action",
            _handoff,
        ),
        Metric(
            "relevant_files_missing",
            "number",
            "files",
            "explicit relevant files that are no longer in the work tree",
            _missing_files,
        ),
        Metric(
            "next_action_missing",
            "bool",
            "yes/no",
            "no next action is recorded",
            _next_action_missing,
        ),
    )
}


def metric_names() -> Sequence[str]:
    return sorted(METRICS)
