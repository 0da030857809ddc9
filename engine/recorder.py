"""Journal-then-audit: how each move of a run is recorded.

Every move — a transition, a guard's refusal, a finish, a status change
(resumed, aborted, interrupted, failed) — is one journal commit: the entry and
the run's new state, status and context together, with a recap riding in the
same commit when the run pauses or ends. Only after the commit is the move's
audit row queued (:mod:`.audit_batch`) and the crash point of the fault
injector passed (:mod:`.faults`), so a crash test can kill the process right
after any committed move.

:class:`Recorder` decides nothing about *whether* a run may move (that is the
machine's and the runner's job); it is handed the outcome and writes it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from vibflow.engine.audit import AuditFacts
from vibflow.engine.audit_batch import AuditBatch
from vibflow.engine.clock import Clock, stamp
from vibflow.engine.contexts import merge_context
from vibflow.engine.definition import FlowDefinition, StateSpec
from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.faults import CrashPlan
from vibflow.engine.kinds import FinalStatus, RunStatus
from vibflow.engine.machine import GuardOutcome, GuardProbe
from vibflow.engine.recap import run_recap
from vibflow.engine.records import (
    Entry,
    JournalStore,
    Owner,
    RunRecord,
    RunUpdate,
    applied,
    encode_context,
)
from vibflow.engine.registry import StepResult

_OUTCOME_MAX = 200  # characters of a step's outcome note kept in the journal


def status_for(state: StateSpec) -> RunStatus:
    """The status a run has on entering ``state``."""
    if state.kind == "wait":
        return RunStatus.WAITING
    if state.kind == "final" and state.step is None:
        return RunStatus(state.status.value) if state.status else RunStatus.DONE
    return RunStatus.RUNNING


@dataclass(frozen=True)
class Move:
    """An event's firing as the journal and the audit record it."""

    event: str
    guards: list[dict[str, Any]]
    outcome: str
    started: str | None
    facts: dict[str, Any]

    @classmethod
    def of(
        cls,
        src: str,
        event: str,
        probe: GuardProbe,
        result: StepResult | None,
        started: str | None,
    ) -> Move:
        """The move, its audit facts (the step's, then each passed guard's)
        checked to be count-only."""
        facts = dict(result.audit) if result else {}
        for checked in probe.outcomes:
            if checked.passed:
                facts.update(checked.facts)
        if facts:
            try:
                AuditFacts.model_validate(facts)
            except ValidationError as exc:
                raise VibflowError(
                    ErrorCode.STEP_FAILED,
                    f"a check on '{src}' --{event}--> reported audit facts that are not count-only",
                ) from exc
        return cls(
            event=event,
            guards=[o.to_json() for o in probe.outcomes],
            outcome=(result.outcome if result else "")[:_OUTCOME_MAX],
            started=started,
            facts=facts,
        )


class Recorder:
    """Writes a run's moves to the journal, then queues their audit rows."""

    def __init__(
        self,
        *,
        journal: JournalStore,
        audit: AuditBatch,
        clock: Clock,
        crash: CrashPlan,
        context_max_bytes: int,
    ) -> None:
        self.journal = journal
        self.audit = audit
        self.clock = clock
        self.crash = crash
        self.context_max_bytes = context_max_bytes

    def now(self) -> str:
        return stamp(self.clock())

    def check_size(self, context: Mapping[str, Any]) -> str:
        """The context as the journal stores it, refused if over the policy bound."""
        encoded = encode_context(context)
        size = len(encoded)
        if size > self.context_max_bytes:
            raise VibflowError(
                ErrorCode.STEP_FAILED,
                f"the run context would grow to {size} bytes, over the "
                f"{self.context_max_bytes}-byte limit (policy engine.context_max_bytes)",
            )
        return encoded

    # -- the four kinds of move -------------------------------------------------------

    def moved(
        self,
        run: RunRecord,
        defn: FlowDefinition,
        owner: Owner,
        move: Move,
        *,
        target: str,
        context: dict[str, Any],
        context_json: str,
    ) -> RunRecord:
        """The event fired: the run enters ``target``."""
        status = status_for(defn.states[target])
        entry = self._entry(run, "transition", move, target)
        update = RunUpdate(state=target, status=status, context=context, context_json=context_json)
        reason = None if status is RunStatus.RUNNING else f"run {status}"
        run = self.write(run, defn, entry, update, owner, recap_reason=reason)
        self.audit.add(run, "transition", entry, **{"result": "ok", **move.facts})
        self.crash.after_transition(run.seq)
        return run

    def refused(
        self,
        run: RunRecord,
        defn: FlowDefinition,
        owner: Owner,
        move: Move,
        *,
        settled: dict[str, Any],
        inputs: Mapping[str, Any],
        refusal: GuardOutcome | None,
    ) -> RunRecord:
        """A guard refused: the run follows the state's ``on_blocked`` detour, or
        stays ``blocked`` with the event pending (retried by a resume)."""
        state = defn.states[run.state]
        reason = refusal.reason if refusal else "a check refused"
        detour = state.on_blocked
        entry = self._entry(run, "blocked", move, detour or state.on[move.event].target)
        if detour is not None:
            update = RunUpdate(
                state=detour,
                status=status_for(defn.states[detour]),
                context=settled,
                blocked_reason=reason,
            )
        else:
            update = RunUpdate(
                state=run.state,
                status=RunStatus.BLOCKED,
                context=settled,
                blocked_reason=reason,
                pending_event=move.event,
                pending_inputs=dict(inputs),
            )
        run = self.write(run, defn, entry, update, owner, recap_reason="guard refused")
        guard = refusal.name if refusal else None
        self.audit.add(
            run, "guard_refused", entry, **{**move.facts, "result": "refused", "guard": guard}
        )
        self.crash.after_transition(run.seq)
        return run

    def finish(
        self,
        run: RunRecord,
        defn: FlowDefinition,
        owner: Owner,
        state: StateSpec,
        result: StepResult | None,
    ) -> RunRecord:
        """The run reached a final state (its step, if any, has run)."""
        final = (result.status if result and result.status else state.status) or FinalStatus.DONE
        status = RunStatus(final.value)
        context = merge_context(run.context, result.context if result else {})
        self.check_size(context)
        entry = Entry(
            run.run_id,
            run.seq + 1,
            "status",
            run.state,
            "finished",
            run.state,
            outcome=(result.outcome if result else "")[:_OUTCOME_MAX],
            at=self.now(),
        )
        update = RunUpdate(state=run.state, status=status, context=context)
        run = self.write(run, defn, entry, update, owner, recap_reason=f"run {status}")
        facts = dict(result.audit) if result else {}
        facts.setdefault("result", "ok" if status is RunStatus.DONE else status.value)
        self.audit.add(run, "run_finished", entry, **facts)
        self.crash.after_transition(run.seq)
        return run

    def fail(self, run: RunRecord, defn: FlowDefinition, owner: Owner, message: str) -> RunRecord:
        return self.set_status(
            run,
            defn,
            owner,
            event="failed",
            status=RunStatus.FAILED,
            outcome=message,
            audit_event="run_failed",
            result="failed",
            recap_reason="run failed",
            error=message,
        )

    def interrupted(
        self, run: RunRecord, defn: FlowDefinition, owner: Owner, *, why: str, recap_reason: str
    ) -> RunRecord:
        """Journal that the run stopped mid-step (its owner died, or an error
        escaped the drive loop): resumable and abortable from where it stopped."""
        return self.set_status(
            run,
            defn,
            owner,
            event="interrupted",
            status=RunStatus.INTERRUPTED,
            outcome=why,
            audit_event="run_interrupted",
            result="interrupted",
            recap_reason=recap_reason,
        )

    def aborted(
        self, run: RunRecord, defn: FlowDefinition, owner: Owner, *, note: str | None
    ) -> RunRecord:
        """Journal that the user aborted the run; ``note`` is what its step's abort
        hook cleaned up, if anything."""
        return self.set_status(
            run,
            defn,
            owner,
            event="aborted",
            status=RunStatus.ABORTED,
            outcome=f"aborted by the user; {note}" if note else "aborted by the user",
            audit_event="run_aborted",
            result="aborted",
            recap_reason="run aborted",
        )

    def set_status(
        self,
        run: RunRecord,
        defn: FlowDefinition,
        owner: Owner,
        *,
        event: str,
        status: RunStatus,
        outcome: str,
        audit_event: str,
        result: str,
        recap_reason: str | None = None,
        error: str | None = None,
    ) -> RunRecord:
        """Journal a status change at the run's current state (resumed, aborted,
        interrupted, failed), keeping any pending event, and audit it."""
        entry = Entry(
            run.run_id,
            run.seq + 1,
            "status",
            run.state,
            event,
            run.state,
            outcome=outcome[:_OUTCOME_MAX],
            at=self.now(),
        )
        update = RunUpdate(
            state=run.state,
            status=status,
            context=run.context,
            error=error,
            pending_event=run.pending_event,
            pending_inputs=run.pending_inputs,
        )
        run = self.write(run, defn, entry, update, owner, recap_reason=recap_reason)
        self.audit.add(run, audit_event, entry, result=result)
        return run

    # -- the journal commit ---------------------------------------------------------------

    def write(
        self,
        run: RunRecord,
        defn: FlowDefinition,
        entry: Entry,
        update: RunUpdate,
        owner: Owner,
        *,
        recap_reason: str | None = None,
    ) -> RunRecord:
        """One journal commit; a recap for pauses and ends rides in the same commit."""
        recap: dict[str, Any] | None = None
        if recap_reason is not None:
            predicted = applied(run, entry, update, owner=run.owner, updated_at=entry.at)
            entries = [*self.journal.entries(run.run_id), entry]
            done = len(self.journal.done_items(run.run_id, update.state))
            recap = run_recap(
                predicted,
                defn,
                entries,
                reason=recap_reason,
                generated_at=self.now(),
                items_done=done,
            ).model_dump(mode="json")
        return self.journal.advance(
            run, entry, update, owner, expect_token=owner.token, recap=recap
        )

    def recapped(self, run: RunRecord, defn: FlowDefinition, reason: str) -> RunRecord:
        """Store a fresh recap of ``run`` as it is now; the run, pointing at it."""
        recap = run_recap(
            run, defn, self.journal.entries(run.run_id), reason=reason, generated_at=self.now()
        )
        self.journal.save_recap(
            recap.id, "run", run.run_id, recap.generated_at, recap.model_dump(mode="json")
        )
        return dataclasses.replace(run, recap_id=recap.id)

    def _entry(self, run: RunRecord, kind: str, move: Move, to_state: str) -> Entry:
        return Entry(
            run.run_id,
            run.seq + 1,
            kind,
            run.state,
            move.event,
            to_state,
            move.guards,
            move.outcome,
            move.started,
            self.now(),
        )
