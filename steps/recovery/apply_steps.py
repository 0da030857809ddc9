"""The restore branch of the recover flow: route → sandwich → confirm → apply.

Every precondition is a guard on the transition into ``apply`` (the
engine's trusted-shape rule makes removing one a load error):
``confirmation_matches`` (the user typed ``APPLY <checkpoint_id>``, or
``APPLY <commit>`` when the safe point is the last commit),
``feature_flag: RECOVERY_APPLY`` (environment only), ``grant:
recovery_apply`` (the local CLI; MCP callers need a grant), ``lock_acquired``
(the project lease), ``sandwich_present`` (a complete safety checkpoint taken
for this run) and ``paths_valid`` (the path contract, and the confirmed paths
equal the previewed ones).

The apply checks the lease at every file boundary and stops before the next
file when it was lost (the run ends ``aborted``); a file edited after the
sandwich was taken sends the run back for a new sandwich and a second
confirmation. Files equal to the checkpoint are skipped, so a resumed apply
finishes with the same tree as an uninterrupted one.

The restore's state between the choice and the apply is one persisted
:class:`~vibflow.steps.recovery.job.RestoreJob`: ``route`` writes it, the lock
and path guards add the lease they took and the paths they accepted, and the
apply step reads it (adopting the lease when it runs in the same process,
taking it again when a resume runs it in a new one). The sandwich step lists
every sandwich in the job, and the apply records, before its first write, the
one in force then: the tree before any file was restored, which the result
names and ``vibflow undo`` restores — still the first after a crash and a
second confirmation. While it runs, the apply reports files done / total to
the lease, which a second restore's busy answer turns into an ETA.
"""

from __future__ import annotations

import re
from typing import Any

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.kinds import FinalStatus, GuardParam
from vibflow.engine.registry import (
    GuardContext,
    GuardResult,
    StepContext,
    StepResult,
)
from vibflow.steps.checkpoints.leftovers import sweep_ledger
from vibflow.steps.recovery.flow_steps import full_plan, option_of, public_of
from vibflow.steps.recovery.job import RestoreJob
from vibflow.steps.recovery.lease import Lease, LeaseBusy, new_operation_id
from vibflow.steps.recovery.memory_boundary import REFUSAL as MEMORY_REFUSAL
from vibflow.steps.recovery.plans import EMPTY_CHOICE, chosen_paths, sample
from vibflow.steps.recovery.renames import complete
from vibflow.steps.recovery.restore_attempt import RestoreAttempt
from vibflow.steps.recovery.services import RecoveryServices

_HEX = re.compile(r"[0-9a-f]{7,64}")


class RestoreSteps:
    """The restore branch's steps and the guards on the way into ``apply``."""

    def __init__(self, services: RecoveryServices) -> None:
        self._svc = services

    # -- steps ----------------------------------------------------------------------

    def route(self, ctx: StepContext) -> StepResult:
        """Read-only choices end; restore choices write their job and go on to the
        sandwich."""
        plan = public_of(ctx.context).get("plan", {})
        inputs = ctx.context.get("inputs", {})
        wanted = inputs.get("option")
        whole = full_plan(self._svc.plans, self._svc.advisor, ctx.run_id, ctx.context) or {}
        option = option_of(whole, wanted)
        if option is None or option.get("level", 0) < 3:
            return StepResult("read_only", outcome="read-only option")
        subset = chosen_paths(self._svc.plans, ctx.run_id, inputs)
        picked = subset if isinstance(subset, list) else None  # the guard refused others
        # A rename is one change: either name chosen takes the other (renames.py).
        chosen, partners = complete(picked, whole, option) if picked else ([], [])
        chosen = chosen or list(option.get("affected_paths", []))
        candidate = plan.get("safe_checkpoint_candidate") or {}
        source = candidate.get("checkpoint_id")
        chosen_set = set(chosen)
        job = self._svc.jobs.save(
            RestoreJob(
                run_id=ctx.run_id,
                option_id=wanted,
                level=option.get("level", 0),
                paths=chosen,
                deletes=[p for p in option.get("deletes", []) if p in chosen_set],
                from_checkpoint=source,
                **self._commit_source(candidate),
            )
        )
        return StepResult(
            "restore",
            outcome=f"restore {len(chosen)} path(s)",
            context={
                "public": {
                    "restore": {
                        "option_id": wanted,
                        "level": job.level,
                        "from_checkpoint": source,
                        "from_commit": job.from_commit,
                        "deletes": sample(job.deletes),
                        "deletes_total": len(job.deletes),
                        "partners": sample([p.to_json() for p in partners]),
                        "partners_total": len(partners),
                    },
                    "paths": sample(chosen),
                    "paths_total": len(chosen),
                    "confirmation_expected": job.confirmation(),
                }
            },
        )

    def sandwich(self, ctx: StepContext) -> StepResult:
        """Take the safety checkpoint right before asking for confirmation."""
        meta = self._svc.checkpoints.create(f"sandwich for {ctx.run_id}", reason="sandwich")
        job = self._svc.jobs.load(ctx.run_id)
        total = len(job.paths) if job else 0
        if job is not None and meta.checkpoint_id not in job.sandwiches:
            self._svc.jobs.save(
                job.model_copy(update={"sandwiches": [*job.sandwiches, meta.checkpoint_id]})
            )
        return StepResult(
            "done",
            outcome="sandwich taken",
            context={"public": {"sandwich_checkpoint_id": meta.checkpoint_id}},
            audit={
                "sandwich_checkpoint_id": meta.checkpoint_id,
                "result": "ok",
                "paths_count": {"total": total},
            },
        )

    def _commit_source(self, candidate: dict[str, Any]) -> dict[str, Any]:
        """The job fields for a plan whose safe point is the last commit (its full id,
        pinned now: the plan shows it abbreviated)."""
        if candidate.get("kind") != "commit":
            return {}
        full = resolve_commit(self._svc, str(candidate.get("commit") or ""))
        return {"source_kind": "commit", "from_commit": full}

    def _lease_for(self, job: RestoreJob) -> Lease | None:
        """The lease the lock guard took for this job, if this process still holds it."""
        if job.operation_id is None or job.lease_generation is None:
            return None
        return self._svc.lease_file.adopt(job.operation_id, job.lease_generation)

    def apply(self, ctx: StepContext) -> StepResult:
        svc = self._svc
        public = public_of(ctx.context)
        job = svc.jobs.load(ctx.run_id)
        if job is None:
            return _no_job()
        lease = self._lease_for(job)
        # The guard's canonical paths count only under the lease it took with
        # them; a resumed apply, in a new process, checks the paths again itself.
        if lease is not None and job.checked_paths is not None:
            paths = list(job.checked_paths)
        else:
            paths = svc.normalize_paths(job.paths)
        source = source_commit(svc, job)
        sandwich_meta = svc.checkpoints.get(public.get("sandwich_checkpoint_id", ""))
        if lease is None:  # resumed in a new process: take the lease again
            try:
                lease = svc.lease_file.acquire(f"op_{ctx.run_id[4:]}")
            except LeaseBusy as busy:
                return StepResult(
                    "aborted",
                    outcome="busy",
                    status=FinalStatus.ABORTED,
                    context={
                        "public": {"applied": {"aborted": busy_text(busy), "changed_files": 0}}
                    },
                    audit={"result": "busy"},
                )
        not_stored: frozenset[str] = frozenset()
        if job.source_kind != "commit":
            held = svc.checkpoints.get(job.from_checkpoint or "")
            not_stored = frozenset(s.path for s in held.skipped if s.secret)
        return RestoreAttempt(svc, ctx, job, lease, source, sandwich_meta, not_stored).run(paths)

    def abandon(self, ctx: StepContext) -> str | None:
        """The run is aborted inside ``apply``: remove exactly the temp files its
        killed restores left (by their ledger entries), nothing named like them."""
        gone = sweep_ledger(self._svc.root, self._svc.lease_file.folder, owner=ctx.run_id)
        return f"removed {gone} temp file(s) of the interrupted restore" if gone else None

    # -- guards on the transition into apply ------------------------------------------

    def memory_free(self, ctx: GuardContext, param: GuardParam) -> GuardResult:
        """The memory→action check (memory_boundary): first on the way in, so every
        confirmation is checked, and one row per check."""
        del param
        check = self._svc.memory_check
        if check is None:
            return GuardResult.ok()
        job = self._svc.jobs.load(ctx.run_id)
        traced = [*(job.paths if job is not None else []), job.confirmation() if job else ""]
        expected = public_of(ctx.context).get("confirmation_expected")
        if isinstance(expected, str):
            traced.append(expected)
        given = [str(p) for p in ctx.inputs.get("paths") or []]
        typed = ctx.inputs.get("confirmation")
        arguments = [*given, str(typed)] if typed else given
        verdict = check.check(arguments, traced, record=not ctx.dry_run)
        return GuardResult.ok() if verdict.ok else GuardResult.refuse(MEMORY_REFUSAL)

    def confirmation_matches(self, ctx: GuardContext, param: GuardParam) -> GuardResult:
        del param
        expected = public_of(ctx.context).get("confirmation_expected")
        typed = str(ctx.inputs.get("confirmation") or "").strip()
        if expected and typed == expected:
            return GuardResult.ok()
        return GuardResult.refuse(f"the confirmation does not match; type exactly: {expected}")

    def grant(self, ctx: GuardContext, param: GuardParam) -> GuardResult:
        del ctx
        tool = self._svc.tool
        if tool == "cli":
            return GuardResult.ok()  # the local user at their own terminal
        check = self._svc.grants
        found = check(str(param), tool) if check is not None else None
        if found is not None:
            return GuardResult.ok(capability_grant_id=found)
        from vibflow.steps.grants.capabilities import Lapsed, no_grant_reason

        lapsed = self._svc.grant_lapsed
        why = lapsed(str(param), tool) if lapsed is not None else Lapsed("never")
        return GuardResult.refuse(no_grant_reason(str(param), tool, why))

    def lock_acquired(self, ctx: GuardContext, param: GuardParam) -> GuardResult:
        del param
        lease_file = self._svc.lease_file
        if ctx.dry_run:
            status = lease_file.status()
            busy = status is not None and not status["expired"]
            return (
                GuardResult.refuse("another restore holds the lock") if busy else GuardResult.ok()
            )
        job = self._svc.jobs.load(ctx.run_id)
        if job is None:
            return GuardResult.refuse("there is no previewed restore to confirm; choose again")
        try:
            lease = lease_file.acquire(new_operation_id())
        except LeaseBusy as busy:
            return GuardResult.refuse(busy_text(busy))
        try:
            self._svc.jobs.save(
                job.model_copy(
                    update={
                        "operation_id": lease.operation_id,
                        "lease_generation": lease.record.generation,
                        "checked_paths": None,
                    }
                )
            )
        except BaseException:
            lease.release()  # a lease nobody can find again would block every restore
            raise
        return GuardResult.ok()

    def release_lock(self, ctx: GuardContext, param: GuardParam) -> None:
        """Undo :meth:`lock_acquired` when a later guard on the transition refuses."""
        del param
        job = self._svc.jobs.load(ctx.run_id)
        lease = self._lease_for(job) if job is not None else None
        if lease is not None:
            lease.release()

    def sandwich_present(self, ctx: GuardContext, param: GuardParam) -> GuardResult:
        del param
        cid = public_of(ctx.context).get("sandwich_checkpoint_id")
        if not cid:
            return GuardResult.refuse("no safety checkpoint was taken for this restore")
        try:
            meta = self._svc.checkpoints.get(cid)
        except VibflowError:
            return GuardResult.refuse("the safety checkpoint for this restore no longer exists")
        if not meta.metadata_complete or meta.reason != "sandwich":
            return GuardResult.refuse("the safety checkpoint for this restore is incomplete")
        return GuardResult.ok(sandwich_checkpoint_id=cid)

    def paths_valid(self, ctx: GuardContext, param: GuardParam) -> GuardResult:
        del param
        job = self._svc.jobs.load(ctx.run_id)
        previewed = list(job.paths) if job is not None else []
        if job is None or not previewed:
            return GuardResult.refuse("there is no previewed restore to confirm; choose again")
        given = ctx.inputs.get("paths")
        if given is not None and not given:
            return GuardResult.refuse(EMPTY_CHOICE)
        confirmed = list(given or previewed)
        if given:
            # The names the choice was completed with (a rename's other name) are
            # previewed too; confirming the subset as chosen confirms them.
            whole = full_plan(self._svc.plans, self._svc.advisor, ctx.run_id, ctx.context) or {}
            option = option_of(whole, job.option_id)
            if option is not None:
                confirmed, _ = complete(confirmed, whole, option)
        if set(confirmed) != set(previewed):  # a set: order and repeats say nothing
            return GuardResult.refuse(
                "the paths to restore differ from the ones you previewed; "
                "preview again and confirm those"
            )
        try:
            checked = self._svc.normalize_paths(previewed)  # `confirmed`'s set, in job order
        except VibflowError as exc:
            return GuardResult.refuse(f"a path breaks the path rules: {exc.message}")
        if not ctx.dry_run and job.operation_id is not None:
            self._svc.jobs.save(job.model_copy(update={"checked_paths": checked}))
        return GuardResult.ok(paths_count={"total": len(confirmed)})


def _no_job() -> StepResult:
    reason = "the restore's job record is missing or unreadable; choose the option again"
    return StepResult(
        "aborted",
        outcome="no restore job",
        status=FinalStatus.ABORTED,
        context={"public": {"applied": {"aborted": reason, "changed_files": 0}}},
        audit={"result": "aborted"},
    )


def busy_text(busy: LeaseBusy) -> str:
    """Why a restore cannot start now, and when to try again (an ETA only when the
    running restore's own rate gives one)."""
    done = f", {busy.progress[0]} of {busy.progress[1]} files done" if busy.progress else ""
    running = f"another restore is running (operation {busy.operation_id}{done})"
    if busy.eta_seconds is not None:
        return f"{running}; try again in about {busy.eta_seconds:.0f} s"
    return (
        f"{running}; how long it will take is not known yet (it has not reported a rate): "
        "try again in a few seconds"
    )


def resolve_commit(svc: RecoveryServices, commit: str) -> str:
    """The full id of the commit ``commit`` (hex, possibly abbreviated) names."""
    found = b""
    if _HEX.fullmatch(commit):
        found = svc.checkpoints.git.run(
            "rev-parse", "--verify", "-q", f"{commit}^{{commit}}", ok=(0, 1, 128)
        )
    full = found.decode("ascii", "replace").strip()
    if not _HEX.fullmatch(full) or not full.startswith(commit):
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"the commit to restore from ({commit[:12]}) no longer exists",
            hint="Preview again: `vibflow run recover`.",
        )
    return full


def source_commit(svc: RecoveryServices, job: RestoreJob) -> str:
    """The commit the job's files are read from: a checkpoint's, or the commit itself."""
    if job.source_kind == "commit":
        return resolve_commit(svc, job.from_commit or "")
    return svc.checkpoints.get(job.from_checkpoint or "").commit
