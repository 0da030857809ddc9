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
it (:data:`SYNCFS_FILESYSTEMS`, read from ``/proc/self/mountinfo``; FUSE
shares, for one, may not pass it on). Otherwise, elsewhere, or should
``syncfs`` fail, each file gets its own ``fsync``.
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
_MOUNTINFO = Path("/proc/self/mountinfo")
SYNCFS_FILESYSTEMS = frozenset({"ext2", "ext3", "ext4", "xfs", "btrfs", "f2fs", "tmpfs"})
SYNCFS_KERNEL = (5, 8)


def kernel_version(release: str) -> tuple[int, ...]:
    """(major, minor) of a ``uname -r`` string such as ``6.1.0-18-amd64``."""
    numbers: list[int] = []
    for part in release.split(".")[:2]:
        digits = ""
        for ch in part:
            if not ch.isdigit():
                break
            digits += ch
        if not digits:
            break
        numbers.append(int(digits))
    return tuple(numbers)


def filesystem_types(mountinfo: Path = _MOUNTINFO) -> dict[tuple[int, int], str]:
    """The filesystem type of each mounted device, by (major, minor) — empty when unknown."""
    found: dict[tuple[int, int], str] = {}
    try:
        lines = mountinfo.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return found
    for line in lines:
        fields = line.split()
        if "-" not in fields or len(fields) < 3:
            continue
        kind = fields[fields.index("-") + 1 :][:1]
        major, _, minor = fields[2].partition(":")
        if kind and major.isdigit() and minor.isdigit():
            found.setdefault((int(major), int(minor)), kind[0])
    return found


@cache
def _mounted() -> dict[tuple[int, int], str]:
    return filesystem_types()


def trusted_device(dev: int) -> bool:
    """Does ``syncfs`` on this device report what it did (see the module doc)?"""
    return _mounted().get((os.major(dev), os.minor(dev))) in SYNCFS_FILESYSTEMS


@cache
def _syncfs() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    if kernel_version(os.uname().release) < SYNCFS_KERNEL:
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
    on: dict[int, list[int]] = {}
    for fd in fds:
        on.setdefault(os.fstat(fd).st_dev, []).append(fd)
    for dev, group in on.items():
        # A failed whole-filesystem flush proves nothing: then each file is flushed.
        if not trusted_device(dev) or call(group[0]) != 0:
            for each in group:
                os.fsync(each)
