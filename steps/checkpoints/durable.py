"""Make a batch of written files durable with as few disk flushes as is safe.

One ``fsync`` per file costs a journal commit each (~0.35 ms here; run
concurrently the filesystem folds them, but a thousand of them still crowd
the disk while the next files are written and renamed). On Linux one
``syncfs`` per filesystem does the same for the whole batch: it returns once
every dirty page and every metadata change of that filesystem is on disk,
ours included. It also writes out other programs' unwritten data, so it is
used only while the machine holds little of that (``Dirty`` + ``Writeback`` in
``/proc/meminfo`` under :data:`SYNCFS_DIRTY_LIMIT`), and only where its answer
can be trusted: a kernel of 5.8 or later (before that ``syncfs`` reported
success even when writing failed) and a local filesystem known to implement
it (:data:`SYNCFS_FILESYSTEMS`, asked with ``fstatfs`` of the file itself;
FUSE shares, for one, may not pass it on, and overlays are not listed).
Otherwise, elsewhere, or should ``syncfs`` fail, each file gets its own
``fsync``.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any

# A few seconds of writing at worst on a slow disk; a quiet machine holds
# a few megabytes.
SYNCFS_DIRTY_LIMIT = 64 * 1024 * 1024
_MEMINFO = Path("/proc/meminfo")
# statfs(2) magic numbers of the local filesystems whose syncfs is trusted.
SYNCFS_FILESYSTEMS = {
    0xEF53: "ext2/ext3/ext4",
    0x58465342: "xfs",
    0x9123683E: "btrfs",
    0xF2F52010: "f2fs",
    0x01021994: "tmpfs",
}
SYNCFS_KERNEL = (5, 8)


def kernel_version(release: str) -> tuple[int, ...]:
    """(major, minor) of a ``uname -r`` string such as ``6.1.0-18-amd64``."""
    found = re.match(r"(\d+)(?:\.(\d+))?", release)
    if found is None:
        return ()
    return tuple(int(n) for n in found.groups() if n is not None)


@cache
def _libc_call(name: str, *argtypes: Any) -> Callable[..., int] | None:
    """A libc function taking ``argtypes`` and returning an int, or None off Linux."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        call = getattr(ctypes.CDLL(None, use_errno=True), name)
    except (AttributeError, OSError):
        return None
    call.argtypes = list(argtypes)
    call.restype = ctypes.c_int
    return call  # type: ignore[no-any-return]


def filesystem_magic(fd: int) -> int | None:
    """The ``f_type`` statfs(2) reports for the filesystem ``fd`` is on, or None."""
    import ctypes

    call = _libc_call("fstatfs", ctypes.c_int, ctypes.c_void_p)
    if call is None:
        return None

    # struct statfs starts with f_type (a C long on Linux); the rest is room.
    buf = (ctypes.c_long * 32)()
    if call(fd, ctypes.byref(buf)) != 0:
        return None
    return int(buf[0]) & 0xFFFFFFFF


def trusted_fd(fd: int) -> bool:
    """Is the file of ``fd`` on a filesystem whose syncfs reports what it did? Asked
    of the descriptor itself, so mounts coming and going cannot mislead it."""
    return filesystem_magic(fd) in SYNCFS_FILESYSTEMS


def _syncfs() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None
    if kernel_version(os.uname().release) < SYNCFS_KERNEL:
        return None
    import ctypes

    return _libc_call("syncfs", ctypes.c_int)


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
    on: dict[int, list[int]] = {}
    for fd in fds:
        on.setdefault(os.fstat(fd).st_dev, []).append(fd)
    for group in on.values():
        # A failed whole-filesystem flush proves nothing: then each file is flushed.
        if not trusted_fd(group[0]) or call(group[0]) != 0:
            for each in group:
                os.fsync(each)
