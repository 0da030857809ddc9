"""Build the handoff service over one project's memory, journal, redaction and
audit (part of the composition root, kept apart so ``wiring`` stays small)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vibflow.steps.handoff.ledger import HandoffLedger
    from vibflow.steps.handoff.sections import OpenRun, RecapLine
    from vibflow.steps.handoff.service import HandoffService
    from vibflow.wiring import Project

OPEN_STATUSES = ("interrupted", "blocked", "waiting")


def handoff_ledger(project: Project) -> HandoffLedger:
    from vibflow.steps.handoff.ledger import HandoffLedger

    return HandoffLedger(project.state_dir / "recovery")


def open_runs(project: Project, limit: int = 20) -> list[OpenRun]:
    """Runs left waiting, blocked or interrupted, each with the command that moves it on."""
    from vibflow.engine.definition import FlowDefinition
    from vibflow.engine.recap import continue_commands
    from vibflow.steps.handoff.sections import OpenRun

    if not (project.state_dir / "runs.db").exists():
        return []
    out = []
    for run in project.journal.runs(OPEN_STATUSES, limit=limit):
        defn = FlowDefinition.model_validate_json(run.definition)
        cmds = continue_commands(run, defn)
        out.append(
            OpenRun(
                run.run_id,
                run.flow,
                str(run.status),
                run.state,
                cmds[0] if cmds else f"vibflow resume {run.run_id}",
            )
        )
    return out


def last_recap(project: Project) -> RecapLine | None:
    from vibflow.steps.handoff.sections import RecapLine

    if not (project.state_dir / "runs.db").exists():
        return None
    body = project.journal.latest_recap()
    if body is None:
        return None
    bullets = body.get("bullets")
    return RecapLine(
        str(body.get("generated_at", "")),
        str(body.get("headline", "")),
        tuple(str(b) for b in bullets) if isinstance(bullets, list) else (),
    )


def handoff_service(project: Project) -> HandoffService:
    from vibflow.engine.audit import RedactionCounts
    from vibflow.engine.clock import system_clock
    from vibflow.steps.handoff.service import HandoffService

    def audit(counts: Mapping[str, int], intent_stale: bool, labelled: bool) -> None:
        project.audit.append(
            "handoff_written",
            result="ok",
            redaction=RedactionCounts(**counts) if any(counts.values()) else None,
            intent_stale=intent_stale,
            stale_labelled=labelled,
        )

    def redact_many(texts: list[str]) -> tuple[list[str], Mapping[str, int]]:
        value, counts = project.redact_payload(texts)
        return [str(v) for v in value], counts

    from vibflow.agent_wiring import TurnFeed

    return HandoffService(
        memory=project.memory.read,
        turns=TurnFeed(project),
        open_runs=lambda: open_runs(project),
        last_recap=lambda: last_recap(project),
        redact=redact_many,
        ledger=handoff_ledger(project),
        audit=audit,
        clock=system_clock,
    )
