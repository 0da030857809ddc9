"""Build the trigger (nudge) service over one project's memory, git facts, agent
turns, handoffs and audit (part of the composition root, kept apart so ``wiring``
stays small).

Handoffs come from ``handoffs.json`` (``HandoffLedger``); agent turns from the
agent records (``MetricInputs.turns``). Metrics read memory through the store
alone (:class:`MemoryFacts`): reading memory needs none of the write gate.

Each evaluation reads memory, its freshness and git's counts afresh, so a
command that changes them between two evaluations sees the change. A command
that changes none of them (``recap``: its text, then the nudges after it)
marks its project ``steady``; they are then read once and shared.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from datetime import datetime

    from vibflow.steps.memory.freshness import Freshness
    from vibflow.steps.memory.models import MemoryState
    from vibflow.steps.memory.store import Loaded
    from vibflow.steps.triggers.metrics import MetricInputs
    from vibflow.steps.triggers.service import TriggerService
    from vibflow.wiring import Project


def trigger_service(project: Project) -> TriggerService:
    """Check, show (``nudges(source)``) and answer the project's triggers."""
    from vibflow.engine.clock import system_clock
    from vibflow.steps.triggers.baseline import Baseline
    from vibflow.steps.triggers.service import TriggerService
    from vibflow.steps.triggers.session import SessionFile

    recovery = project.state_dir / "recovery"
    return TriggerService(
        project.triggers_policy,
        inputs=lambda now, started: _inputs(project, now, started),
        sessions=SessionFile(recovery),
        baseline=Baseline(recovery, project.state_dir / "audit.jsonl"),
        audit=lambda rows: _audit(project, rows),
        clock=system_clock,
    )


class MemoryFacts:
    """Memory and its freshness (assessed against git through the trigger repo
    facts), as the trigger metrics and the project recap read them: afresh on
    every call, or once per command when the project is ``steady``."""

    def __init__(self, project: Project) -> None:
        self._project = project
        self._loaded: Loaded | None = None
        self._fresh: Freshness | None = None

    def loaded(self) -> Loaded:
        from vibflow.steps.memory.store import MemoryStore

        if self._loaded is not None and self._project.steady:
            return self._loaded
        self._loaded = MemoryStore(self._project.state_dir / "memory.json").load()
        self._fresh = None
        return self._loaded

    def state(self) -> MemoryState:
        return self.loaded().state

    def freshness(self, state: MemoryState, now: datetime) -> Freshness:
        """:func:`~vibflow.steps.memory.freshness.assess` of ``state`` (P0 gate 5)."""
        from vibflow.steps.memory.freshness import assess
        from vibflow.steps.memory.policy import MemoryPolicy

        kept = self._loaded is not None and state is self._loaded.state and self._project.steady
        if kept and self._fresh is not None:
            return self._fresh
        policy = self._project.policy.section("memory", MemoryPolicy)
        fresh = assess(state, self._project.trigger_repo, policy, now=now)
        if kept:
            self._fresh = fresh
        return fresh


def _inputs(project: Project, now: Any, session_started: Any) -> MetricInputs:
    from vibflow.agent_wiring import TurnFeed
    from vibflow.handoff_wiring import handoff_ledger
    from vibflow.steps.triggers.metrics import MetricInputs

    memory = project.memory_facts
    found = MetricInputs(
        now=now,
        session_started=session_started,
        memory=memory.state,
        freshness=lambda: memory.freshness(found.state(), now),
        repo=project.trigger_repo,
        turns=TurnFeed(project),
        handoffs=handoff_ledger(project),
    )
    return found


def _audit(project: Project, rows: Any) -> None:
    from vibflow.engine.audit import TriggerRef

    project.audit.append_many(
        [
            ("trigger", {"trigger": TriggerRef(id=t, action=a, source=s), "result": "ok"})
            for t, a, s in rows
        ]
    )


def start_check(project: Project) -> None:
    """Start the git work a full ``triggers check`` will need, before anything else
    is loaded: the intent's commit is peeked from memory.json (a hint only — the
    answers are used for the commit the loaded memory names)."""
    from vibflow.steps.memory.reading import Unreadable, parse_object, read_bytes

    try:
        raw = parse_object(read_bytes(project.state_dir / "memory.json"))
    except (Unreadable, OSError):
        return
    intent = raw.get("active_intent")
    sha = intent.get("head_at_update") if isinstance(intent, dict) else None
    if isinstance(sha, str):
        project.trigger_repo.prefetch(sha)
