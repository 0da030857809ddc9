"""``atomic_write`` on a real filesystem: concurrent writers, real failures, permissions."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from vibflow.engine.atomicfile import atomic_write

WRITES = 300
# Big enough that two writers sharing one temp file would interleave visibly.
BODY = 64 * 1024

WRITER = textwrap.dedent(
    """
    import hashlib, sys
    from pathlib import Path
    from vibflow.engine.atomicfile import atomic_write

    target, who, count, size = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    for i in range(count):
        body = (f"{who}:{i}:".encode() * size)[:size]
        digest = hashlib.sha256(body).hexdigest().encode()
        atomic_write(target, digest + b"\\n" + body, durable=False)
    """
)


def _complete(blob: bytes) -> bool:
    digest, _, body = blob.partition(b"\n")
    return len(body) == BODY and hashlib.sha256(body).hexdigest().encode() == digest


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_two_processes_replacing_one_file_never_tear_it_or_share_a_temp(tmp_path: Path) -> None:
    """Two writers x 300 replacements: both finish, every read is whole, no temp is left."""
    target = tmp_path / "state.json"
    atomic_write(target, hashlib.sha256(b"x" * BODY).hexdigest().encode() + b"\n" + b"x" * BODY)
    logs = tmp_path / "logs"
    logs.mkdir()
    writers = []
    for who in ("a", "b"):
        with (logs / who).open("wb") as err:
            writers.append(
                subprocess.Popen(
                    [sys.executable, "-c", WRITER, str(target), who, str(WRITES), str(BODY)],
                    stderr=err,
                )
            )
    reads = 0
    torn: list[int] = []
    while any(w.poll() is None for w in writers):
        blob = target.read_bytes()
        reads += 1
        if not _complete(blob):
            torn.append(len(blob))
    # A shared temp name shows up here: one writer's rename finds its temp gone.
    errors = [(logs / who).read_text(encoding="utf-8", errors="replace") for who in ("a", "b")]
    assert [w.wait() for w in writers] == [0, 0], errors
    assert torn == []
    assert reads > 0
    assert _complete(target.read_bytes())
    assert target.read_bytes().split(b"\n", 1)[1].startswith((b"a:299:", b"b:299:"))
    assert _leftovers(tmp_path) == []


def test_text_that_cannot_be_encoded_leaves_the_old_file_and_no_temp(tmp_path: Path) -> None:
    """A str with a lone surrogate fails to encode: the old content stays, no temp file appears."""
    target = tmp_path / "memory.json"
    atomic_write(target, "old\n")
    with pytest.raises(UnicodeEncodeError):
        atomic_write(target, "new \udcff\n")
    assert target.read_text(encoding="utf-8") == "old\n"
    assert _leftovers(tmp_path) == []


def test_a_rename_that_fails_after_the_temp_is_written_removes_the_temp(tmp_path: Path) -> None:
    """Replacing a non-empty folder fails at the rename: the folder is untouched, no temp left."""
    target = tmp_path / "taken"
    target.mkdir()
    (target / "keep.txt").write_text("mine\n", encoding="utf-8")
    with pytest.raises(OSError):  # noqa: PT011 - IsADirectoryError or ENOTEMPTY, by platform
        atomic_write(target, "new\n")
    assert (target / "keep.txt").read_text(encoding="utf-8") == "mine\n"
    assert _leftovers(tmp_path) == []


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_a_write_the_filesystem_refuses_half_way_leaves_the_old_file(tmp_path: Path) -> None:
    """A real EFBIG mid-write (file size limit) keeps the old content and removes the temp."""
    target = tmp_path / "lease.json"
    atomic_write(target, "old\n")
    script = textwrap.dedent(
        """
        import resource, signal, sys
        from pathlib import Path
        from vibflow.engine.atomicfile import atomic_write

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails instead of killing us
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
        try:
            atomic_write(Path(sys.argv[1]), b"n" * 1_000_000)
        except OSError as exc:
            print(type(exc).__name__, exc.errno)
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", script, str(target)], capture_output=True, text=True, check=True
    )
    assert proc.stdout.split()[0] in {"OSError", "FileTooLargeError"}, proc.stdout + proc.stderr
    assert target.read_text(encoding="utf-8") == "old\n"
    assert _leftovers(tmp_path) == []


def test_permissions_follow_mode_under_the_umask_like_a_plain_open(tmp_path: Path) -> None:
    """Default files get what open(path, "w") would; mode=0o777 makes an executable hook."""
    umask = os.umask(0)
    os.umask(umask)
    plain = tmp_path / "plain.txt"
    plain.write_text("x", encoding="utf-8")
    state = tmp_path / "state.json"
    atomic_write(state, "{}")
    hook = tmp_path / "post-commit"
    atomic_write(hook, "#!/bin/sh\n", mode=0o777)
    assert state.stat().st_mode & 0o777 == plain.stat().st_mode & 0o777 == 0o666 & ~umask
    assert hook.stat().st_mode & 0o777 == 0o777 & ~umask
    atomic_write(hook, "#!/bin/sh\nexit 0\n", mode=0o777)
    assert hook.read_text(encoding="utf-8") == "#!/bin/sh\nexit 0\n"


def test_a_given_time_is_the_files_time_from_its_first_appearance(tmp_path: Path) -> None:
    """``mtime_ns`` dates the temp file before the rename: the target never shows
    another modification time."""
    target = tmp_path / "kept.index"
    when = 1_700_000_000 * 1_000_000_000
    atomic_write(target, b"DIRC", mtime_ns=when)
    assert target.stat().st_mtime_ns == when
    assert target.read_bytes() == b"DIRC"
    assert [p.name for p in tmp_path.iterdir()] == ["kept.index"]
