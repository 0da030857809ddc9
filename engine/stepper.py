"""The advance loop: run a state's step, turn its result into an event, ask the
machine whether the event may fire, record the move — until the run pauses or
ends.

:class:`~vibflow.engine.runner.Runner` decides *when* a run advances (start,
send, resume, fork) and owns the run while it does; this loop is *how* it
advances, shared by all of them. It never claims a run itself: every method
is called with the run's owner already holding it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from vibflow.engine.audit import AuditFacts
from vibflow.engine.claims import Claims
from vibflow.engine.contexts import ContextFactory, as_result, merge_context
from vibflow.engine.definition import FlowDefinition, StateSpec
from vibflow.engine.errors import VibflowError
from vibflow.engine.faults import CrashPlan
from vibflow.engine.kinds import RunStatus
from vibflow.engine.machine import FlowMachine, GuardProbe
from vibflow.engine.progress import JournalProgress
from vibflow.engine.recorder import Move, Recorder
from vibflow.engine.records import JournalStore, Owner, RunRecord
from vibflow.engine.registry import Registry, StepContext, StepResult


class Stepper:
    """Advances owned runs of verified flows (see the module docstring)."""

    def __init__(
        self,
        *,
        registry: Registry,
        journal: JournalStore,
        contexts: ContextFactory,
        recorder: Recorder,
        claims: Claims,
        crash: CrashPlan,
    ) -> None:
        self.registry = registry
        self.journal = journal
        self.contexts = contexts
        self.recorder = recorder
        self.claims = claims
        self.crash = crash
        #: The exception that failed the last step, for a caller that shows details.
        self.last_exception: BaseException | None = None
        self._machines: dict[str, FlowMachine] = {}

    def machine(self, defn: FlowDefinition) -> FlowMachine:
        key = defn.digest()
        if key not in self._machines:
            self._machines[key] = FlowMachine(defn, self.registry)
        return self._machines[key]

    def drive(self, run: RunRecord, defn: FlowDefinition, owner: Owner) -> RunRecord:
        """Run steps and pass-through states until the run pauses or ends.

        A step's own errors fail the run (:meth:`run_step`); an error of the
        engine's (a context over its bound, a journal that cannot be written)
        or an interrupt escapes from here — the run is then left
        ``interrupted``, never ``running`` with nobody advancing it, so it can
        be resumed or aborted.
        """
        try:
            return self.advance(run, defn, owner)
        except BaseException:
            self.interrupted_by_error(run.run_id, defn, owner)
            raise

    def interrupted_by_error(self, run_id: str, defn: FlowDefinition, owner: Owner) -> None:
        try:
            run = self.claims.mine(run_id, owner)
            if run.status == RunStatus.RUNNING:
                self.recorder.interrupted(
                    run,
                    defn,
                    owner,
                    why="stopped by an error; resume or abort it",
                    recap_reason="run interrupted by an error",
                )
        except Exception:  # noqa: BLE001, S110 - the first error is the one to report;
            pass  # refresh() marks the run interrupted later when this write fails too

    def advance(self, run: RunRecord, defn: FlowDefinition, owner: Owner) -> RunRecord:
        while run.status == RunStatus.RUNNING:
            state = defn.states[run.state]
            if state.kind == "pass":
                run = self.fire(run, defn, owner, "done", {})
            elif state.step is None:  # a final state without a step never stays running
                return self.recorder.finish(run, defn, owner, state, None)
            else:
                run = self.run_step(run, defn, owner, state, state.step)
        return run

    def run_step(
        self, run: RunRecord, defn: FlowDefinition, owner: Owner, state: StateSpec, step: str
    ) -> RunRecord:
        """Run the state's step; any error it raises fails the run, visibly."""
        spec = self.registry.get_step(step)
        started = self.recorder.now()
        step_ctx = self.step_context(run)
        try:
            try:
                result = as_result(spec.fn(step_ctx))
            finally:
                step_ctx.progress.flush()
            AuditFacts.model_validate(dict(result.audit))
        except VibflowError as exc:
            self.last_exception = exc
            why = f"step '{spec.name}' failed: {exc.message}"
        except ValidationError as exc:
            self.last_exception = exc
            why = f"step '{spec.name}' returned audit facts that are not count-only"
        except Exception as exc:  # noqa: BLE001 - any step bug must fail the run, visibly
            self.last_exception = exc
            why = f"step '{spec.name}' failed unexpectedly ({type(exc).__name__})"
        else:
            return self.after_step(run, defn, owner, state, result, started)
        return self.recorder.fail(run, defn, owner, why)

    def after_step(
        self,
        run: RunRecord,
        defn: FlowDefinition,
        owner: Owner,
        state: StateSpec,
        result: StepResult,
        started: str,
    ) -> RunRecord:
        if state.final:
            return self.recorder.finish(run, defn, owner, state, result)
        if result.event not in state.on:
            return self.recorder.fail(
                run,
                defn,
                owner,
                f"step '{state.step}' ended with event '{result.event}', which state "
                f"'{run.state}' does not handle (it handles: {', '.join(state.on)})",
            )
        return self.fire(run, defn, owner, result.event, {}, result=result, started=started)

    def fire(
        self,
        run: RunRecord,
        defn: FlowDefinition,
        owner: Owner,
        event: str,
        inputs: Mapping[str, Any],
        *,
        result: StepResult | None = None,
        started: str | None = None,
    ) -> RunRecord:
        """Ask the machine whether ``event`` may fire from the run's state, then
        record the transition or the refusal."""
        # A step's own results stay whatever the guards say; the event's inputs
        # become part of the run only if the transition happens (a refused
        # input must never be picked up later by another event).
        settled = merge_context(run.context, result.context if result is not None else {})
        context = merge_context(settled, {"inputs": dict(inputs)}) if inputs else settled
        context_json = self.recorder.check_size(context)
        probe = GuardProbe(self.contexts.guard(run.run_id, defn, run.state, event, context, inputs))
        target = self.machine(defn).fire(run.state, event, probe)
        move = Move.of(run.state, event, probe, result, started)
        if target is None:
            return self.recorder.refused(
                run, defn, owner, move, settled=settled, inputs=inputs, refusal=probe.refusal
            )
        return self.recorder.moved(
            run, defn, owner, move, target=target, context=context, context_json=context_json
        )

    def step_context(self, run: RunRecord) -> StepContext:
        return self.contexts.step(
            run_id=run.run_id,
            flow=run.flow,
            state=run.state,
            context=run.context,
            progress=JournalProgress(self.journal, run.run_id, run.state, self.crash),
            attempt=run.attempt,
        )
