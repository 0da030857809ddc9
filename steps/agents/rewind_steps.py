"""``rewind.prepare``: the first step of the ``rewind`` flow — what putting the
tree back to the state before an agent turn would write and delete.

A rewind is a restore from the turn's start checkpoint and goes the restore
flow's guarded way from here on (``checkpoints.sandwich``, the confirmation
``APPLY <checkpoint>`` with every guard, ``recovery.apply``, ``recovery.result``;
``vibflow undo`` undoes it): this step only chooses the files, through the
same :class:`~vibflow.steps.recovery.restore_steps.PrepareSteps` job and
preview as ``checkpoint restore``.

What it adds is the hand-edit ledger (:mod:`.ledger`): a file the user edited
after the turn (not the agent) is left as it is unless the user named it —
as a PATH, or with ``include_mine`` — and the preview lists it either way,
under ``yours_kept`` or ``yours_overwritten``, so it is never overwritten
without being named in the preview and confirmed.
"""

from __future__ import annotations

from typing import Any

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.inputs import coerce
from vibflow.engine.registry import StepContext, StepResult
from vibflow.steps.agents.ledger import Ledger, RewindPlan
from vibflow.steps.agents.records import AgentRecords, Turn
from vibflow.steps.recovery.plans import sample
from vibflow.steps.recovery.restore_steps import (
    PrepareSteps,
    Selection,
    checkpoint_source,
    from_checkpoint,
)
from vibflow.steps.recovery.services import RecoveryServices


def ledger_for(svc: RecoveryServices, records: AgentRecords) -> Ledger:
    """The ledger over this project's checkpoints (tree diffs, renames both ways)."""

    def diff(a: str, b: str | None) -> set[str]:
        out: set[str] = set()
        for change in svc.checkpoints.diff(a, b):
            out.add(change.path)
            if change.old_path:
                out.add(change.old_path)
        return out

    return Ledger(records, diff)


def find_turn(records: AgentRecords, turn_id: str) -> tuple[Turn, list[Turn]]:
    """The turn and every turn of its session, or a clear error (bad input)."""
    turn = records.get_turn(turn_id)
    if turn is None:
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"there is no agent turn '{turn_id[:40]}'",
            hint="`vibflow rewind` lists the recent turns.",
        )
    return turn, records.turns(turn.session_id)


def plan_rewind(svc: RecoveryServices, records: AgentRecords, turn_id: str) -> RewindPlan:
    turn, turns = find_turn(records, turn_id)
    try:
        plan = ledger_for(svc, records).rewind(turns, turn.number)
    except LookupError as exc:
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"turn {turn.number} cannot be rewound: {exc}",
            hint="`vibflow rewind` lists the turns that can.",
        ) from exc
    try:
        checkpoint_source(svc, plan.checkpoint)
    except VibflowError as exc:
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"the checkpoint from before turn {turn.number} ({plan.checkpoint}) is gone "
            "(pruned by the retention policy, agents.turns), so the turn cannot be rewound",
            hint="`vibflow rewind` lists the turns that can.",
        ) from exc
    return plan


def choose(
    chosen: Selection, yours: list[str], *, named: bool, include_mine: bool
) -> tuple[Selection, list[str], list[str]]:
    """(what to restore, the user's files left as they are, the user's files overwritten)."""
    mine = set(yours)
    hit = sorted(set(chosen.paths) & mine)
    if named or include_mine:
        return chosen, [], hit
    keep = set(hit)
    return (
        Selection(
            [p for p in chosen.writes if p not in keep],
            [p for p in chosen.deletes if p not in keep],
            chosen.left_out,
        ),
        hit,
        [],
    )


class RewindSteps:
    def __init__(self, services: RecoveryServices, records: AgentRecords) -> None:
        self._svc = services
        self._records = records
        self._prepare = PrepareSteps(services)

    def prepare(self, ctx: StepContext) -> StepResult:
        inputs = ctx.context.get("inputs", {})
        raw = coerce(
            {"turn": "str?", "paths": "list?", "include_mine": "bool?"},
            {k: inputs.get(k) for k in ("turn", "paths", "include_mine")},
            where="the rewind",
        )
        if not raw.get("turn"):
            return StepResult(
                "nothing",
                outcome="nothing to restore",
                context={
                    "public": {"restore": {"nothing": "no turn was named: `vibflow rewind TURN`"}}
                },
            )
        plan = plan_rewind(self._svc, self._records, str(raw["turn"]))
        meta = checkpoint_source(self._svc, plan.checkpoint)
        named = list(raw.get("paths") or [])
        chosen, kept, overwritten = choose(
            from_checkpoint(self._svc, meta, named),
            plan.yours,
            named=bool(named),
            include_mine=bool(raw.get("include_mine")),
        )
        session = self._records.get_session(plan.turn.session_id)
        extra: dict[str, Any] = {
            "turn": {
                "id": plan.turn.id,
                "number": plan.turn.number,
                "agent": session.agent if session else None,
                "session": session.agent_session if session else None,
                "started_at": plan.turn.started_at,
            },
            "yours_kept": sample(kept),
            "yours_kept_total": len(kept),
            "yours_overwritten": sample(overwritten),
            "yours_overwritten_total": len(overwritten),
        }
        agent = session.agent if session else "agent"
        label = (
            f"rewind to before {agent} turn {plan.turn.number} (checkpoint {meta.checkpoint_id})"
        )
        return self._prepare.prepared(
            ctx, meta, chosen, label, level=3 if named else 4, undoes=None, extra=extra
        )
