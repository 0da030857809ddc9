"""A restore's state between the choice and the apply: one typed, persisted job.

``route`` writes it when a restore option is chosen; the guards on the way
into ``apply`` add what they established (the lease's operation and
generation, the paths the path contract accepted); the apply step reads it,
in this process or in a later one that resumes the run. It lives beside the
run (``.vibflow/recovery/jobs/<run_id>.json``) rather than in the run's
context, which stays small, and it is the only channel: nothing about a
restore is held in process-local state.

Every write replaces the whole file atomically and durably (a unique temp
name, so two processes never share one).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from vibflow.engine.atomicfile import atomic_write

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
    #: The lease the lock guard took for this restore (its operation and
    #: generation): the apply step adopts it when it runs in the same process.
    operation_id: str | None = None
    lease_generation: int | None = None
    #: ``paths`` as the path guard canonicalized them under that lease.
    checked_paths: list[str] | None = None


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

    def save(self, job: RestoreJob) -> RestoreJob:
        target = self._path(job.run_id)
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(target, job.model_dump_json())
        return job
