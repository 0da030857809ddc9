"""Runs: start a flow, advance it, pause, resume, fork, abort.

Who decides what:

* ``transitions`` (through :class:`~vibflow.engine.machine.FlowMachine`)
  answers one question: *may this event fire from this state, and where to?*
  The event must exist for the state and every guard on the transition must
  pass, in order. It holds no run, writes nothing and runs no step.
* The runner (this module) adds everything durable around that answer: it
  runs the state's step and turns its result into the event to fire, stops
  at waits and takes their input (:meth:`Runner.send`), writes each move to
  the journal *before* the run is in its new state — journal-then-transition,
  with the audit row after the commit (:mod:`.recorder`) — and owns the run
  while it does (:mod:`.claims`).

Never ask the machine to run a step or the runner to evaluate a guard.

A run advances while it owns itself (a recorded pid + host + start time).
Each transition is one journal commit whose new status says what happens
next: ``running`` (a step or pass-through state follows, owner kept),
``waiting`` (a wait state, owner released), ``blocked`` (a guard refused,
owner released) or a final status. A process that dies mid-step therefore
leaves ``running`` with a dead owner, which :meth:`Runner.refresh` turns into
``interrupted``; :meth:`Runner.resume` re-runs that step only if it is
idempotent or can reconcile, and otherwise asks for an explicit re-run.

A run always executes the definition stored when it started, never the YAML
as it is now (workflow versioning).

The journal, the audit sink and the clock are passed in: the SQLite
:class:`~vibflow.engine.journal.Journal` and the
:class:`~vibflow.engine.audit.AuditLog` for real runs, the in-memory ones of
:mod:`.testing` for dry runs and tests.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from vibflow.engine.audit import AuditFacts, AuditSink
from vibflow.engine.audit_batch import AuditBatch
from vibflow.engine.claims import (
    REFRESH_WINDOW,
    Claims,
    busy,
    needs_refresh,
    orphaned,
    owner_is_dead,
    require_run,
)
from vibflow.engine.clock import Clock, system_clock
from vibflow.engine.contexts import ContextFactory, as_result, merge_context
from vibflow.engine.definition import FlowDefinition, StateSpec
from vibflow.engine.dryrun import DryRun, DryRunReport
from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.faults import CrashPlan
from vibflow.engine.forking import forked_record, start_inputs
from vibflow.engine.inputs import InputSanitizer, keep_inputs
from vibflow.engine.kinds import FINISHED, UNFINISHED, RunStatus
from vibflow.engine.loader import LoadedFlow
from vibflow.engine.machine import FlowMachine, GuardProbe
from vibflow.engine.ownership import current_owner
from vibflow.engine.progress import JournalProgress
from vibflow.engine.recorder import Move, Recorder, status_for
from vibflow.engine.records import Entry, JournalStore, Owner, RunRecord
from vibflow.engine.registry import Registry, StepContext, StepResult
from vibflow.engine.verifier import verify

__all__ = ["DryRunReport", "Runner", "merge_context", "status_for"]


class Runner:
    """Runs of verified flows over one journal and audit sink (see the module docstring)."""

    def __init__(
        self,
        *,
        registry: Registry,
        journal: JournalStore,
        audit: AuditSink,
        project_root: Path,
        env: Mapping[str, str],
        policy_digest: str = "",
        context_max_bytes: int = 65536,
        crash: CrashPlan | None = None,
        clock: Clock = system_clock,
        sanitize_inputs: InputSanitizer = keep_inputs,
    ) -> None:
        self.registry = registry
        # Every input passes here before a guard, step or the journal sees it.
        self.sanitize_inputs = sanitize_inputs
        self.journal = journal
        self.audit = audit
        self.project_root = project_root
        self.env = env
        self.policy_digest = policy_digest
        self.crash = crash or CrashPlan()
        self.clock = clock
        self.last_exception: BaseException | None = None
        self.contexts = ContextFactory(project_root, env)
        self._machines: dict[str, FlowMachine] = {}
        self._audit = AuditBatch(audit)
        self._claims = Claims(journal, self._audit)
        self._recorder = Recorder(
            journal=journal,
            audit=self._audit,
            clock=clock,
            crash=self.crash,
            context_max_bytes=context_max_bytes,
        )

    @property
    def context_max_bytes(self) -> int:
        """The policy bound on a run's stored context, in bytes."""
        return self._recorder.context_max_bytes

    @context_max_bytes.setter
    def context_max_bytes(self, value: int) -> None:
        self._recorder.context_max_bytes = value

    # -- definitions and runs -------------------------------------------------------

    def machine(self, defn: FlowDefinition) -> FlowMachine:
        key = defn.digest()
        if key not in self._machines:
            self._machines[key] = FlowMachine(defn, self.registry)
        return self._machines[key]

    def definition_of(self, run: RunRecord) -> FlowDefinition:
        """The definition the run started with, still valid for this registry."""
        defn = FlowDefinition.model_validate_json(run.definition)
        problems = verify(defn, self.registry)
        if problems:
            raise VibflowError(
                ErrorCode.NOT_RESUMABLE,
                f"run {run.run_id} was started with a version of flow '{run.flow}' that this "
                f"vibflow cannot run any more: {problems[0].message}",
                hint=f"Abort it with `vibflow runs abort {run.run_id}` and start a new run.",
            )
        return defn

    def get(self, run_id: str) -> RunRecord:
        return require_run(self.journal, run_id)

    def pick(self, run_id: str | None) -> RunRecord:
        if run_id is not None:
            return self.refresh(self.get(run_id))
        run = self.latest_unfinished()
        if run is None:
            raise VibflowError(
                ErrorCode.RUN_NOT_FOUND,
                "there is no unfinished run to resume",
                hint="`vibflow runs list` shows all runs.",
            )
        return run

    def latest_unfinished(self) -> RunRecord | None:
        self.refresh_all()
        runs = self.journal.runs(UNFINISHED, limit=1)
        return runs[0] if runs else None

    # -- lifecycle ----------------------------------------------------------------------

    def start(self, loaded: LoadedFlow, inputs: Mapping[str, Any] | None = None) -> RunRecord:
        defn = loaded.definition
        self.machine(defn)  # fail before writing anything if the machine cannot be built
        now = self._recorder.now()
        run = RunRecord(
            run_id=_new_run_id(),
            flow=defn.flow,
            flow_version=defn.version,
            origin=loaded.origin,
            definition=defn.canonical_json(),
            definition_digest=defn.digest(),
            policy_digest=self.policy_digest,
            status=status_for(defn.states[defn.initial]),
            state=defn.initial,
            context={"inputs": self.sanitize_inputs(dict(inputs or {}))},
            seq=0,
            created_at=now,
            updated_at=now,
            owner=current_owner(),
        )
        self._recorder.check_size(run.context)
        return self._open(run, defn, "run started")

    def fork(self, source_id: str, state: str) -> RunRecord:
        """A new run from ``source_id``'s stored definition, starting at ``state``."""
        source = self.get(source_id)
        defn = self.definition_of(source)
        if state not in defn.states:
            raise VibflowError(ErrorCode.BAD_INPUT, f"flow '{defn.flow}' has no state '{state}'")
        run = forked_record(
            source,
            defn,
            state,
            dict(source.context),
            now=self._recorder.now(),
            run_id=_new_run_id(),
        )
        return self._open(run, defn, "run forked")

    def fork_fresh(self, source_id: str, entry: int | None = None) -> RunRecord:
        """A new run of ``source_id``'s stored definition from its start, with the
        inputs it was started with, recording ``forked_from`` (run and entry).

        Unlike :meth:`fork` nothing of the old context is copied: the steps
        before the first wait run again against the world as it is now, so a
        plan the old run acted on is recomputed and nothing already done is
        offered again.
        """
        source = self.get(source_id)
        defn = self.definition_of(source)
        context = {
            "inputs": start_inputs(source, defn),
            "forked_from": {"run": source.run_id, "entry": source.seq if entry is None else entry},
        }
        run = forked_record(
            source, defn, defn.initial, context, now=self._recorder.now(), run_id=_new_run_id()
        )
        self._recorder.check_size(run.context)
        return self._open(run, defn, "run forked")

    def _open(self, run: RunRecord, defn: FlowDefinition, why: str) -> RunRecord:
        """Create ``run`` (owned by its ``owner``), then drive it or recap its pause."""
        owner = run.owner
        assert owner is not None  # noqa: S101 - a new run is created owned
        self.journal.create_run(run)
        with self._claims.holding(run.run_id, owner):
            start = Entry(run.run_id, 0, "start", None, None, run.state, at=run.created_at)
            self._audit.add_entry(run, start)
            if run.status == RunStatus.RUNNING:
                self._drive(run, defn, owner)
            else:
                self._recorder.recapped(run, defn, why)
        return self.get(run.run_id)

    def send(self, run_id: str, event: str, raw_inputs: Mapping[str, Any]) -> RunRecord:
        """Deliver an event (with inputs) to a waiting or blocked wait state."""
        from vibflow.engine.inputs import coerce

        run = self.refresh(self.get(run_id))
        defn = self.definition_of(run)
        state = defn.states[run.state]
        self._require_open(run)
        if state.kind != "wait":
            raise VibflowError(
                ErrorCode.BAD_INPUT,
                f"run {run_id} is not waiting for input (it is {run.status} at '{run.state}')",
                hint=f"`vibflow resume {run_id}` continues it.",
            )
        if event not in state.on:
            raise VibflowError(
                ErrorCode.UNKNOWN_EVENT,
                f"state '{run.state}' does not accept event '{event}'; it accepts: "
                f"{', '.join(state.on)}",
            )
        where = f"state '{run.state}'"
        inputs = self.sanitize_inputs(coerce(state.inputs, raw_inputs, where=where))
        with self._claims.owning(run) as owner:
            run = self._claims.mine(run_id, owner)
            run = self._fire(run, defn, owner, event, inputs)
            self._drive(run, defn, owner)
        return self.get(run_id)

    def resume(self, run_id: str | None = None, *, rerun_step: bool = False) -> RunRecord:
        run = self.pick(run_id)
        defn = self.definition_of(run)
        self._require_open(run)
        if run.status == RunStatus.WAITING:
            return run
        state = defn.states[run.state]
        spec = self.registry.get_step(state.step) if state.step else None
        interrupted = run.status == RunStatus.INTERRUPTED
        if interrupted and spec and not spec.safe_to_rerun and not rerun_step:
            raise VibflowError(
                ErrorCode.NOT_RESUMABLE,
                f"run {run.run_id} was interrupted inside step '{spec.name}' (state "
                f"'{run.state}'), which may have partly run and is not known to be safe to repeat",
                hint=f"Check the project, then run it again with `vibflow resume {run.run_id} "
                f"--rerun-step`, or stop it with `vibflow runs abort {run.run_id}`.",
            )
        with self._claims.owning(run, attempt_increment=True) as owner:
            run = self._claims.mine(run.run_id, owner)
            run = self._recorder.set_status(
                run,
                defn,
                owner,
                event="resumed",
                status=RunStatus.RUNNING,
                outcome=f"attempt {run.attempt}",
                audit_event="run_resumed",
                result="ok",
            )
            if run.pending_event is not None:
                run = self._fire(run, defn, owner, run.pending_event, run.pending_inputs or {})
            elif spec is not None and spec.reconcile is not None:
                reconciled = spec.reconcile(self._step_context(run))
                if reconciled is not None:
                    started = self._recorder.now()
                    run = self._after_step(run, defn, owner, state, reconciled, started)
            self._drive(run, defn, owner)
        return self.get(run.run_id)

    def abort(self, run_id: str) -> RunRecord:
        run = self.refresh(self.get(run_id))
        defn = self.definition_of(run)
        self._require_open(run)
        with self._claims.owning(run) as owner:
            run = self._claims.mine(run_id, owner)
            state = defn.states[run.state]
            spec = self.registry.get_step(state.step) if state.step else None
            # The step's own cleanup, while no one else can advance the run.
            note = spec.abort(self._step_context(run)) if spec and spec.abort else None
            self._recorder.aborted(run, defn, owner, note=note)
        return self.get(run_id)

    def refresh(self, run: RunRecord) -> RunRecord:
        """Take over a run whose owner died (or let go of it mid-step): finish its
        audit, and mark it ``interrupted`` if it stopped inside a step."""
        unaudited = run.owner is None and run.audited_seq < run.seq
        if not owner_is_dead(run) and not unaudited and not orphaned(run):
            return run
        defn = FlowDefinition.model_validate_json(run.definition)
        try:
            with self._claims.owning(run) as owner:
                run = self._claims.mine(run.run_id, owner)
                if run.status == RunStatus.RUNNING:
                    self._recorder.interrupted(
                        run,
                        defn,
                        owner,
                        why="owner process is gone",
                        recap_reason="run found interrupted",
                    )
        except VibflowError as exc:
            if exc.code is not ErrorCode.BUSY:
                raise
        return self.get(run.run_id)  # released now (or another process is on it)

    def refresh_all(self) -> None:
        for run in self.journal.runs(limit=REFRESH_WINDOW):
            if needs_refresh(run):
                self.refresh(run)

    def dry_run(self, loaded: LoadedFlow, inputs: Mapping[str, Any] | None = None) -> DryRunReport:
        """Walk the flow evaluating guards and read-only steps; write nothing."""
        defn = loaded.definition
        return DryRun(defn, self.machine(defn), self.registry, self.contexts).walk(inputs)

    def write_recap(self, run: RunRecord, reason: str = "requested") -> dict[str, Any]:
        defn = FlowDefinition.model_validate_json(run.definition)
        run = self._recorder.recapped(run, defn, reason)
        body = self.journal.get_recap(run.recap_id or "")
        assert body is not None  # noqa: S101 - written just above
        return body

    def flush_audit(self) -> None:
        """Append the audit rows still batched in this process."""
        self._audit.flush()

    # -- the advance loop -------------------------------------------------------------

    def _drive(self, run: RunRecord, defn: FlowDefinition, owner: Owner) -> RunRecord:
        """Run steps and pass-through states until the run pauses or ends.

        A step's own errors fail the run (:meth:`_run_step`); an error of the
        engine's (a context over its bound, a journal that cannot be written)
        or an interrupt escapes from here — the run is then left
        ``interrupted``, never ``running`` with nobody advancing it, so it can
        be resumed or aborted.
        """
        try:
            return self._advance(run, defn, owner)
        except BaseException:
            self._interrupted_by_error(run.run_id, defn, owner)
            raise

    def _interrupted_by_error(self, run_id: str, defn: FlowDefinition, owner: Owner) -> None:
        try:
            run = self._claims.mine(run_id, owner)
            if run.status == RunStatus.RUNNING:
                self._recorder.interrupted(
                    run,
                    defn,
                    owner,
                    why="stopped by an error; resume or abort it",
                    recap_reason="run interrupted by an error",
                )
        except Exception:  # noqa: BLE001, S110 - the first error is the one to report;
            pass  # refresh() marks the run interrupted later when this write fails too

    def _advance(self, run: RunRecord, defn: FlowDefinition, owner: Owner) -> RunRecord:
        while run.status == RunStatus.RUNNING:
            state = defn.states[run.state]
            if state.kind == "pass":
                run = self._fire(run, defn, owner, "done", {})
            elif state.step is None:  # a final state without a step never stays running
                return self._recorder.finish(run, defn, owner, state, None)
            else:
                run = self._run_step(run, defn, owner, state, state.step)
        return run

    def _run_step(
        self, run: RunRecord, defn: FlowDefinition, owner: Owner, state: StateSpec, step: str
    ) -> RunRecord:
        """Run the state's step; any error it raises fails the run, visibly."""
        spec = self.registry.get_step(step)
        started = self._recorder.now()
        step_ctx = self._step_context(run)
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
            return self._after_step(run, defn, owner, state, result, started)
        return self._recorder.fail(run, defn, owner, why)

    def _after_step(
        self,
        run: RunRecord,
        defn: FlowDefinition,
        owner: Owner,
        state: StateSpec,
        result: StepResult,
        started: str,
    ) -> RunRecord:
        if state.final:
            return self._recorder.finish(run, defn, owner, state, result)
        if result.event not in state.on:
            return self._recorder.fail(
                run,
                defn,
                owner,
                f"step '{state.step}' ended with event '{result.event}', which state "
                f"'{run.state}' does not handle (it handles: {', '.join(state.on)})",
            )
        return self._fire(run, defn, owner, result.event, {}, result=result, started=started)

    def _fire(
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
        context_json = self._recorder.check_size(context)
        probe = GuardProbe(self.contexts.guard(run.run_id, defn, run.state, event, context, inputs))
        target = self.machine(defn).fire(run.state, event, probe)
        move = Move.of(run.state, event, probe, result, started)
        if target is None:
            return self._recorder.refused(
                run, defn, owner, move, settled=settled, inputs=inputs, refusal=probe.refusal
            )
        return self._recorder.moved(
            run, defn, owner, move, target=target, context=context, context_json=context_json
        )

    # -- helpers ----------------------------------------------------------------------

    def _step_context(self, run: RunRecord) -> StepContext:
        return self.contexts.step(
            run_id=run.run_id,
            flow=run.flow,
            state=run.state,
            context=run.context,
            progress=JournalProgress(self.journal, run.run_id, run.state, self.crash),
            attempt=run.attempt,
        )

    def _require_open(self, run: RunRecord) -> None:
        if run.status in FINISHED:
            raise VibflowError(
                ErrorCode.RUN_FINISHED,
                f"run {run.run_id} has already finished ({run.status})",
                hint=f"`vibflow runs show {run.run_id}` shows what happened.",
            )
        if run.status == RunStatus.RUNNING:
            raise busy(run)


def _new_run_id() -> str:
    return f"run_{uuid.uuid4().hex}"
