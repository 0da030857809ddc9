"""Runs: start a flow, advance it, pause, resume, fork, abort.

Who decides what:

* ``transitions`` (through :class:`~vibflow.engine.machine.FlowMachine`)
  answers one question: *may this event fire from this state, and where to?*
  The event must exist for the state and every guard on the transition must
  pass, in order. It holds no run, writes nothing and runs no step.
* The runner (this module) adds everything durable around that answer: it
  runs the state's step and turns its result into the event to fire (the
  advance loop, :mod:`.stepper`), stops at waits and takes their input
  (:meth:`Runner.send`), writes each move to the journal *before* the run is
  in its new state — journal-then-transition, with the audit row after the
  commit (:mod:`.recorder`) — and owns the run while it does (:mod:`.claims`).

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

from vibflow.engine.audit import AuditSink
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
from vibflow.engine.contexts import ContextFactory, merge_context
from vibflow.engine.definition import FlowDefinition
from vibflow.engine.dryrun import DryRun, DryRunReport
from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.faults import CrashPlan
from vibflow.engine.forking import forked_record, start_inputs
from vibflow.engine.inputs import InputSanitizer, keep_inputs
from vibflow.engine.kinds import FINISHED, UNFINISHED, RunStatus
from vibflow.engine.loader import LoadedFlow
from vibflow.engine.machine import FlowMachine
from vibflow.engine.ownership import current_owner
from vibflow.engine.recorder import Recorder, status_for
from vibflow.engine.records import Entry, JournalStore, RunRecord
from vibflow.engine.registry import Registry
from vibflow.engine.stepper import Stepper
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
        self.contexts = ContextFactory(project_root, env)
        self._audit = AuditBatch(audit)
        self._claims = Claims(journal, self._audit)
        self._recorder = Recorder(
            journal=journal,
            audit=self._audit,
            clock=clock,
            crash=self.crash,
            context_max_bytes=context_max_bytes,
        )
        self._stepper = Stepper(
            registry=registry,
            journal=journal,
            contexts=self.contexts,
            recorder=self._recorder,
            claims=self._claims,
            crash=self.crash,
        )

    @property
    def last_exception(self) -> BaseException | None:
        """The exception that failed the last step this runner ran, if one did."""
        return self._stepper.last_exception

    @property
    def context_max_bytes(self) -> int:
        """The policy bound on a run's stored context, in bytes."""
        return self._recorder.context_max_bytes

    @context_max_bytes.setter
    def context_max_bytes(self, value: int) -> None:
        self._recorder.context_max_bytes = value

    # -- definitions and runs -------------------------------------------------------

    def machine(self, defn: FlowDefinition) -> FlowMachine:
        return self._stepper.machine(defn)

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
                self._stepper.drive(run, defn, owner)
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
            run = self._stepper.fire(run, defn, owner, event, inputs)
            self._stepper.drive(run, defn, owner)
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
                run = self._stepper.fire(
                    run, defn, owner, run.pending_event, run.pending_inputs or {}
                )
            elif spec is not None and spec.reconcile is not None:
                reconciled = spec.reconcile(self._stepper.step_context(run))
                if reconciled is not None:
                    started = self._recorder.now()
                    run = self._stepper.after_step(run, defn, owner, state, reconciled, started)
            self._stepper.drive(run, defn, owner)
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
            note = spec.abort(self._stepper.step_context(run)) if spec and spec.abort else None
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

    # -- helpers ----------------------------------------------------------------------

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
