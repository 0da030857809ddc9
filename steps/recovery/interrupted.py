"""Restores a crash left half-done: found for ``recover --explain``.

A restore run killed inside its apply stays ``running`` with a dead owner
until something refreshes it, then reads ``interrupted``; either way it holds
files half-restored and the way on is ``vibflow resume RUN`` (the apply
checks every file again, and asks again when one was edited since). Read
from the journal and the restore jobs only: nothing is taken over or written
here, so explaining stays read-only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypedDict

from vibflow.engine.kinds import RunStatus
from vibflow.engine.records import JournalStore

if TYPE_CHECKING:
    from vibflow.steps.recovery.job import RestoreJobs

APPLY_STATE = "apply"


class InterruptedRestore(TypedDict):
    run_id: str
    flow: str
    files_total: int
    resume_command: str


def interrupted_restores(
    journal: JournalStore, jobs: RestoreJobs | Callable[[], RestoreJobs]
) -> list[InterruptedRestore]:
    """The restore runs stopped inside their apply by a crash, newest first.

    ``jobs`` may be given as a function: the restore jobs (and the ownership
    checks) are only loaded when some run stands in its apply state — almost
    never, and an explain or preview should not pay for them otherwise.
    """
    candidates = [
        run
        for run in journal.runs((RunStatus.INTERRUPTED, RunStatus.RUNNING), limit=50)
        if run.state == APPLY_STATE
    ]
    if not candidates:
        return []
    from vibflow.engine.claims import orphaned, owner_is_dead

    store = jobs() if callable(jobs) else jobs
    found: list[InterruptedRestore] = []
    for run in candidates:
        if run.status == RunStatus.RUNNING and not (owner_is_dead(run) or orphaned(run)):
            continue  # still being applied by a live process: busy, not interrupted
        job = store.load(run.run_id)
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
