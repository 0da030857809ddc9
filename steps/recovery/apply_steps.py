"""The restore branch of the recover flow: route → sandwich → confirm → apply.

Every precondition is a guard on the transition into ``apply`` (the
engine's trusted-shape rule makes removing one a load error):
``confirmation_matches`` (the user typed ``APPLY <checkpoint_id>``),
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
taking it again when a resume runs it in a new one).
"""

from __future__ import annotations

from pathlib import Path

from vibflow.engine.errors import VibflowError
from vibflow.engine.kinds import FinalStatus, GuardParam
from vibflow.engine.registry import (
    GuardContext,
    GuardResult,
    StepContext,
    StepResult,
)
from vibflow.steps.checkpoints import restore
from vibflow.steps.checkpoints.leftovers import sweep_ledger
from vibflow.steps.checkpoints.models import CheckpointMeta
from vibflow.steps.recovery.flow_steps import full_option, public_of
from vibflow.steps.recovery.job import RestoreJob
from vibflow.steps.recovery.lease import Lease, LeaseBusy, LeaseLost, new_operation_id
from vibflow.steps.recovery.services import RecoveryServices

SHOWN_PATHS = 200  # paths shown in the run's JSON; the job file keeps them all
UNSAVED = "too large for the safety checkpoint, so a restore of it could not be undone"
NOT_CONFIRMED = "deleting it was not part of what you confirmed"


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
        option = full_option(self._svc.advisor, ctx.context, wanted)
        if option is None or option.get("level", 0) < 3:
            return StepResult("read_only", outcome="read-only option")
        chosen = list(inputs.get("paths") or option.get("affected_paths", []))
        source = (plan.get("safe_checkpoint_candidate") or {}).get("checkpoint_id")
        chosen_set = set(chosen)
        job = self._svc.jobs.save(
            RestoreJob(
                run_id=ctx.run_id,
                option_id=wanted,
                level=option.get("level", 0),
                paths=chosen,
                deletes=[p for p in option.get("deletes", []) if p in chosen_set],
                from_checkpoint=source,
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
                        "deletes": job.deletes[:SHOWN_PATHS],
                    },
                    "paths": chosen[:SHOWN_PATHS],
                    "paths_total": len(chosen),
                    "confirmation_expected": f"APPLY {source}",
                }
            },
        )

    def sandwich(self, ctx: StepContext) -> StepResult:
        """Take the safety checkpoint right before asking for confirmation."""
        meta = self._svc.checkpoints.create(f"sandwich for {ctx.run_id}", reason="sandwich")
        job = self._svc.jobs.load(ctx.run_id)
        total = len(job.paths) if job else 0
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
        source = svc.checkpoints.get(job.from_checkpoint or "")
        sandwich_meta = svc.checkpoints.get(public.get("sandwich_checkpoint_id", ""))
        if lease is None:  # resumed in a new process: take the lease again
            try:
                lease = svc.lease_file.acquire(f"op_{ctx.run_id[4:]}")
            except LeaseBusy as busy:
                return StepResult(
                    "aborted",
                    outcome="busy",
                    status=FinalStatus.ABORTED,
                    context={"public": {"applied": {"aborted": busy.message, "changed_files": 0}}},
                    audit={"result": "busy"},
                )
        return _Restore(svc, ctx, job, lease, source, sandwich_meta).run(paths)

    def abandon(self, ctx: StepContext) -> str | None:
        """The run is aborted inside ``apply``: remove exactly the temp files its
        killed restores left (by their ledger entries), nothing named like them."""
        gone = sweep_ledger(self._svc.root, self._svc.lease_file.folder, owner=ctx.run_id)
        return f"removed {gone} temp file(s) of the interrupted restore" if gone else None

    # -- guards on the transition into apply ------------------------------------------

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
        return GuardResult.refuse(
            f"this tool has no grant for {param}; grant it with `vibflow grant {tool} {param}`"
        )

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
            return GuardResult.refuse(
                f"another restore is running (operation {busy.operation_id}); try again in "
                f"about {busy.eta_seconds:.0f} s"
            )
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
        confirmed = list(ctx.inputs.get("paths") or previewed)
        if sorted(confirmed) != sorted(previewed):
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


class _Restore:
    """One attempt at applying a job: compare, then restore file by file under the lease."""

    def __init__(
        self,
        svc: RecoveryServices,
        ctx: StepContext,
        job: RestoreJob,
        lease: Lease,
        source: CheckpointMeta,
        sandwich_meta: CheckpointMeta,
    ) -> None:
        self.svc = svc
        self.ctx = ctx
        self.job = job
        self.lease = lease
        self.source = source
        self.sandwich = sandwich_meta

    def run(self, paths: list[str]) -> StepResult:
        svc, ctx, lease, sandwich_meta = self.svc, self.ctx, self.lease, self.sandwich
        git = svc.checkpoints.git
        items = restore.plan(git, self.source.commit, paths)
        confirmed_deletes = set(self.job.deletes)
        pending = [i for i in items if not ctx.progress.is_done(i.path)]
        at_sandwich = {
            i.path: i for i in restore.plan(git, sandwich_meta.commit, [i.path for i in items])
        }

        def differs_from_sandwich(item: restore.Item) -> bool:
            was = at_sandwich.get(item.path)
            return was is None or (was.action, was.mode, was.sha) != (
                item.action,
                item.mode,
                item.sha,
            )

        # Files a killed earlier attempt already restored count as changed by this
        # restore: the sandwich (the tree right before it) differs and they are now
        # what the checkpoint holds.
        done_before = [i for i in items if ctx.progress.is_done(i.path) and i.action != "skip"]
        already = sum(
            1
            for i in done_before
            if differs_from_sandwich(i) and restore.Current.read(svc.root, i.path).is_object(i)
        )
        # A file the sandwich could not hold (over the size cap) could not be put
        # back after the restore: it is left alone and reported.
        unsaved = {s.path for s in sandwich_meta.skipped}
        pending = [
            restore.Item(i.path, "skip", reason=UNSAVED) if i.path in unsaved else i
            for i in pending
        ]
        edited, stale = _compare(svc.root, pending, at_sandwich)
        if edited:
            lease.release()
            return StepResult(
                "reconfirm",
                outcome=f"{len(edited)} file(s) edited after the sandwich",
                context={"public": {"post_sandwich_edits": edited[:SHOWN_PATHS]}},
            )
        # Only the files to write are read out of git.
        stale_set = set(stale)
        blobs = restore.read_blobs(
            git,
            [i.sha for i in pending if i.sha and i.action == "write" and i.path in stale_set],
        )
        work = [
            (
                restore.Item(i.path, "skip", reason=NOT_CONFIRMED)
                if i.action == "delete" and i.path not in confirmed_deletes
                else i,
                blobs.get(i.sha or ""),
            )
            for i in pending
        ]
        changed, skipped = 0, []

        def on_file(item: restore.Item, what: str) -> None:
            nonlocal changed
            if what.startswith("skipped"):
                skipped.append({"path": item.path, "why": what.removeprefix("skipped: ")})
            elif what != "unchanged" or differs_from_sandwich(item):
                changed += 1  # "unchanged" and different: restored by a killed earlier attempt
            ctx.progress.finish(item.path)

        def on_batch() -> None:
            ctx.progress.flush()
            lease.renew_if_due()

        try:
            # Ownership and generation are verified under the lease mutex when a
            # batch's renames begin, and the expiry before every file (lease.commit):
            # a lost lease stops the restore before anything more becomes visible.
            restore.restore_items(
                svc.root,
                work,
                lease.commit,
                on_file=on_file,
                on_batch=on_batch,
                known_stale=stale,
                tag=lease.record.generation,
                scratch=svc.lease_file.folder,
                owner=ctx.run_id,
            )
        except LeaseLost:
            return _lease_lost(changed, sandwich_meta.checkpoint_id)
        except Exception:
            lease.release()  # a failed restore must not keep others waiting for the lease
            raise
        lease.release()
        total = changed + already
        return StepResult(
            "done",
            outcome=f"{len(items)} path(s) restored",
            context={
                "public": {
                    "changed_files": total,
                    "post_sandwich_edits": [],
                    "applied": {
                        "changed_files": total,
                        "skipped": skipped,
                        "paths": paths,
                        "sandwich_checkpoint_id": sandwich_meta.checkpoint_id,
                    },
                }
            },
            audit={
                "result": "ok",
                "sandwich_checkpoint_id": sandwich_meta.checkpoint_id,
                "files_changed": changed,
                "paths_count": {"in_zone": 0, "drift": len(paths), "total": len(paths)},
            },
        )


def _compare(
    root: Path, pending: list[restore.Item], at_sandwich: dict[str, restore.Item]
) -> tuple[list[str], list[str]]:
    """(edited after the sandwich, different from the checkpoint) among ``pending``.

    Every pending file is read once, before anything is written: one edited
    after the sandwich was taken sends the whole restore back for a second
    confirmation, with nothing half-done.
    """
    edited, stale = [], []
    for item in pending:
        if item.action == "skip":
            continue
        now = restore.Current.read(root, item.path)
        if now.is_object(item):
            continue
        stale.append(item.path)
        was = at_sandwich.get(item.path)
        if was is not None and was.action != "skip" and not now.is_object(was):
            edited.append(item.path)
    return edited, stale


def _lease_lost(changed: int, sandwich_id: str) -> StepResult:
    return StepResult(
        "aborted",
        outcome="lease lost",
        status=FinalStatus.ABORTED,
        context={
            "public": {
                "applied": {"aborted": "restore exceeded lock window", "changed_files": changed}
            }
        },
        audit={
            "result": "aborted",
            "sandwich_checkpoint_id": sandwich_id,
            "files_changed": changed,
        },
    )
