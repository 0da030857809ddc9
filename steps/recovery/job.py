"""A restore's state between the choice and the apply: one typed, persisted job.

``route`` writes it when a restore option is chosen; the guards on the way
into ``apply`` add what they established (the lease's operation and
generation, the paths the path contract accepted); the apply step reads it,
in this process or in a later one that resumes the run. It lives beside the
run (``.vibflow/recovery/jobs/<run_id>.json``) rather than in the run's
context, which stays small, and it is the only channel: nothing about a
restore is held in process-local state.

The job also says where the restore reads from (a checkpoint, or — when no
checkpoint predates the change — the last commit: ``source_kind``), which
sandwich holds the state from before its first written file
(``undo_checkpoint_id``: what ``vibflow undo`` restores) and, once the apply
finished, when and what it skipped. ``vibflow undo`` and ``vibflow checkpoint
restore`` write the same kind of job (``undoes`` names the run an undo undoes).

Every write replaces the whole file atomically and durably (a unique temp
name, so two processes never share one).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from vibflow.engine.atomicfile import atomic_write
from vibflow.steps.recovery.models import COMMIT_ABBREV

_RUN_ID = re.compile(r"^run_[0-9a-f]{32}$")


class RestoreJob(BaseModel):
    """What a confirmed restore will do, and what its guards established."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    schema_version: int = 1
    run_id: str
    option_id: str | None
    level: int
    paths: list[str]
    deletes: list[str]
    from_checkpoint: str | None
    #: Where the files come from: a checkpoint (``from_checkpoint``) or a commit
    #: (``from_commit``, a full id: the last commit when no checkpoint predates
    #: the change).
    source_kind: Literal["checkpoint", "commit"] = "checkpoint"
    from_commit: str | None = None
    #: The run this restore undoes (``vibflow undo``), if it is an undo.
    undoes: str | None = None
    #: Every sandwich taken for this restore, oldest first (a file edited after
    #: one sends the run back for another).
    sandwiches: list[str] = []
    #: The sandwich in force when the apply first started writing: the state
    #: before any file was restored, and what undoing this restore goes back to.
    undo_checkpoint_id: str | None = None
    #: Set once the apply finished: when, and the paths it skipped (left alone).
    applied_at: str | None = None
    skipped_paths: list[str] = []
    #: The lease the lock guard took for this restore (its operation and
    #: generation): the apply step adopts it when it runs in the same process.
    operation_id: str | None = None
    lease_generation: int | None = None
    #: ``paths`` as the path guard canonicalized them under that lease.
    checked_paths: list[str] | None = None

    def confirmation(self) -> str:
        """The text the user types to confirm: ``APPLY`` and the source's name.

        A checkpoint is named by its id; a commit by its abbreviated id, as the
        plan shows it — so the token names what the files are restored from
        (the job itself keeps the full id).
        """
        if self.source_kind == "commit":
            return f"APPLY {(self.from_commit or '')[:COMMIT_ABBREV]}"
        return f"APPLY {self.from_checkpoint}"


def run_file(folder: Path, run_id: str) -> Path:
    """``<folder>/<run_id>.json``; the name is never built from free text."""
    if not _RUN_ID.match(run_id):
        raise ValueError("not a run id")
    return folder / f"{run_id}.json"


class RestoreJobs:
    """The restore jobs of one project, one file per run."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _path(self, run_id: str) -> Path:
        return run_file(self.folder, run_id)

    def load(self, run_id: str) -> RestoreJob | None:
        """The run's job, or None when there is none (or it cannot be read)."""
        try:
            data = json.loads(self._path(run_id).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict):
            return None
        data.setdefault("run_id", run_id)  # jobs written before the id was stored
        try:
            return RestoreJob.model_validate(data)
        except ValidationError:
            return None  # a torn or foreign file: the guards refuse, asking to choose again

    def applied(self) -> list[RestoreJob]:
        """Every finished restore that changed files, the newest first."""
        found = []
        for path in self.folder.glob("run_*.json"):
            job = self.load(path.stem) if _RUN_ID.match(path.stem) else None
            if job is not None and job.applied_at and job.undo_checkpoint_id:
                found.append(job)
        return sorted(found, key=lambda j: j.applied_at or "", reverse=True)

    def save(self, job: RestoreJob) -> RestoreJob:
        target = self._path(job.run_id)
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(target, job.model_dump_json())
        return job
