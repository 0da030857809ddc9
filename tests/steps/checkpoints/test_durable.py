"""Making a batch of written files durable: the unwritten-data reading that picks
between one ``syncfs`` per filesystem and one ``fsync`` per file, and both paths
on real descriptors (they finish for good ones and report bad ones)."""

from __future__ import annotations

import errno
import os
import sys
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from vibflow.steps.checkpoints import durable

LINUX = sys.platform.startswith("linux")
HUGE = 1 << 62  # more unwritten data than any machine holds: syncfs is always allowed
# A second filesystem on most Linux machines; only a fresh folder in it is used.
SHM = Path("/dev/shm")  # noqa: S108 - tempfile.TemporaryDirectory makes the folder
# The two ways a batch is flushed, by the limit that selects them on Linux.
PATHS = [pytest.param(-1, id="fsync-per-file"), pytest.param(HUGE, id="syncfs-per-filesystem")]


@pytest.fixture
def pool() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(4, "test-durable") as executor:
        yield executor


def meminfo(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "meminfo"
    path.write_text(text, encoding="ascii")
    return path


def written(folder: Path, n: int) -> tuple[list[int], list[bytes]]:
    """``n`` files just written through descriptors that stay open."""
    fds: list[int] = []
    datas: list[bytes] = []
    for i in range(n):
        data = f"content {i}\n".encode() * (i + 1)
        fd = os.open(folder / f"f{i}.txt", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.write(fd, data)
        fds.append(fd)
        datas.append(data)
    return fds, datas


def closed_fd(tmp_path: Path) -> int:
    """A descriptor number that is not open (any more)."""
    fd = os.open(tmp_path / "gone.txt", os.O_WRONLY | os.O_CREAT, 0o644)
    os.close(fd)
    with pytest.raises(OSError, match="Bad file descriptor"):
        os.fstat(fd)
    return fd


def flusher_for(pool: ThreadPoolExecutor, limit: int) -> durable.Flusher:
    flusher = durable.Flusher(pool, limit=limit)
    if limit == HUGE and not flusher.whole_filesystem():
        pytest.skip("no syncfs on this platform")
    return flusher


# --- unwritten_bytes ---------------------------------------------------------


def test_unwritten_bytes_adds_dirty_and_writeback_in_kilobytes(tmp_path: Path) -> None:
    """Dirty and Writeback (kB) are summed into bytes; other lines are ignored."""
    path = meminfo(
        tmp_path,
        "MemTotal:       16318256 kB\n"
        "Dirty:               12 kB\n"
        "Writeback:            3 kB\n"
        "WritebackTmp:       999 kB\n",
    )
    assert durable.unwritten_bytes(path) == 15 * 1024


def test_unwritten_bytes_reads_a_field_without_unit_as_bytes(tmp_path: Path) -> None:
    """A value with no unit counts as bytes, next to one in kB."""
    path = meminfo(tmp_path, "Dirty: 100\nWriteback: 1 kB\n")
    assert durable.unwritten_bytes(path) == 100 + 1024


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Dirty: 12 kB\n", id="no-writeback"),
        pytest.param("Writeback: 3 kB\n", id="no-dirty"),
        pytest.param("", id="empty"),
        pytest.param("MemTotal: 1 kB\nWritebackTmp: 1 kB\n", id="only-lookalikes"),
    ],
)
def test_unwritten_bytes_is_none_when_a_field_is_missing(tmp_path: Path, text: str) -> None:
    """Without both fields there is no reading (never a partial sum)."""
    assert durable.unwritten_bytes(meminfo(tmp_path, text)) is None


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Dirty: lots kB\nWriteback: 0 kB\n", id="not-a-number"),
        pytest.param("Dirty:\nWriteback: 0 kB\n", id="no-value"),
        pytest.param("Dirty: 1.5 kB\nWriteback: 0 kB\n", id="fraction"),
    ],
)
def test_unwritten_bytes_is_none_for_garbled_fields(tmp_path: Path, text: str) -> None:
    """A field whose value does not parse gives no reading instead of an exception."""
    assert durable.unwritten_bytes(meminfo(tmp_path, text)) is None


def test_unwritten_bytes_is_none_for_non_ascii_bytes(tmp_path: Path) -> None:
    """A file that is not ASCII text gives no reading instead of an exception."""
    path = tmp_path / "meminfo"
    path.write_bytes(b"Dirty: 1 kB\nWriteback: 0 kB\n\xff\xfe\n")
    assert durable.unwritten_bytes(path) is None


def test_unwritten_bytes_is_none_for_a_missing_file(tmp_path: Path) -> None:
    """No meminfo file (not Linux, or no /proc) gives no reading."""
    assert durable.unwritten_bytes(tmp_path / "absent") is None


def test_unwritten_bytes_is_none_for_a_folder(tmp_path: Path) -> None:
    """A path that cannot be read as a file gives no reading."""
    assert durable.unwritten_bytes(tmp_path) is None


def test_unwritten_bytes_is_none_when_one_field_repeats_and_the_other_is_missing(
    tmp_path: Path,
) -> None:
    """Two Dirty lines and no Writeback line are incomplete, not a total."""
    path = meminfo(tmp_path, "Dirty: 1 kB\nDirty: 2 kB\n")
    assert durable.unwritten_bytes(path) is None


def test_unwritten_bytes_is_none_for_a_unit_it_does_not_know(tmp_path: Path) -> None:
    """A value in any unit but kB (or none) is not guessed at."""
    path = meminfo(tmp_path, "Dirty: 1 MB\nWriteback: 0 kB\n")
    assert durable.unwritten_bytes(path) is None


@pytest.mark.skipif(not LINUX, reason="/proc/meminfo is Linux's")
def test_unwritten_bytes_reads_the_real_meminfo() -> None:
    """The running kernel's /proc/meminfo gives a reading of zero or more bytes."""
    pending = durable.unwritten_bytes()
    assert isinstance(pending, int)
    assert pending >= 0


# --- Flusher -------------------------------------------------------------------


def test_a_negative_limit_always_flushes_file_by_file(pool: ThreadPoolExecutor) -> None:
    """No reading of unwritten data is ever below -1, so each file gets its own fsync."""
    assert durable.Flusher(pool, limit=-1).whole_filesystem() is False


@pytest.mark.skipif(not LINUX, reason="syncfs is Linux's")
def test_a_huge_limit_flushes_whole_filesystems_on_linux(pool: ThreadPoolExecutor) -> None:
    """With syncfs available and a limit above any reading, whole filesystems are flushed."""
    assert durable.Flusher(pool, limit=HUGE).whole_filesystem() is True


@pytest.mark.parametrize("limit", PATHS)
def test_an_empty_batch_starts_nothing(pool: ThreadPoolExecutor, limit: int) -> None:
    """No descriptors, no futures to wait for."""
    assert durable.Flusher(pool, limit=limit).submit([]) == []


@pytest.mark.parametrize("limit", PATHS)
def test_both_paths_finish_for_files_just_written_and_keep_their_content(
    tmp_path: Path, pool: ThreadPoolExecutor, limit: int
) -> None:
    """Every future of a batch of freshly written files completes without error, and
    the files hold what was written."""
    flusher = flusher_for(pool, limit)
    fds, datas = written(tmp_path, 8)
    try:
        futures = flusher.submit(fds)
        assert futures
        for future in futures:
            assert future.result() is None
    finally:
        for fd in fds:
            os.close(fd)
    assert [(tmp_path / f"f{i}.txt").read_bytes() for i in range(8)] == datas


@pytest.mark.skipif(not LINUX, reason="syncfs is Linux's")
def test_a_batch_spanning_two_filesystems_is_flushed_on_both(
    tmp_path: Path, pool: ThreadPoolExecutor
) -> None:
    """Files on two filesystems (tmp_path and /dev/shm) in one batch: the whole-filesystem
    path finishes and both keep their content."""
    shm = SHM
    if not shm.is_dir() or shm.stat().st_dev == tmp_path.stat().st_dev:
        pytest.skip("no second filesystem at /dev/shm")
    flusher = flusher_for(pool, HUGE)
    with tempfile.TemporaryDirectory(dir=shm) as other:
        here, here_data = written(tmp_path, 2)
        there, there_data = written(Path(other), 2)
        try:
            for future in flusher.submit([*here, *there]):
                future.result()
        finally:
            for fd in (*here, *there):
                os.close(fd)
        assert [(Path(other) / f"f{i}.txt").read_bytes() for i in range(2)] == there_data
    assert [(tmp_path / f"f{i}.txt").read_bytes() for i in range(2)] == here_data


@pytest.mark.parametrize("limit", PATHS)
def test_both_paths_report_a_closed_descriptor(
    tmp_path: Path, pool: ThreadPoolExecutor, limit: int
) -> None:
    """A descriptor that is not open makes the batch fail with EBADF, never pass."""
    flusher = flusher_for(pool, limit)
    fds, _ = written(tmp_path, 2)
    bad = closed_fd(tmp_path)
    try:
        futures = flusher.submit([fds[0], bad, fds[1]])
        errors = [f.exception() for f in futures]
    finally:
        for fd in fds:
            os.close(fd)
    failed = [e for e in errors if e is not None]
    assert len(failed) == 1
    assert isinstance(failed[0], OSError)
    assert failed[0].errno == errno.EBADF


@pytest.mark.skipif(not LINUX or not hasattr(os, "O_PATH"), reason="O_PATH and syncfs are Linux's")
def test_a_refused_syncfs_is_not_taken_for_success(
    tmp_path: Path, pool: ThreadPoolExecutor
) -> None:
    """An O_PATH descriptor can be stat'ed but syncfs refuses it: the batch falls back to
    fsync per file, which reports the refusal too, so the batch fails."""
    flusher = flusher_for(pool, HUGE)
    fds, _ = written(tmp_path, 1)
    handle = os.open(tmp_path / "f0.txt", os.O_PATH)
    try:
        assert os.fstat(handle).st_dev == os.fstat(fds[0]).st_dev
        (future,) = flusher.submit([handle, fds[0]])
        with pytest.raises(OSError, match="Bad file descriptor"):
            future.result()
    finally:
        os.close(handle)
        os.close(fds[0])


def test_kernel_versions_are_read_from_uname_strings() -> None:
    """Only the leading numbers of major and minor count."""
    assert durable.kernel_version("6.18.44-fc-v769") == (6, 18)
    assert durable.kernel_version("5.8.0-rc1") == (5, 8)
    assert durable.kernel_version("5.4.0-100-generic") < durable.SYNCFS_KERNEL
    assert durable.kernel_version("garbage") == ()


@pytest.mark.skipif(not LINUX, reason="statfs magic numbers are Linux's")
def test_the_filesystem_is_asked_of_the_descriptor_itself(tmp_path: Path) -> None:
    """A file just written here is on a filesystem statfs names; a RAM-backed one
    (tmpfs) and a local disk one are both trusted when that is what it is."""
    target = tmp_path / "f"
    target.write_bytes(b"x")
    fd = os.open(target, os.O_RDONLY)
    try:
        magic = durable.filesystem_magic(fd)
        assert magic is not None
        assert durable.trusted_fd(fd) == (magic in durable.SYNCFS_FILESYSTEMS)
    finally:
        os.close(fd)
    assert durable.filesystem_magic(-1) is None  # a bad descriptor is not trusted


@pytest.mark.skipif(not LINUX, reason="/proc is Linux's")
def test_a_pseudo_filesystem_is_never_trusted_with_syncfs() -> None:
    """/proc is not a filesystem whose syncfs answer means the data is on disk."""
    fd = os.open("/proc/self/status", os.O_RDONLY)
    try:
        assert not durable.trusted_fd(fd)
    finally:
        os.close(fd)
