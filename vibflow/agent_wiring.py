"""The agent records, plugged into the rest of vibflow: checkpoint retention
(the turns' pins), the triggers' last-turn metric, the handoff's recent turns,
the recap's turns, the session recap, and ``recover --explain``'s last turn.

Every seam here reads ``.vibflow/agents.db`` only when it exists: a project
no agent hook ever ran in never gets the file, and a command that asks about
turns there gets "none" without opening anything.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from vibflow.engine.errors import ErrorCode, VibflowError

if TYPE_CHECKING:
    from vibflow.steps.agents.ledger import Ledger, TurnView
    from vibflow.steps.agents.records import AgentRecords, Session, Turn
    from vibflow.steps.handoff.sections import TurnLine
    from vibflow.steps.recaps.project import TurnFact
    from vibflow.steps.recovery.evidence_yours import RecordedTurn
    from vibflow.steps.recovery.models import AgentTurnNote
    from vibflow.wiring import Project


def has_records(project: Project) -> bool:
    return (project.root / ".vibflow" / "agents.db").exists()


def turn_pins(project: Project) -> Callable[[], set[str] | None]:
    """The checkpoint ids the kept turns name (``None`` when there are no records:
    turn checkpoints then follow the general retention rule)."""

    def pins() -> set[str] | None:
        if not has_records(project):
            return None
        policy = project.agents_policy.turns
        try:
            return project.agent_records.pinned_checkpoints(
                keep_sessions=policy.keep_sessions,
                keep_days=policy.keep_days,
                max_turns=policy.max_turns,
                now=datetime.now(UTC),
            )
        except Exception:  # noqa: BLE001 - unreadable records: the general rule, never a failure
            return None

    return pins


def ledger(project: Project) -> Ledger:
    from vibflow.steps.agents.rewind_steps import ledger_for

    return ledger_for(project.recovery_services, project.agent_records)


def turn_json(v: TurnView) -> dict[str, Any]:
    """One turn as ``vibflow rewind --json`` and the MCP ``rewind_list`` tool show it."""
    t = v.turn
    return {
        "turn": t.number,
        "turn_id": t.id,
        "started_at": t.started_at,
        "ended_at": t.ended_at,
        "ended_by": t.ended_by,
        "checkpoint_before": t.start_checkpoint,
        "checkpoint_after": t.end_checkpoint,
        "reported": v.reported,
        "changed": v.changed,
        "unreported": v.unreported,
        "changed_outside_tools": bool(v.unreported),
        "yours_after": v.after,
        "note": t.note,
    }


def find_session(records: AgentRecords, wanted: str | None) -> Session | None:
    """The session ``wanted`` names (an id or a unique prefix), else the latest one."""
    if wanted is None:
        latest = records.sessions(1) if records.path.exists() else []
        return latest[0] if latest else None
    found = records.find_session(wanted) if records.path.exists() else None
    if found is None:
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"there is no agent session '{wanted[:60]}' (or the prefix names several)",
            hint="`vibflow rewind --json` lists the sessions.",
        )
    return found


def rewind_listing(
    project: Project, session: Session | None
) -> tuple[list[TurnView], list[Session]]:
    """The turns of ``session`` (with what changed around each) and the latest sessions."""
    records = project.agent_records
    views = ledger(project).views(records.turns(session.id)) if session else []
    sessions = records.sessions(10) if records.path.exists() else []
    return views, sessions


def _agent_of(records: AgentRecords, turn: Turn) -> str:
    session = records.get_session(turn.session_id)
    return session.agent if session else "agent"


class TurnFeed:
    """Recent turns for the triggers (``TurnSource``), the handoff (``TurnFacts``)
    and the project recap (``recap_wiring.TurnSource``)."""

    def __init__(self, project: Project) -> None:
        self._project = project

    def _records(self) -> AgentRecords | None:
        return self._project.agent_records if has_records(self._project) else None

    def files_outside_zone_in_last_turn(self) -> int | None:
        """Files the last turn's tools reported outside the files memory marks relevant
        (``None`` with no turn yet, or no relevant files to judge by)."""
        records = self._records()
        turn = records.last_turn() if records else None
        if records is None or turn is None:
            return None
        relevant = [
            f.path
            for f in self._project.memory.read().state.relevant_files
            if f.source == "explicit"
        ]
        if not relevant:
            return None
        return sum(1 for p in records.files(turn.id) if not _inside(p, relevant))

    def recent_turns(self, limit: int) -> Sequence[TurnLine]:
        from vibflow.steps.handoff.sections import TurnLine

        records = self._records()
        if records is None:
            return []
        return [
            TurnLine(at=t.started_at, agent=_agent_of(records, t), files=tuple(records.files(t.id)))
            for t in records.recent_turns(limit)
        ]

    def turns_since(self, since: str | None, limit: int) -> Sequence[TurnFact]:
        from vibflow.steps.recaps.project import TurnFact

        records = self._records()
        if records is None:
            return []
        out = []
        for t in reversed(records.recent_turns(limit, since)):
            session = records.get_session(t.session_id)
            out.append(
                TurnFact(
                    session=session.agent_session if session else t.session_id,
                    turn=t.number,
                    agent=session.agent if session else "agent",
                    files=tuple(records.files(t.id)),
                )
            )
        return out


def _inside(path: str, relevant: Sequence[str]) -> bool:
    return any(path == r or path.startswith(r.rstrip("/") + "/") for r in relevant)


def write_session_recap(
    project: Project, records: AgentRecords, session: Session, turns: list[Turn]
) -> dict[str, Any]:
    """The recap of an agent session that just ended (its hook calls this)."""
    from vibflow.recap_wiring import write_session_recap as store
    from vibflow.steps.agents.ledger import Ledger
    from vibflow.steps.recaps.project import TurnFact
    from vibflow.steps.recaps.session import SessionFacts

    def diff(a: str, b: str | None) -> set[str]:
        return {c.path for c in project.checkpoints.diff(a, b)}

    views = Ledger(records, diff).views(turns, live=False)
    unreported = sorted({p for v in views for p in v.unreported})
    facts = SessionFacts(
        agent=session.agent,
        session=session.agent_session,
        started=session.started_at,
        ended=session.ended_at or session.last_seen,
        turns=[
            TurnFact(session.agent_session, t.number, session.agent, tuple(records.files(t.id)))
            for t in turns
        ],
        checkpoints=[t.start_checkpoint for t in turns if t.start_checkpoint],
        unreported=unreported,
    )
    return store(project, facts)


def last_turn_note(project: Project) -> Callable[[], AgentTurnNote | None]:
    """``recover --explain``'s line about the agent's last turn: the files it
    changed (tools' reports and the tree's diff over the turn)."""

    def note() -> AgentTurnNote | None:
        from vibflow.steps.recovery.models import AgentTurnNote

        if not has_records(project):
            return None
        records = project.agent_records
        turn = records.last_turn()
        if turn is None:
            return None
        (view,) = ledger(project).views([turn], live=False)
        return AgentTurnNote(
            agent=_agent_of(records, turn),
            turn=turn.number,
            started_at=turn.started_at,
            files=view.touched,
            checkpoint_id=turn.start_checkpoint,
        )

    return note


def recorded_turns(project: Project) -> Callable[[], Sequence[RecordedTurn]]:
    """The recent agent turns, for recovery to tell the user's own edits from the
    agent's (none when no hook ever ran, or the records cannot be read)."""

    def turns() -> Sequence[RecordedTurn]:
        if not has_records(project):
            return []
        from vibflow.steps.agents.ledger import recorded_turns as read
        from vibflow.steps.recovery.evidence_yours import RECENT_TURNS

        try:
            return read(project.agent_records, RECENT_TURNS)
        except Exception:  # noqa: BLE001 - unreadable records: no evidence, never a failure
            return []

    return turns
