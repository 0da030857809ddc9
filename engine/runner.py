"""Runs: start a flow, advance it, pause, resume, fork, abort.

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
"""

from __future__ import annotations

import dataclasses
import json
import uuid
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pydantic import ValidationError

from vibflow.engine.audit import AuditFacts, AuditLog
from vibflow.engine.definition import FlowDefinition, StateSpec
from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.faults import CrashPlan
from vibflow.engine.journal import (
    FINISHED,
    UNFINISHED,
    Entry,
    Journal,
    Owner,
    RunRecord,
    RunUpdate,
    applied,
    encode_context,
    utcnow,
)
from vibflow.engine.loader import LoadedFlow
from vibflow.engine.machine import FlowMachine, GuardProbe
from vibflow.engine.ownership import Liveness, current_owner, liveness
from vibflow.engine.recap import Recap, enrich, run_recap
from vibflow.engine.registry import GuardContext, Registry, StepContext, StepResult
from vibflow.engine.verifier import verify

# "the writing owner's own token": most writes expect the run to be ours.
_OWNER_TOKEN = "\x00owner"  # noqa: S105 - a sentinel, not a secret

_ENTRY_AUDIT_EVENT = {
    "start": "run_started",
    "transition": "transition",
    "blocked": "guard_refused",
}


class JournalProgress:
    """Item progress of a per-item step, recorded in the journal.

    Finished items are read on first use only, so steps that never ask cost
    no query.
    """

    def __init__(self, journal: Journal, run_id: str, state: str, crash: CrashPlan) -> None:
        self._journal = journal
        self._run_id = run_id
        self._state = state
        self._crash = crash
        self._loaded: set[str] | None = None
        self._unrecorded: list[str] = []
        self.marked_in_process = 0

    @property
    def _done(self) -> set[str]:
        if self._loaded is None:
            self._loaded = self._journal.done_items(self._run_id, self._state)
        return self._loaded

    def is_done(self, key: str) -> bool:
        return key in self._done

    def mark_done(self, key: str) -> None:
        if key in self._done:
            return
        self._journal.mark_items(self._run_id, self._state, [key])
        self._done.add(key)
        self.marked_in_process += 1
        self._crash.after_item(self.marked_in_process)

    def finish(self, key: str) -> None:
        # One durable commit per item costs a disk flush each; a batch of items
        # whose redo is harmless shares one (flush). The crash point still counts
        # every finished item, so a kill can land between recording points.
        if key in self._done:
            return
        self._done.add(key)
        self._unrecorded.append(key)
        self.marked_in_process += 1
        self._crash.after_item(self.marked_in_process)

    def flush(self) -> None:
        if self._unrecorded:
            self._journal.mark_items(self._run_id, self._state, self._unrecorded)
            self._unrecorded = []

    def pending(self, keys: Iterable[str]) -> Iterator[str]:
        done = self._done
        return (k for k in keys if k not in done)

    @property
    def done_count(self) -> int:
        return len(self._done)


class _MemoryProgress:
    """Progress for dry runs: nothing is written."""

    def __init__(self) -> None:
        self._done: set[str] = set()

    def is_done(self, key: str) -> bool:
        return key in self._done

    def mark_done(self, key: str) -> None:
        self._done.add(key)

    def finish(self, key: str) -> None:
        self._done.add(key)

    def flush(self) -> None:
        pass

    def pending(self, keys: Iterable[str]) -> Iterator[str]:
        return (k for k in keys if k not in self._done)


@dataclasses.dataclass
class DryRunReport:
    flow: str
    path: list[dict[str, Any]]
    skipped: list[str]
    ended: str  # "final" | "wait" | "blocked" | "failed" | "loop"
    blocked_reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def status_for(state: StateSpec) -> str:
    if state.kind == "wait":
        return "waiting"
    if state.kind == "final" and state.step is None:
        return state.status.value if state.status else "done"
    return "running"


def merge_context(base: Mapping[str, Any], *updates: Mapping[str, Any]) -> dict[str, Any]:
    """Shallow merge, except that dict values merge one level deep."""
    out = dict(base)
    for upd in updates:
        for key, value in upd.items():
            if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
                out[key] = {**out[key], **value}
            else:
                out[key] = value
    return out


class Runner:
    def __init__(
        self,
        *,
        registry: Registry,
        journal: Journal,
        audit: AuditLog,
        project_root: Path,
        env: Mapping[str, str],
        services: Mapping[str, Any] | None = None,
        policy_digest: str = "",
        context_max_bytes: int = 65536,
        crash: CrashPlan | None = None,
    ) -> None:
        self.registry = registry
        self.journal = journal
        self.audit = audit
        self.project_root = project_root
        self.env = env
        self.services: Mapping[str, Any] = services or {}
        self.policy_digest = policy_digest
        self.context_max_bytes = context_max_bytes
        self.crash = crash or CrashPlan()
        self.last_exception: BaseException | None = None
        self._machines: dict[str, FlowMachine] = {}
        self._pending_audit: list[tuple[str, dict[str, Any]]] = []
        self._batching = 0

    # -- definitions ------------------------------------------------------------

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
        run = self.journal.get(run_id)
        if run is None:
            raise VibflowError(
                ErrorCode.RUN_NOT_FOUND,
                f"there is no run '{run_id}' in this project",
                hint="`vibflow runs list` shows the runs.",
            )
        return run

    # -- ownership ----------------------------------------------------------------
    #
    # Every operation that changes a run owns it from its claim until its audit
    # rows are flushed, then releases it and records how far the audit got
    # (``audited_seq``). A run whose owner died — at any status — is taken over
    # by the next process that touches it, which first re-derives any audit
    # rows the dead owner never wrote (idempotently, under the audit lock).

    @contextmanager
    def _owning(self, run: RunRecord, *, attempt_increment: bool = False) -> Iterator[Owner]:
        owner = current_owner()
        expected: str | None = None
        if run.owner is not None:
            if liveness(run.owner) is not Liveness.DEAD:
                raise self._busy(run)
            expected = run.owner.token
        if not self.journal.claim(
            run.run_id,
            owner,
            expect_seq=run.seq,
            expect_token=expected,
            attempt_increment=attempt_increment,
        ):
            raise self._busy(self.get(run.run_id))
        with self._holding(run.run_id, owner):
            if expected is not None or run.audited_seq < run.seq:
                self._reconcile_audit(run)
            yield owner

    @contextmanager
    def _holding(self, run_id: str, owner: Owner) -> Iterator[None]:
        """Batch audit rows while ``owner`` holds the run; flush, then release."""
        self._batching += 1
        audited = False
        try:
            yield
        finally:
            self._batching -= 1
            try:
                self.flush_audit()
                audited = True
            finally:
                self.journal.release(run_id, owner.token, audited=audited)

    def _mine(self, run_id: str, owner: Owner) -> RunRecord:
        run = self.get(run_id)
        if run.owner is None or run.owner.token != owner.token:
            raise self._busy(run)
        return run

    # -- public operations ---------------------------------------------------------

    def start(self, loaded: LoadedFlow, inputs: Mapping[str, str] | None = None) -> RunRecord:
        defn = loaded.definition
        self.machine(defn)  # fail before writing anything if the machine cannot be built
        now = utcnow()
        owner = current_owner()
        run = RunRecord(
            run_id=f"run_{uuid.uuid4().hex}",
            flow=defn.flow,
            flow_version=defn.version,
            origin=loaded.origin,
            definition=defn.canonical_json(),
            definition_digest=defn.digest(),
            policy_digest=self.policy_digest,
            status=status_for(defn.states[defn.initial]),
            state=defn.initial,
            context={"inputs": dict(inputs or {})},
            seq=0,
            created_at=now,
            updated_at=now,
            owner=owner,
        )
        self._check_size(run.context)
        self.journal.create_run(run)
        with self._holding(run.run_id, owner):
            self._audit_entry(run, Entry(run.run_id, 0, "start", None, None, run.state, at=now))
            self._begin(run, defn, owner, "run started")
        return self.get(run.run_id)

    def fork(self, source_id: str, state: str) -> RunRecord:
        """A new run from ``source_id``'s stored definition, starting at ``state``."""
        source = self.get(source_id)
        defn = self.definition_of(source)
        if state not in defn.states:
            raise VibflowError(ErrorCode.BAD_INPUT, f"flow '{defn.flow}' has no state '{state}'")
        now = utcnow()
        owner = current_owner()
        run = dataclasses.replace(
            source,
            run_id=f"run_{uuid.uuid4().hex}",
            status=status_for(defn.states[state]),
            state=state,
            seq=0,
            audited_seq=0,
            blocked_reason=None,
            pending_event=None,
            pending_inputs=None,
            error=None,
            owner=owner,
            attempt=1,
            recap_id=None,
            parent_run=source.run_id,
            created_at=now,
            updated_at=now,
        )
        self.journal.create_run(run)
        with self._holding(run.run_id, owner):
            self._audit_entry(run, Entry(run.run_id, 0, "start", None, None, state, at=now))
            self._begin(run, defn, owner, "run forked")
        return self.get(run.run_id)

    def _begin(self, run: RunRecord, defn: FlowDefinition, owner: Owner, why: str) -> RunRecord:
        if run.status == "running":
            return self._drive(run, defn, owner)
        return self._recapped(run, defn, why)

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
        inputs = coerce(state.inputs, raw_inputs, where=f"state '{run.state}'")
        with self._owning(run) as owner:
            run = self._mine(run_id, owner)
            run = self._fire(run, defn, owner, event, inputs)
            self._drive(run, defn, owner)
        return self.get(run_id)

    def resume(self, run_id: str | None = None, *, rerun_step: bool = False) -> RunRecord:
        run = self.pick(run_id)
        defn = self.definition_of(run)
        self._require_open(run)
        if run.status == "waiting":
            return run
        state = defn.states[run.state]
        spec = self.registry.get_step(state.step) if state.step else None
        if run.status == "interrupted" and spec and not spec.safe_to_rerun and not rerun_step:
            raise VibflowError(
                ErrorCode.NOT_RESUMABLE,
                f"run {run.run_id} was interrupted inside step '{spec.name}' (state "
                f"'{run.state}'), which may have partly run and is not known to be safe to repeat",
                hint=f"Check the project, then run it again with `vibflow resume {run.run_id} "
                f"--rerun-step`, or stop it with `vibflow runs abort {run.run_id}`.",
            )
        with self._owning(run, attempt_increment=True) as owner:
            run = self._mine(run.run_id, owner)
            run = self._set_status(
                run,
                defn,
                owner,
                event="resumed",
                status="running",
                outcome=f"attempt {run.attempt}",
                audit_event="run_resumed",
                result="ok",
            )
            if run.pending_event is not None:
                run = self._fire(run, defn, owner, run.pending_event, run.pending_inputs or {})
            elif spec is not None and spec.reconcile is not None:
                reconciled = spec.reconcile(self._step_context(run))
                if reconciled is not None:
                    run = self._after_step(run, defn, owner, state, reconciled, utcnow())
            self._drive(run, defn, owner)
        return self.get(run.run_id)

    def abort(self, run_id: str) -> RunRecord:
        run = self.refresh(self.get(run_id))
        defn = self.definition_of(run)
        self._require_open(run)
        with self._owning(run) as owner:
            run = self._mine(run_id, owner)
            self._set_status(
                run,
                defn,
                owner,
                event="aborted",
                status="aborted",
                outcome="aborted by the user",
                audit_event="run_aborted",
                result="aborted",
                recap_reason="run aborted",
            )
        return self.get(run_id)

    def refresh(self, run: RunRecord) -> RunRecord:
        """Take over a run whose owner died: finish its audit, and mark it
        ``interrupted`` if it died inside a step."""
        dead = run.owner is not None and liveness(run.owner) is Liveness.DEAD
        if not dead and not (run.owner is None and run.audited_seq < run.seq):
            return run
        defn = FlowDefinition.model_validate_json(run.definition)
        try:
            with self._owning(run) as owner:
                run = self._mine(run.run_id, owner)
                if run.status == "running":
                    self._set_status(
                        run,
                        defn,
                        owner,
                        event="interrupted",
                        status="interrupted",
                        outcome="owner process is gone",
                        audit_event="run_interrupted",
                        result="interrupted",
                        recap_reason="run found interrupted",
                    )
        except VibflowError as exc:
            if exc.code is not ErrorCode.BUSY:
                raise
        return self.get(run.run_id)  # released now (or another process is on it)

    def refresh_all(self) -> None:
        for run in self.journal.runs(limit=200):
            if run.owner is not None or run.audited_seq < run.seq:
                self.refresh(run)

    def latest_unfinished(self) -> RunRecord | None:
        self.refresh_all()
        runs = self.journal.runs(UNFINISHED, limit=1)
        return runs[0] if runs else None

    def dry_run(self, loaded: LoadedFlow, inputs: Mapping[str, str] | None = None) -> DryRunReport:
        """Walk the flow evaluating guards and read-only steps; write nothing."""
        defn = loaded.definition
        machine = self.machine(defn)
        report = DryRunReport(defn.flow, [], [], "loop")
        state_name = defn.initial
        context: dict[str, Any] = {"inputs": dict(inputs or {})}
        visits: dict[str, int] = {}
        while visits.get(state_name, 0) < 3:
            visits[state_name] = visits.get(state_name, 0) + 1
            state = defn.states[state_name]
            hop: dict[str, Any] = {"state": state_name, "kind": state.kind}
            report.path.append(hop)
            if state.kind == "wait":
                hop["events"] = list(state.on)
                report.ended = "wait"
                return report
            event = "done"
            if state.step is not None:
                spec = self.registry.get_step(state.step)
                if spec.mutates.value != "none":
                    report.skipped.append(state_name)
                    hop["skipped"] = f"{spec.name} (mutates {spec.mutates.value})"
                    event = "done" if "done" in state.on else next(iter(state.on), "done")
                else:
                    ctx = StepContext(
                        "run_dry",
                        defn.flow,
                        state_name,
                        MappingProxyType(context),
                        self.project_root,
                        _MemoryProgress(),
                        self.services,
                        dry_run=True,
                    )
                    try:
                        result = _as_result(spec.fn(ctx))
                    except VibflowError as exc:
                        hop["error"] = exc.message
                        report.ended = "failed"
                        return report
                    context = merge_context(context, result.context)
                    event = result.event
            if state.final:
                report.ended = "final"
                return report
            hop["event"] = event
            if event not in state.on:
                hop["error"] = f"no transition for event '{event}'"
                report.ended = "failed"
                return report
            probe = GuardProbe(
                self._guard_context("run_dry", defn, state_name, event, context, {}, dry_run=True)
            )
            target = machine.fire(state_name, event, probe)
            hop["guards"] = [o.to_json() for o in probe.outcomes]
            if target is None:
                report.ended = "blocked"
                report.blocked_reason = probe.refusal.reason if probe.refusal else None
                return report
            state_name = target
        return report

    # -- the advance loop ------------------------------------------------------------

    def _drive(self, run: RunRecord, defn: FlowDefinition, owner: Owner) -> RunRecord:
        while run.status == "running":
            state = defn.states[run.state]
            if state.kind == "pass":
                run = self._fire(run, defn, owner, "done", {})
                continue
            if state.step is None:  # a final state without a step never stays running
                return self._finish(run, defn, owner, state, None)
            spec = self.registry.get_step(state.step)
            started = utcnow()
            step_ctx = self._step_context(run)
            try:
                try:
                    result = _as_result(spec.fn(step_ctx))
                finally:
                    step_ctx.progress.flush()
                AuditFacts.model_validate(dict(result.audit))
            except VibflowError as exc:
                self.last_exception = exc
                return self._fail(run, defn, owner, f"step '{spec.name}' failed: {exc.message}")
            except ValidationError as exc:
                self.last_exception = exc
                return self._fail(
                    run,
                    defn,
                    owner,
                    f"step '{spec.name}' returned audit facts that are not count-only",
                )
            except Exception as exc:  # noqa: BLE001 - any step bug must fail the run, visibly
                self.last_exception = exc
                return self._fail(
                    run,
                    defn,
                    owner,
                    f"step '{spec.name}' failed unexpectedly ({type(exc).__name__})",
                )
            run = self._after_step(run, defn, owner, state, result, started)
        return run

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
            return self._finish(run, defn, owner, state, result)
        if result.event not in state.on:
            return self._fail(
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
        src = run.state
        state = defn.states[src]
        spec = state.on[event]
        # A step's own results stay whatever the guards say; the event's inputs
        # become part of the run only if the transition happens (a refused
        # input must never be picked up later by another event).
        settled = merge_context(run.context, result.context if result is not None else {})
        context = merge_context(settled, {"inputs": dict(inputs)}) if inputs else settled
        context_json = self._check_size(context)
        probe = GuardProbe(self._guard_context(run.run_id, defn, src, event, context, inputs))
        target = self.machine(defn).fire(src, event, probe)
        guards = [o.to_json() for o in probe.outcomes]
        outcome = (result.outcome if result else "")[:200]
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
        if target is None:
            refusal = probe.refusal
            reason = refusal.reason if refusal else "a check refused"
            detour = state.on_blocked
            entry = Entry(
                run.run_id,
                run.seq + 1,
                "blocked",
                src,
                event,
                detour or spec.target,
                guards,
                outcome,
                started,
                utcnow(),
            )
            if detour is not None:
                update = RunUpdate(
                    state=detour,
                    status=status_for(defn.states[detour]),
                    context=settled,
                    blocked_reason=reason,
                )
            else:
                update = RunUpdate(
                    state=src,
                    status="blocked",
                    context=settled,
                    blocked_reason=reason,
                    pending_event=event,
                    pending_inputs=dict(inputs),
                )
            run = self._write(run, defn, entry, update, owner, recap_reason="guard refused")
            self._audit(
                run,
                "guard_refused",
                entry,
                **{**facts, "result": "refused", "guard": refusal.name if refusal else None},
            )
            self.crash.after_transition(run.seq)
            return run
        new_status = status_for(defn.states[target])
        entry = Entry(
            run.run_id,
            run.seq + 1,
            "transition",
            src,
            event,
            target,
            guards,
            outcome,
            started,
            utcnow(),
        )
        update = RunUpdate(
            state=target, status=new_status, context=context, context_json=context_json
        )
        reason = None if new_status == "running" else f"run {new_status}"
        run = self._write(run, defn, entry, update, owner, recap_reason=reason)
        self._audit(run, "transition", entry, **{"result": "ok", **facts})
        self.crash.after_transition(run.seq)
        return run

    def _finish(
        self,
        run: RunRecord,
        defn: FlowDefinition,
        owner: Owner,
        state: StateSpec,
        result: StepResult | None,
    ) -> RunRecord:
        status = (result.status if result and result.status else state.status) or "done"
        status = getattr(status, "value", status)
        context = merge_context(run.context, result.context if result else {})
        self._check_size(context)
        entry = Entry(
            run.run_id,
            run.seq + 1,
            "status",
            run.state,
            "finished",
            run.state,
            outcome=(result.outcome if result else "")[:200],
            at=utcnow(),
        )
        run = self._write(
            run,
            defn,
            entry,
            RunUpdate(state=run.state, status=status, context=context),
            owner,
            recap_reason=f"run {status}",
        )
        facts = dict(result.audit) if result else {}
        facts.setdefault("result", "ok" if status == "done" else status)
        self._audit(run, "run_finished", entry, **facts)
        self.crash.after_transition(run.seq)
        return run

    def _fail(self, run: RunRecord, defn: FlowDefinition, owner: Owner, message: str) -> RunRecord:
        return self._set_status(
            run,
            defn,
            owner,
            event="failed",
            status="failed",
            outcome=message,
            audit_event="run_failed",
            result="failed",
            recap_reason="run failed",
            error=message,
        )

    def _set_status(
        self,
        run: RunRecord,
        defn: FlowDefinition,
        owner: Owner,
        *,
        event: str,
        status: str,
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
            outcome=outcome[:200],
            at=utcnow(),
        )
        run = self._write(
            run,
            defn,
            entry,
            RunUpdate(
                state=run.state,
                status=status,
                context=run.context,
                error=error,
                pending_event=run.pending_event,
                pending_inputs=run.pending_inputs,
            ),
            owner,
            recap_reason=recap_reason,
        )
        self._audit(run, audit_event, entry, result=result)
        return run

    # -- helpers ------------------------------------------------------------------

    def _write(
        self,
        run: RunRecord,
        defn: FlowDefinition,
        entry: Entry,
        update: RunUpdate,
        owner: Owner | None,
        *,
        expect_token: str | None = _OWNER_TOKEN,
        attempt_increment: bool = False,
        recap_reason: str | None = None,
    ) -> RunRecord:
        """One journal commit; a recap for pauses and ends rides in the same commit."""
        recap: Recap | None = None
        if recap_reason is not None:
            predicted = applied(run, entry, update, owner=run.owner, updated_at=entry.at)
            entries = [*self.journal.entries(run.run_id), entry]
            done = len(self.journal.done_items(run.run_id, update.state))
            recap = enrich(
                run_recap(predicted, defn, entries, reason=recap_reason, items_done=done),
                predicted,
                self.registry.recap_enrichers,
            )
        token = (owner.token if owner else None) if expect_token == _OWNER_TOKEN else expect_token
        return self.journal.advance(
            run,
            entry,
            update,
            owner,
            expect_token=token,
            attempt_increment=attempt_increment,
            recap=recap.model_dump(mode="json") if recap else None,
        )

    def _recapped(self, run: RunRecord, defn: FlowDefinition, reason: str) -> RunRecord:
        recap = enrich(
            run_recap(run, defn, self.journal.entries(run.run_id), reason=reason),
            run,
            self.registry.recap_enrichers,
        )
        self.journal.save_recap(
            recap.id, "run", run.run_id, recap.generated_at, recap.model_dump(mode="json")
        )
        return dataclasses.replace(run, recap_id=recap.id)

    def write_recap(self, run: RunRecord, reason: str = "requested") -> dict[str, Any]:
        defn = FlowDefinition.model_validate_json(run.definition)
        run = self._recapped(run, defn, reason)
        body = self.journal.get_recap(run.recap_id or "")
        assert body is not None  # noqa: S101 - written just above
        return body

    def _step_context(self, run: RunRecord) -> StepContext:
        progress = JournalProgress(self.journal, run.run_id, run.state, self.crash)
        return StepContext(
            run_id=run.run_id,
            flow=run.flow,
            state=run.state,
            context=MappingProxyType(json.loads(json.dumps(run.context))),
            project_root=self.project_root,
            progress=progress,
            services=self.services,
            attempt=run.attempt,
        )

    def _guard_context(
        self,
        run_id: str,
        defn: FlowDefinition,
        src: str,
        event: str,
        context: Mapping[str, Any],
        inputs: Mapping[str, Any],
        *,
        dry_run: bool = False,
    ) -> GuardContext:
        return GuardContext(
            run_id=run_id,
            flow=defn.flow,
            source=src,
            event=event,
            target=defn.states[src].on[event].target,
            context=MappingProxyType(dict(context)),
            inputs=MappingProxyType(dict(inputs)),
            project_root=self.project_root,
            env=self.env,
            services=self.services,
            dry_run=dry_run,
        )

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

    def _require_open(self, run: RunRecord) -> None:
        if run.status in FINISHED:
            raise VibflowError(
                ErrorCode.RUN_FINISHED,
                f"run {run.run_id} has already finished ({run.status})",
                hint=f"`vibflow runs show {run.run_id}` shows what happened.",
            )
        if run.status == "running":
            raise self._busy(run)

    def _busy(self, run: RunRecord) -> VibflowError:
        who = f"process {run.owner.pid}" if run.owner else "another process"
        return VibflowError(
            ErrorCode.BUSY,
            f"run {run.run_id} is being advanced by {who} right now",
            hint="Wait for it to pause or finish, then try again.",
        )

    def _check_size(self, context: Mapping[str, Any]) -> str:
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

    def _audit(self, run: RunRecord, event: str, entry: Entry, **facts: Any) -> None:
        clean = {k: v for k, v in facts.items() if v is not None}
        self._pending_audit.append(
            (
                event,
                {
                    "run_id": run.run_id,
                    "flow": run.flow,
                    "transition_seq": entry.seq,
                    "from_state": entry.from_state,
                    "via": entry.event if entry.kind != "status" else None,
                    "to_state": entry.to_state,
                    **clean,
                },
            )
        )
        # Rows carrying a step's own facts (a sandwich id, path counts) are
        # written at once; plain transition rows wait for the batch.
        if not self._batching or set(clean) - {"result", "guard"}:
            self.flush_audit()

    def flush_audit(self) -> None:
        rows, self._pending_audit = self._pending_audit, []
        self.audit.append_many(rows)

    def _entry_row(self, run: RunRecord, entry: Entry) -> tuple[str, dict[str, Any]]:
        """The audit row a journal entry gets (when written from the journal alone)."""
        event = _ENTRY_AUDIT_EVENT.get(entry.kind) or f"run_{entry.event or 'changed'}"
        result = {"start": "ok", "transition": "ok", "blocked": "refused"}.get(entry.kind) or {
            "interrupted": "interrupted",
            "aborted": "aborted",
            "failed": "failed",
        }.get(entry.event or "", "ok")
        refused = next((g["guard"] for g in entry.guards if not g.get("passed")), None)
        facts = {
            "run_id": run.run_id,
            "flow": run.flow,
            "transition_seq": entry.seq,
            "from_state": entry.from_state,
            "via": entry.event if entry.kind != "status" else None,
            "to_state": entry.to_state,
            "result": result,
            "guard": refused if entry.kind == "blocked" else None,
        }
        return event, {k: v for k, v in facts.items() if v is not None}

    def _audit_entry(self, run: RunRecord, entry: Entry) -> None:
        event, facts = self._entry_row(run, entry)
        self._pending_audit.append((event, facts))
        if not self._batching:
            self.flush_audit()

    def _reconcile_audit(self, run: RunRecord) -> None:
        """Write the audit rows a dead owner never wrote (idempotent, under the lock)."""
        self.flush_audit()
        rows = {
            e.seq: self._entry_row(run, e)
            for e in self.journal.entries(run.run_id)
            if e.seq > run.audited_seq
        }
        self.audit.append_missing(run.run_id, rows)


def _as_result(raw: StepResult | str) -> StepResult:
    if isinstance(raw, StepResult):
        return raw
    if isinstance(raw, str):
        return StepResult(event=raw)
    raise VibflowError(ErrorCode.STEP_FAILED, "a step returned neither an event nor a StepResult")
