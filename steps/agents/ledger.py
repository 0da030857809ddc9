"""What each turn changed, who changed a file after a turn, and what a rewind
would leave alone: the hand-edit ledger, worked out from vibflow's own records.

Each turn has a checkpoint at its start (S) and, when the agent said the turn
ended, one at its end (E). Three facts follow from git alone:

* ``changed`` — S→E: every file the turn changed, tool or shell;
* ``unreported`` — of those, the ones no tool of the agent reported (shell
  edits, a formatter the agent ran — or someone typing during the turn);
* ``after`` — E→the next turn's S (or E→now after the last turn): files that
  changed while no turn ran, which only the user (or their own tools) did.

Rewinding to before turn *n* puts back S(n). A file in ``after`` of turn *n*
or any later turn is the user's own edit: a rewind never overwrites it unless
the user names it (a PATH or ``--include-mine``), and the preview lists it
either way. A turn whose end was never reported (``ended_by: next_turn``, the
agent was interrupted) cannot tell its shell edits from the user's, so its
``unreported`` files count as the user's too — the safe side.

Pure, over two seams: the records and a tree diff between checkpoints.

Recovery asks the same records the other way round — which changed files are
the user's, to keep them out of the drift — and takes the doubt to the agent's
side there (``steps/recovery/evidence_yours``): :func:`recorded_turns` hands it
the recent turns as plain facts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from vibflow.steps.agents.records import AgentRecords, Turn
from vibflow.steps.recovery.evidence_yours import RecordedTurn

#: (checkpoint, other checkpoint or None for the working tree now) -> changed paths
TreeDiff = Callable[[str, str | None], set[str]]


@dataclass(frozen=True)
class TurnView:
    turn: Turn
    reported: list[str]
    #: S→E; ``None`` when a checkpoint of the turn is missing (not taken, or pruned).
    changed: list[str] | None
    unreported: list[str]
    #: Changed after the turn while no turn ran (the user's own edits); ``None``: unknown.
    after: list[str] | None
    #: The turn's end is a guess (the agent never said it ended).
    end_unsure: bool

    @property
    def touched(self) -> list[str]:
        """Every file the turn is known to have changed or reported."""
        return sorted(set(self.reported) | set(self.changed or []))


@dataclass(frozen=True)
class RewindPlan:
    turn: Turn
    checkpoint: str
    #: Files changed since the turn's start that the user edited after it.
    yours: list[str]


class Ledger:
    def __init__(self, records: AgentRecords, diff: TreeDiff) -> None:
        self._records = records
        self._diff = diff

    def _safe_diff(self, a: str | None, b: str | None, *, to_now: bool = False) -> set[str] | None:
        if a is None or (b is None and not to_now):
            return None
        try:
            return self._diff(a, b)
        except Exception:  # noqa: BLE001 - a pruned or damaged checkpoint: unknown, not fatal
            return None

    def views(self, turns: Sequence[Turn], *, live: bool = True) -> list[TurnView]:
        """One view per turn, in order; ``live`` compares the last turn with the tree now."""
        out = []
        for i, turn in enumerate(turns):
            reported = self._records.files(turn.id)
            changed = self._safe_diff(turn.start_checkpoint, turn.end_checkpoint)
            nxt = turns[i + 1] if i + 1 < len(turns) else None
            if turn.ended_at is None:
                after: set[str] | None = set()  # still running: nothing is "after" it yet
            elif nxt is not None:
                after = self._safe_diff(turn.end_checkpoint, nxt.start_checkpoint)
            elif live:
                after = self._safe_diff(turn.end_checkpoint, None, to_now=True)
            else:
                after = None
            unsure = turn.ended_by not in ("turn_end", "session_end")
            unreported = sorted((changed or set()) - set(reported))
            out.append(
                TurnView(
                    turn=turn,
                    reported=reported,
                    changed=None if changed is None else sorted(changed),
                    unreported=unreported,
                    after=None if after is None else sorted(after),
                    end_unsure=unsure and turn.ended_at is not None,
                )
            )
        return out

    def rewind(self, turns: Sequence[Turn], number: int) -> RewindPlan:
        """What rewinding to before turn ``number`` of ``turns`` (one session) restores from,
        and the files the user edited since (raises :class:`LookupError` with a reason)."""
        index = next((i for i, t in enumerate(turns) if t.number == number), None)
        if index is None:
            raise LookupError(f"there is no turn {number} in this session")
        turn = turns[index]
        if turn.start_checkpoint is None:
            raise LookupError(
                f"turn {number} has no checkpoint from before it ({turn.note or 'none was taken'})"
            )
        yours: set[str] = set()
        for view in self.views(turns[index:]):
            yours |= set(view.after or [])
            if view.end_unsure:
                yours |= set(view.unreported)
        return RewindPlan(turn, turn.start_checkpoint, sorted(yours))


def recorded_turns(records: AgentRecords, limit: int) -> list[RecordedTurn]:
    """The newest ``limit`` turns of every session, oldest first, as recovery reads
    them: times, checkpoints and the files their tools reported."""
    agents: dict[str, str] = {}
    out = []
    for turn in reversed(records.recent_turns(limit)):
        if turn.session_id not in agents:
            session = records.get_session(turn.session_id)
            agents[turn.session_id] = session.agent if session else "agent"
        out.append(
            RecordedTurn(
                agent=agents[turn.session_id],
                number=turn.number,
                started_at=turn.started_at,
                ended_at=turn.ended_at,
                start=turn.start_checkpoint,
                end=turn.end_checkpoint,
                reported=tuple(records.files(turn.id)),
                ended_by=turn.ended_by,
            )
        )
    return out
