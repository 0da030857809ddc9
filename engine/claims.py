"""Claiming a run: the one process allowed to advance it, from claim to release.

Every operation that changes a run owns it from its claim until its audit
rows are flushed, then releases it and records how far the audit got
(``audited_seq``). The claim is a compare-and-set in the journal on the run's
``seq`` and owner token, so two processes racing for a run cannot both win,
and a process that lost it can never write to it again.

A run whose owner died — at any status — is taken over by the next process
that touches it, which first re-derives any audit rows the dead owner never
wrote (:meth:`~vibflow.engine.audit_batch.AuditBatch.reconcile`). Whether an
owner is alive is :mod:`.ownership`'s question, asked here.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from vibflow.engine.audit_batch import AuditBatch
from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.kinds import RunStatus
from vibflow.engine.ownership import Liveness, current_owner, liveness
from vibflow.engine.records import JournalStore, Owner, RunRecord


def busy(run: RunRecord) -> VibflowError:
    """The error for a run that another process is advancing."""
    who = f"process {run.owner.pid}" if run.owner else "another process"
    return VibflowError(
        ErrorCode.BUSY,
        f"run {run.run_id} is being advanced by {who} right now",
        hint="Wait for it to pause or finish, then try again.",
    )


def require_run(journal: JournalStore, run_id: str) -> RunRecord:
    run = journal.get(run_id)
    if run is None:
        raise VibflowError(
            ErrorCode.RUN_NOT_FOUND,
            f"there is no run '{run_id}' in this project",
            hint="`vibflow runs list` shows the runs.",
        )
    return run


def owner_is_dead(run: RunRecord) -> bool:
    return run.owner is not None and liveness(run.owner) is Liveness.DEAD


def orphaned(run: RunRecord) -> bool:
    """``running`` with nobody on it: its owner let go without moving it on (an
    error escaped the drive loop of a process that then released it)."""
    return run.owner is None and run.status == RunStatus.RUNNING


#: How many of the latest runs :meth:`Runner.refresh_all` looks at.
REFRESH_WINDOW = 200


def needs_refresh(run: RunRecord) -> bool:
    """Whether :meth:`Runner.refresh_all` has anything to do for ``run``: someone
    holds it (alive or not), its audit rows lag its journal, or it is orphaned."""
    return run.owner is not None or run.audited_seq < run.seq or orphaned(run)


class Claims:
    """Claims, holds and releases runs in one journal for this process."""

    def __init__(self, journal: JournalStore, audit: AuditBatch) -> None:
        self._journal = journal
        self._audit = audit

    @contextmanager
    def owning(self, run: RunRecord, *, attempt_increment: bool = False) -> Iterator[Owner]:
        """Claim ``run`` (as read) for the block; BUSY if a live owner has it or
        it moved on since it was read."""
        owner = current_owner()
        expected: str | None = None
        if run.owner is not None:
            if liveness(run.owner) is not Liveness.DEAD:
                raise busy(run)
            expected = run.owner.token
        if not self._journal.claim(
            run.run_id,
            owner,
            expect_seq=run.seq,
            expect_token=expected,
            attempt_increment=attempt_increment,
        ):
            raise busy(require_run(self._journal, run.run_id))
        with self.holding(run.run_id, owner):
            if expected is not None or run.audited_seq < run.seq:
                self._audit.reconcile(run, self._journal.entries(run.run_id))
            yield owner

    @contextmanager
    def holding(self, run_id: str, owner: Owner) -> Iterator[None]:
        """Batch audit rows while ``owner`` holds the run; flush, then release."""
        audited = False
        try:
            with self._audit.batching():
                yield
        finally:
            try:
                self._audit.flush()
                audited = True
            finally:
                self._journal.release(run_id, owner.token, audited=audited)

    def mine(self, run_id: str, owner: Owner) -> RunRecord:
        """The run as stored, which ``owner`` must still hold."""
        run = require_run(self._journal, run_id)
        if run.owner is None or run.owner.token != owner.token:
            raise busy(run)
        return run
