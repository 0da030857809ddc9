"""Handling one hook event: record the session and turn, take the turn's
checkpoints, note the files the tools reported — and never fail the agent.

Every step is tried on its own and records what it could: a checkpoint that
cannot be taken (a restore holds the project's lease, git is missing, the
store is broken) leaves the turn recorded without it and a problem noted; a
rejected path (the path contract refused it) is counted by its rule and never
stored; memory that refuses the observation (rate limit, a newer schema) is a
problem noted, not a failure. The caller (the ``vibflow agent hook`` entry)
bounds the whole call in time and always exits 0.

A turn is closed by the agent's turn-end hook (a checkpoint *after* the turn,
so the changes no tool reported can be told from the user's edits between
turns), by the next turn's start when the agent never sent one (an
interrupted turn: its end is the next turn's start, ``ended_by:
next_turn``), or by the session's end. When a turn closes, the files its
tools reported are appended to memory's observed context (``touched_files``:
the zone's ``recent_patch_target`` evidence) under the agent's own writer id
(``agent.<name>``), the only write automatic capture may make.

Standard library only, plus the seams the caller passes in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from vibflow.steps.agents.payloads import HookEvent
from vibflow.steps.agents.records import (
    AgentRecords,
    Session,
    Touched,
    Turn,
    now_iso,
    safe_session_id,
)

#: message -> checkpoint id (raises on any failure)
TakeCheckpoint = Callable[[str], str]
#: raw paths -> (project-relative paths, {rule: count} of those refused)
NormalizePaths = Callable[[Sequence[str]], tuple[list[str], dict[str, int]]]
#: None when files may be snapshotted now, else why not (a restore holds the lease)
Busy = Callable[[], str | None]
#: (agent, turn, paths) -> None; appends observed context (raises on refusal)
Observe = Callable[[str, Turn, list[str]], None]
#: (session, its turns) -> None; the session's recap
SessionEnded = Callable[[Session, list[Turn]], None]
#: () -> None; hand the ended turns' files to memory later, off the agent's time
ObserveLater = Callable[[], None]
#: () -> turns forgotten; the records' retention, run when a session ends
Prune = Callable[[], int]


class HookServices:
    """The seams one hook call works through (a plain class: see :class:`Outcome`)."""

    def __init__(
        self,
        *,
        records: AgentRecords,
        checkpoint: TakeCheckpoint,
        normalize: NormalizePaths,
        busy: Busy,
        problem: Callable[[str], None],
        observe: Observe | None = None,
        session_ended: SessionEnded | None = None,
        observe_later: ObserveLater | None = None,
        prune: Prune | None = None,
        clock: Callable[[], str] = now_iso,
    ) -> None:
        self.records = records
        self.checkpoint = checkpoint
        self.normalize = normalize
        self.busy = busy
        self.problem = problem
        self.observe = observe
        self.session_ended = session_ended
        self.observe_later = observe_later
        self.prune = prune
        self.clock = clock


class Outcome(NamedTuple):
    """What one hook call recorded (for tests and ``--verbose`` runs). NamedTuples
    and plain classes on the hook's path: ``dataclasses`` costs it milliseconds."""

    session_id: str | None = None
    turn: int | None = None
    checkpoint: str | None = None
    files: int = 0
    rejected: int = 0


class HookHandler:
    def __init__(self, services: HookServices) -> None:
        self._s = services

    def handle(self, event: HookEvent) -> Outcome:
        s = self._s
        session = s.records.session(event.agent, safe_session_id(event.session), s.clock())
        if event.kind == "session_start":
            return Outcome(session.id)
        if event.kind == "turn_start":
            return self._turn_start(event, session)
        if event.kind == "tool_use":
            return self._tool_use(event, session)
        if event.kind == "turn_end":
            return self._turn_end(event, session, ended_by="turn_end")
        out = self._turn_end(event, session, ended_by="session_end")
        s.records.end_session(session.id, s.clock())
        if s.session_ended is not None:
            try:
                s.session_ended(session, s.records.turns(session.id))
            except Exception as exc:  # noqa: BLE001 - a recap never fails the hook
                s.problem(f"the session recap could not be written ({_why(exc)})")
        if s.prune is not None:
            # Once per session, after its recap: the records stay bounded without
            # a turn ever paying for it.
            try:
                s.prune()
            except Exception as exc:  # noqa: BLE001 - retention never fails the hook
                s.problem(f"old turn records could not be forgotten ({_why(exc)})")
        return out

    # -- events -------------------------------------------------------------------

    def _turn_start(self, event: HookEvent, session: Session) -> Outcome:
        s = self._s
        previous = s.records.open_turn(session.id)
        number = (previous.number + 1) if previous else None
        checkpoint, note = self._snapshot(f"before {event.agent} turn {number or 'next'}")
        if previous is not None:
            # The agent never said the last turn ended (interrupted): it ended when
            # this one starts, and this checkpoint is its end.
            s.records.end_turn(
                previous.id, s.clock(), checkpoint, "next_turn", "no turn-end hook came"
            )
            self._observe(event.agent, previous)
        turn = s.records.start_turn(session.id, s.clock(), checkpoint, note)
        return Outcome(session.id, turn.number, checkpoint)

    def _tool_use(self, event: HookEvent, session: Session) -> Outcome:
        s = self._s
        turn = s.records.open_turn(session.id)
        if turn is None:
            # Hooks installed mid-session, or the turn-start hook failed: the files
            # still belong to a turn, one without a checkpoint before it.
            turn = s.records.start_turn(
                session.id, s.clock(), None, "no turn-start hook came: no checkpoint before it"
            )
        paths, rejected = s.normalize(event.paths) if event.paths else ([], {})
        s.records.touch(turn.id, [Touched(p, event.tool or "?") for p in paths], s.clock())
        if rejected:
            s.records.reject(turn.id, rejected)
            rules = ", ".join(f"{rule}: {n}" for rule, n in sorted(rejected.items()))
            s.problem(f"{event.tool} reported path(s) the path contract refused ({rules})")
        return Outcome(session.id, turn.number, None, len(paths), sum(rejected.values()))

    def _turn_end(self, event: HookEvent, session: Session, *, ended_by: str) -> Outcome:
        s = self._s
        turn = s.records.open_turn(session.id)
        if turn is None:
            return Outcome(session.id)
        checkpoint, note = self._snapshot(f"after {event.agent} turn {turn.number}")
        s.records.end_turn(turn.id, s.clock(), checkpoint, ended_by, note)
        self._observe(event.agent, turn)
        return Outcome(session.id, turn.number, checkpoint)

    # -- the parts that may fail ----------------------------------------------------

    def _snapshot(self, message: str) -> tuple[str | None, str | None]:
        s = self._s
        try:
            busy = s.busy()
        except Exception as exc:  # noqa: BLE001 - an unreadable lease is not a reason to stop
            busy = None
            s.problem(f"the restore lease could not be read ({_why(exc)})")
        if busy is not None:
            note = f"no checkpoint: {busy}"
            s.problem(note)
            return None, note
        try:
            return s.checkpoint(message), None
        except Exception as exc:  # noqa: BLE001 - the agent goes on; the turn says why
            note = f"no checkpoint: {_why(exc)}"
            s.problem(note)
            return None, note

    def _observe(self, agent: str, turn: Turn) -> None:
        s = self._s
        if s.observe is None or turn.observed:
            return
        files = s.records.files(turn.id)
        if files and s.observe_later is not None:
            # Memory's write path (its models, the write gate, redaction, the audit)
            # costs more than the agent should wait on. The turn stays unobserved in
            # the records — they are the queue — and is handed over off its time.
            try:
                s.observe_later()
            except Exception as exc:  # noqa: BLE001 - the next hand-over takes it along
                s.problem(f"memory's hand-over could not be started ({_why(exc)})")
            return
        try:
            if files:
                s.observe(agent, turn, files)
            s.records.mark_observed(turn.id)
        except Exception as exc:  # noqa: BLE001 - memory refusing is noted, never fatal
            s.problem(f"memory did not take the turn's files ({_why(exc)})")


def _why(exc: BaseException) -> str:
    """An exception in one plain line, without absolute paths (vibflow's own
    errors never carry one; anything else is named by its type only)."""
    from_vibflow = type(exc).__module__.startswith("vibflow.")
    text = str(exc).splitlines()[0] if from_vibflow and str(exc) else type(exc).__name__
    return text[:300]
