"""The first steps of the ``restore`` and ``undo`` flows: a restore job from a
checkpoint (any files) or from a finished restore (put back what it changed).

Both flows then go the recover flow's restore way — ``checkpoints.sandwich``,
the confirmation with all its guards, ``recovery.apply`` and
``recovery.result`` — so there is one apply model, one set of guards and one
kind of job (:class:`~vibflow.steps.recovery.job.RestoreJob`). These steps
only decide *what* the job restores and show it before anything is taken:
the files that would be written and those that would be deleted, counted
against the disk as it is now, so the preview's counts are what the apply
does.

Undo follows jj's operation log: an undo is itself a restore with its own
sandwich, so undoing an undo restores what the undo replaced, and nothing is
ever lost. What a restore changed is worked out from git alone: the paths
where the tree it restored from differs from its undo point (the sandwich
taken before its first written file), less the paths it skipped.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.inputs import coerce
from vibflow.engine.registry import StepContext, StepResult
from vibflow.steps.checkpoints import restore
from vibflow.steps.checkpoints.models import CheckpointMeta
from vibflow.steps.recovery.apply_steps import source_commit
from vibflow.steps.recovery.job import RestoreJob, RestoreJobs
from vibflow.steps.recovery.plans import sample
from vibflow.steps.recovery.restorable import names_apart
from vibflow.steps.recovery.services import RecoveryServices


@dataclass(frozen=True)
class Selection:
    """What a restore from one source would change right now."""

    writes: list[str]
    deletes: list[str]
    #: Files that differ but whose names no restore can write (a ':' in them, a
    #: decomposed form …) → why, in words: left as they are, and said so.
    left_out: Mapping[str, str] = field(default_factory=dict)

    @property
    def paths(self) -> list[str]:
        return sorted([*self.writes, *self.deletes])


def checkpoint_source(svc: RecoveryServices, checkpoint_id: str) -> CheckpointMeta:
    """The checkpoint to restore from, or a clear error (bad input)."""
    meta = svc.checkpoints.get(checkpoint_id)
    if not meta.metadata_complete or not meta.commit:
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"checkpoint {meta.checkpoint_id} is incomplete, so it cannot be restored from",
            hint="`vibflow checkpoint list` shows the others.",
        )
    return meta


def named_paths(svc: RecoveryServices, meta: CheckpointMeta, paths: Sequence[str]) -> list[str]:
    """``paths`` through the path contract; each must be in the checkpoint or on disk
    (a typo is bad input, not a silent no-op)."""
    wanted = svc.normalize_paths(paths)
    for item in restore.plan(svc.checkpoints.git, meta.commit, wanted):
        if item.action == "delete" and restore.Current.read(svc.root, item.path).kind == "missing":
            raise VibflowError(
                ErrorCode.BAD_INPUT,
                f"'{item.path}' is neither in checkpoint {meta.checkpoint_id} nor in the "
                "working tree",
                hint=f"`vibflow checkpoint diff {meta.checkpoint_id}` lists what differs.",
            )
    return wanted


def undo_target(jobs: RestoreJobs, run_id: str | None) -> RestoreJob:
    """The finished restore to undo: ``run_id``'s, or the newest one."""
    if run_id is None:
        done = jobs.applied()
        if not done:
            raise VibflowError(
                ErrorCode.BAD_INPUT,
                "there is no finished restore to undo",
                hint="`vibflow runs list` shows the runs.",
            )
        return done[0]
    try:
        job = jobs.load(run_id)
    except ValueError:
        job = None
    if job is None:
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"run '{run_id[:40]}' is not a restore, so there is nothing of it to undo",
            hint="`vibflow undo` with no run undoes the latest restore.",
        )
    if job.applied_at is None or job.undo_checkpoint_id is None:
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"run {run_id} has not finished restoring any file, so there is nothing to undo",
            hint=f"`vibflow runs show {run_id}` shows where it is.",
        )
    return job


def undo_point(svc: RecoveryServices, job: RestoreJob) -> CheckpointMeta:
    """The sandwich ``job`` is undone from, or a clear error when it is gone."""
    try:
        return svc.checkpoints.get(job.undo_checkpoint_id or "")
    except VibflowError as exc:
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"the safety checkpoint of run {job.run_id} ({job.undo_checkpoint_id}) no longer "
            "exists (pruned by the retention policy), so the run cannot be undone",
            hint="`vibflow checkpoint list` shows the checkpoints left to restore from.",
        ) from exc


def _differs(a: restore.Item | None, b: restore.Item) -> bool:
    return a is None or (a.action, a.mode, a.sha) != (b.action, b.mode, b.sha)


def _pending(
    svc: RecoveryServices, items: Iterable[restore.Item], apart: Mapping[str, str] | None = None
) -> Selection:
    """Of ``items``, those the disk does not match yet: files to write, files to delete,
    and those of ``apart`` (names no restore can write → why): one such name in a
    restore's paths would have the confirmation refuse them all."""
    writes, deletes, left = [], [], {}
    for item in items:
        if item.action == "skip":
            continue
        now = restore.Current.read(svc.root, item.path)
        if now.is_object(item):
            continue
        if apart and item.path in apart:
            left[item.path] = apart[item.path]
            continue
        if item.action == "delete":
            if now.kind == "other":
                continue  # a folder now: a restore never deletes folders
            deletes.append(item.path)
        else:
            writes.append(item.path)
    return Selection(writes, deletes, left)


def from_checkpoint(
    svc: RecoveryServices, meta: CheckpointMeta, paths: Sequence[str] | None
) -> Selection:
    """Restoring ``paths`` (default: every file that differs) from ``meta``. Named
    paths have passed the restore's path rules; of every file that differs, the
    names no restore can write are left (both names of such a rename)."""
    git = svc.checkpoints.git
    if paths:
        wanted = named_paths(svc, meta, paths)
        return _pending(svc, restore.plan(git, meta.commit, sorted(set(wanted))))
    changes = [(c.path, c.old_path) for c in svc.checkpoints.diff(meta.checkpoint_id)]
    # A rename: bring the old name back too.
    wanted = sorted({p for change in changes for p in change if p})
    return _pending(svc, restore.plan(git, meta.commit, wanted), names_apart(changes))


def undoing(svc: RecoveryServices, job: RestoreJob) -> tuple[CheckpointMeta, Selection]:
    """The undo point of ``job`` and what restoring its changed files from it would do."""
    point = undo_point(svc, job)
    git = svc.checkpoints.git
    restored = restore.plan(git, source_commit(svc, job), job.paths)
    skipped = set(job.skipped_paths)
    before = {i.path: i for i in restore.plan(git, point.commit, [i.path for i in restored])}
    changed = [
        i.path
        for i in restored
        if i.action != "skip" and i.path not in skipped and _differs(before.get(i.path), i)
    ]
    return point, _pending(svc, restore.plan(git, point.commit, changed))


class PrepareSteps:
    """``restore.prepare`` and ``undo.prepare``: write the job, show the preview.

    The rewind flow's step (``steps/agents/rewind_steps.py``) builds its job
    through :meth:`prepared` too: one job shape, one preview shape."""

    def __init__(self, services: RecoveryServices) -> None:
        self._svc = services

    def restore(self, ctx: StepContext) -> StepResult:
        inputs = ctx.context.get("inputs", {})
        if not inputs.get("checkpoint"):
            return _nothing("no checkpoint was named: `vibflow checkpoint restore CKPT [PATH...]`")
        meta = checkpoint_source(self._svc, str(inputs["checkpoint"]))
        # From the CLI a list; from `vibflow run restore --input paths=a,b` a string.
        raw = coerce({"paths": "list?"}, {"paths": inputs.get("paths")}, where="the restore")
        chosen = from_checkpoint(self._svc, meta, raw.get("paths") or [])
        label = f"restore from checkpoint {meta.checkpoint_id}"
        return self.prepared(
            ctx, meta, chosen, label, level=3 if raw.get("paths") else 4, undoes=None
        )

    def undo(self, ctx: StepContext) -> StepResult:
        inputs = ctx.context.get("inputs", {})
        wanted = inputs.get("run")
        if not wanted and not self._svc.jobs.applied():
            return _nothing("there is no finished restore to undo")
        target = undo_target(self._svc.jobs, str(wanted) if wanted else None)
        point, chosen = undoing(self._svc, target)
        label = f"undo run {target.run_id} (restore from its safety checkpoint)"
        return self.prepared(ctx, point, chosen, label, level=4, undoes=target.run_id)

    def prepared(
        self,
        ctx: StepContext,
        meta: CheckpointMeta,
        chosen: Selection,
        label: str,
        *,
        level: int,
        undoes: str | None,
        extra: Mapping[str, Any] | None = None,
    ) -> StepResult:
        """The job and the preview; ``extra`` adds a flow's own facts to the preview
        (a rewind names the turn and the files it leaves as the user edited them)."""
        shown: dict[str, Any] = {
            "label": label,
            "level": level,
            "from_checkpoint": meta.checkpoint_id,
            "undoes": undoes,
            "writes": sample(chosen.writes),
            "writes_total": len(chosen.writes),
            "deletes": sample(chosen.deletes),
            "deletes_total": len(chosen.deletes),
            **(extra or {}),
        }
        if chosen.left_out:
            shown["left_out"] = [
                {"path": p, "why": chosen.left_out[p]} for p in sample(sorted(chosen.left_out))
            ]
            shown["left_out_total"] = len(chosen.left_out)
        if not chosen.paths:
            shown["nothing"] = "every chosen file already matches; nothing to restore"
            return StepResult(
                "nothing", outcome="nothing to restore", context={"public": {"restore": shown}}
            )
        job = RestoreJob(
            run_id=ctx.run_id,
            option_id=None,
            level=level,
            paths=chosen.paths,
            deletes=chosen.deletes,
            from_checkpoint=meta.checkpoint_id,
            undoes=undoes,
        )
        if not ctx.dry_run:  # a dry run writes nothing, not even the job
            self._svc.jobs.save(job)
        return StepResult(
            "done",
            outcome=f"{len(chosen.writes)} to write, {len(chosen.deletes)} to delete",
            context={
                "public": {
                    "restore": shown,
                    "paths": sample(job.paths),
                    "paths_total": len(job.paths),
                    "confirmation_expected": job.confirmation(),
                }
            },
        )


def _nothing(why: str) -> StepResult:
    return StepResult(
        "nothing", outcome="nothing to restore", context={"public": {"restore": {"nothing": why}}}
    )
