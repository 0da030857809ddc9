"""Restores a crash left half-done: found for ``recover --explain``.

A restore run killed inside its apply stays ``running`` with a dead owner
until something refreshes it, then reads ``interrupted``; either way it holds
files half-restored and the way on is ``vibflow resume RUN`` (the apply
checks every file again, and asks again when one was edited since). Read
from the journal and the restore jobs only: nothing is taken over or written
here, so explaining stays read-only.
"""

from __future__ import annotations

from typing import TypedDict

from vibflow.engine.claims import orphaned, owner_is_dead
from vibflow.engine.kinds import RunStatus
from vibflow.engine.records import JournalStore
from vibflow.steps.recovery.job import RestoreJobs

APPLY_STATE = "apply"


class InterruptedRestore(TypedDict):
    run_id: str
    flow: str
    files_total: int
    resume_command: str


def interrupted_restores(journal: JournalStore, jobs: RestoreJobs) -> list[InterruptedRestore]:
    """The restore runs stopped inside their apply by a crash, newest first."""
    found: list[InterruptedRestore] = []
    for run in journal.runs((RunStatus.INTERRUPTED, RunStatus.RUNNING), limit=50):
        if run.state != APPLY_STATE:
            continue
        if run.status == RunStatus.RUNNING and not (owner_is_dead(run) or orphaned(run)):
            continue  # still being applied by a live process: busy, not interrupted
        job = jobs.load(run.run_id)
        if job is None or job.applied_at is not None:
            continue
        found.append(
            {
                "run_id": run.run_id,
                "flow": run.flow,
                "files_total": len(job.paths),
                "resume_command": f"vibflow resume {run.run_id}",
            }
        )
    return found
