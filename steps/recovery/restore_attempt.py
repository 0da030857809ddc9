"""One attempt at applying a restore job: compare, then restore file by file.

The apply step (:mod:`~vibflow.steps.recovery.apply_steps`) finds the job, the
lease and the checkpoints; an attempt reads the trees it restores from and to,
sends the run back for a second confirmation when a file was edited after the
safety checkpoint, and otherwise writes the files under the lease — renewing
it while it prepares, stopping before the next file when it is lost. Files
already equal to the checkpoint are skipped, so a resumed attempt ends with
the same tree as an uninterrupted one.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from vibflow.engine.errors import VibflowError
from vibflow.engine.journal import utcnow
from vibflow.engine.kinds import FinalStatus
from vibflow.engine.registry import StepContext, StepResult
from vibflow.steps.checkpoints import restore, unstage
from vibflow.steps.checkpoints.models import CheckpointMeta
from vibflow.steps.recovery.job import RestoreJob
from vibflow.steps.recovery.lease import Lease, LeaseLost
from vibflow.steps.recovery.plans import sample
from vibflow.steps.recovery.services import RecoveryServices

UNSAVED = "too large for the safety checkpoint, so a restore of it could not be undone"
NOT_STORED = (
    "a likely secret file the checkpoint left out (it holds no copy), so it is never "
    "deleted or overwritten"
)
NOT_CONFIRMED = "deleting it was not part of what you confirmed"


class RestoreAttempt:
    """One attempt at applying a job: compare, then restore file by file under the lease."""

    def __init__(
        self,
        svc: RecoveryServices,
        ctx: StepContext,
        job: RestoreJob,
        lease: Lease,
        source: str,
        sandwich_meta: CheckpointMeta,
        not_stored: frozenset[str] = frozenset(),
    ) -> None:
        """``source`` is the commit files are read from; ``not_stored`` the secret
        files its checkpoint left out."""
        self.svc = svc
        self.not_stored = not_stored
        self.ctx = ctx
        self.job = job
        self.lease = lease
        self.source = source
        self.sandwich = sandwich_meta

    def run(self, paths: list[str]) -> StepResult:
        try:
            return self._run(paths)
        except LeaseLost:  # lost while reading the tree, before any file was written
            return lease_lost(0, self.sandwich.checkpoint_id)

    def _run(self, paths: list[str]) -> StepResult:
        svc, ctx, lease, sandwich_meta = self.svc, self.ctx, self.lease, self.sandwich
        git = svc.checkpoints.git
        # Before the first file is written the restore reads the whole tree, which
        # for tens of thousands of files outlasts a lease term: it renews as it goes.
        items = restore.plan(git, self.source, paths)
        lease.renew_if_due()
        confirmed_deletes = set(self.job.deletes)
        pending = [i for i in items if not ctx.progress.is_done(i.path)]
        at_sandwich = {
            i.path: i for i in restore.plan(git, sandwich_meta.commit, [i.path for i in items])
        }
        lease.renew_if_due()

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
        unsaved = {
            s.path: UNSAVED
            if s.reason == "too_large"
            else f"{s.why}: not in the safety checkpoint, so a restore of it could not be undone"
            for s in sandwich_meta.skipped
        }
        # A secret file the source checkpoint left out is absent from it, which
        # must not read as "did not exist then": it is never deleted or overwritten.
        unsaved.update(dict.fromkeys(self.not_stored, NOT_STORED))
        pending = [
            restore.Item(i.path, "skip", reason=unsaved[i.path]) if i.path in unsaved else i
            for i in pending
        ]
        edited, stale = _compare(svc.root, pending, at_sandwich, lease.renew_if_due)
        if edited:
            lease.release()
            return StepResult(
                "reconfirm",
                outcome=f"{len(edited)} file(s) edited after the sandwich",
                context={
                    "public": {
                        "post_sandwich_edits": sample(edited),
                        "post_sandwich_edits_total": len(edited),
                    }
                },
            )
        # Only the files to write are read out of git.
        stale_set = set(stale)
        blobs = restore.read_blobs(
            git,
            [i.sha for i in pending if i.sha and i.action == "write" and i.path in stale_set],
        )
        lease.renew_if_due()
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
        undo_point = self._undo_point(bool(stale))
        total_items, done_items = len(items), len(items) - len(pending)
        lease.report_progress(done_items, total_items)

        def on_file(item: restore.Item, what: str) -> None:
            nonlocal changed, done_items
            if what.startswith("skipped"):
                skipped.append({"path": item.path, "why": what.removeprefix("skipped: ")})
            elif what != "unchanged" or differs_from_sandwich(item):
                changed += 1  # "unchanged" and different: restored by a killed earlier attempt
            done_items += 1
            ctx.progress.finish(item.path)
            lease.report_progress_if_due(done_items, total_items)

        def on_batch() -> None:
            ctx.progress.flush()
            lease.renew_if_due()
            lease.report_progress(done_items, total_items)

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
            return lease_lost(changed, sandwich_meta.checkpoint_id)
        except Exception:
            lease.release()  # a failed restore must not keep others waiting for the lease
            raise
        index_note = self._unstage(work, skipped, done_before)
        lease.release()
        total = changed + already
        self.job = svc.jobs.save(
            self.job.model_copy(
                update={
                    "undo_checkpoint_id": undo_point,
                    "applied_at": utcnow(),
                    "skipped_paths": [s["path"] for s in skipped],
                }
            )
        )
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
                        "paths": sample(paths),
                        "paths_total": len(paths),
                        # The state before any file was restored (after a crash and
                        # a second confirmation, the first sandwich, not the last).
                        "sandwich_checkpoint_id": undo_point,
                        "sandwiches": self.job.sandwiches,
                        **index_note,
                    },
                }
            },
            audit={
                "result": "ok",
                "sandwich_checkpoint_id": undo_point,
                "files_changed": changed,
                "paths_count": {"in_zone": 0, "drift": len(paths), "total": len(paths)},
            },
        )

    def _unstage(
        self,
        work: list[tuple[restore.Item, bytes | None]],
        skipped: list[dict[str, str]],
        done_before: list[restore.Item],
    ) -> dict[str, object]:
        """Unstage whatever an agent staged on the restored paths (:mod:`unstage`), under
        the lease like the files. The index is git's to lock: when it cannot be written
        (a git command of the user's holds it), the files stay restored and the answer
        says which paths still carry a staged change."""
        left = {s["path"] for s in skipped}
        restored = [i.path for i, _ in work if i.action != "skip" and i.path not in left]
        restored += [i.path for i in done_before]
        git = self.svc.checkpoints.git
        try:
            reset = unstage.unstage(git, restored)
        except VibflowError:
            try:
                still = unstage.staged(git, restored, git.head())
            except VibflowError:
                still = restored  # git cannot even read the index: name them all
            return {"index_not_reset": sample(still), "index_not_reset_total": len(still)}
        return {"unstaged": sample(reset), "unstaged_total": len(reset)} if reset else {}

    def _undo_point(self, writes: bool) -> str:
        """The sandwich that holds the tree from before this restore's first write.

        Recorded (durably, in the job) right before the first attempt that will
        write anything; a later attempt — resumed after a crash, confirmed again
        with a newer sandwich — keeps it: that newer sandwich already holds
        files this restore wrote.
        """
        if self.job.undo_checkpoint_id is not None:
            return self.job.undo_checkpoint_id
        point = self.sandwich.checkpoint_id
        if writes:
            self.job = self.svc.jobs.save(self.job.model_copy(update={"undo_checkpoint_id": point}))
        return point


def _compare(
    root: Path,
    pending: list[restore.Item],
    at_sandwich: dict[str, restore.Item],
    keep_alive: Callable[[], None],
) -> tuple[list[str], list[str]]:
    """(edited after the sandwich, different from the checkpoint) among ``pending``.

    Every pending file is read once, before anything is written: one edited
    after the sandwich was taken sends the whole restore back for a second
    confirmation, with nothing half-done.
    """
    edited, stale = [], []
    for n, item in enumerate(pending):
        if n % 256 == 255:
            keep_alive()  # renews the lease when it is due, or raises LeaseLost
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


def lease_lost(changed: int, sandwich_id: str) -> StepResult:
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
