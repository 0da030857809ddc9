"""Build the trigger (nudge) service over one project's memory, git facts, agent
turns, handoffs and audit (part of the composition root, kept apart so ``wiring``
stays small).

Handoffs come from ``handoffs.json`` (``HandoffLedger``); agent turns from the
agent records (``MetricInputs.turns``). Metrics read memory through the store
alone: reading memory needs none of the write gate.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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


def _inputs(project: Project, now: Any, session_started: Any) -> MetricInputs:
    from vibflow.agent_wiring import TurnFeed
    from vibflow.handoff_wiring import handoff_ledger
    from vibflow.steps.memory.freshness import assess
    from vibflow.steps.memory.policy import MemoryPolicy
    from vibflow.steps.memory.store import MemoryStore
    from vibflow.steps.triggers.metrics import MetricInputs

    repo = project.trigger_repo
    store = MemoryStore(project.state_dir / "memory.json")
    policy = project.policy.section("memory", MemoryPolicy)
    found = MetricInputs(
        now=now,
        session_started=session_started,
        memory=lambda: store.load().state,
        freshness=lambda: assess(found.state(), repo, policy, now=now),
        repo=repo,
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
