"""Make a batch of written files durable with as few disk flushes as is safe.

One ``fsync`` per file costs a journal commit each (~0.35 ms here; run
concurrently the filesystem folds them, but a thousand of them still crowd
the disk while the next files are written and renamed). On Linux one
``syncfs`` per filesystem does the same for the whole batch: it returns once
every dirty page and every metadata change of that filesystem is on disk,
ours included. It also writes out other programs' unwritten data, so it is
used only while the machine holds little of that (``Dirty`` + ``Writeback`` in
``/proc/meminfo`` under :data:`SYNCFS_DIRTY_LIMIT`); otherwise, elsewhere, or
should ``syncfs`` fail, each file gets its own ``fsync``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from functools import cache
from pathlib import Path

# A few seconds of writing at worst on a slow disk; a quiet machine holds
# a few megabytes.
SYNCFS_DIRTY_LIMIT = 64 * 1024 * 1024
_MEMINFO = Path("/proc/meminfo")


@cache
def _syncfs() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        call = ctypes.CDLL(None, use_errno=True).syncfs
    except (AttributeError, OSError):
        return None
    call.argtypes = [ctypes.c_int]
    call.restype = ctypes.c_int
    return call


def unwritten_bytes(meminfo: Path = _MEMINFO) -> int | None:
    """Data the kernel holds but has not written yet (all filesystems), or None."""
    values: dict[str, int] = {}
    try:
        with meminfo.open(encoding="ascii") as fh:
            for line in fh:
                name, _, rest = line.partition(":")
                if name not in ("Dirty", "Writeback"):
                    continue
                if name in values:
                    return None  # not the kernel's format
                fields = rest.split()
                if fields[1:] not in ([], ["kB"]):
                    return None
                values[name] = int(fields[0]) * (1024 if fields[1:] else 1)
    except (OSError, ValueError, IndexError):
        return None
    return sum(values.values()) if len(values) == 2 else None


class Flusher:
    """Flushes batches of open files on a thread pool; ``limit`` is the most unwritten
    data (bytes) a whole-filesystem flush may have to wait for."""

    def __init__(self, pool: ThreadPoolExecutor, limit: int = SYNCFS_DIRTY_LIMIT) -> None:
        self.pool = pool
        self.limit = limit

    def whole_filesystem(self) -> bool:
        if _syncfs() is None:
            return False
        pending = unwritten_bytes()
        return pending is not None and pending <= self.limit

    def submit(self, fds: Sequence[int]) -> list[Future[None]]:
        """Start making ``fds`` durable; every future must be waited for before any of
        the files is renamed or its descriptor closed."""
        if not fds:
            return []
        if self.whole_filesystem():
            return [self.pool.submit(_sync_filesystems, list(fds))]
        return [self.pool.submit(os.fsync, fd) for fd in fds]


def _sync_filesystems(fds: list[int]) -> None:
    call = _syncfs()
    if call is None:  # submit() checked; kept total for the type checker
        for each in fds:
            os.fsync(each)
        return
    first_on: dict[int, int] = {}
    for fd in fds:
        first_on.setdefault(os.fstat(fd).st_dev, fd)
    for fd in first_on.values():
        if call(fd) != 0:
            # A failed whole-filesystem flush proves nothing: flush each file.
            for each in fds:
                os.fsync(each)
            return
