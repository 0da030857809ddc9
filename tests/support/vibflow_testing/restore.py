"""Restore work and lease holds for the batched-restore tests.

``restore_items`` takes the work (item, blob) and a ``hold`` around each
batch's renames; these build both without a git repository or a lease file.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from vibflow.steps.checkpoints import restore
from vibflow.steps.recovery.lease import LeaseLost
from vibflow_testing.repo import write

Work = list[tuple[restore.Item, bytes | None]]
Hold = Callable[[Callable[[], None]], AbstractContextManager[Callable[[], None] | None]]


def blob_id(data: bytes) -> str:
    """git's SHA-1 object id of a blob holding ``data``."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def work_for(root: Path, n: int) -> Work:
    """``n`` files holding the agent's version; the work brings back the original."""
    work: Work = []
    for i in range(n):
        rel = f"pkg/f{i}.py"
        write(root, rel, f"agent {i}\n")
        data = f"original {i}\n".encode()
        work.append((restore.Item(rel, "write", "100644", blob_id(data)), data))
    return work


@contextmanager
def free_hold(on_lost: Callable[[], None]) -> Iterator[None]:
    """A hold that never loses the right to write."""
    del on_lost
    yield None


def losing_hold(at_check: int, on_release: Callable[[], None] | None = None) -> Hold:
    """A hold whose per-file check raises LeaseLost at its ``at_check``-th call (counted
    over the whole restore); ``on_release`` runs each time a hold ends."""
    checks = 0

    def still_ours() -> None:
        nonlocal checks
        checks += 1
        if checks == at_check:
            raise LeaseLost("op_test")

    @contextmanager
    def hold(on_lost: Callable[[], None]) -> Iterator[Callable[[], None]]:
        del on_lost
        try:
            yield still_ours
        finally:
            if on_release is not None:
                on_release()

    return hold
