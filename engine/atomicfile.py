"""Atomic file replacement: a reader sees the old content or the new, never half.

One function for every small state file vibflow keeps (jobs, leases, memory,
checkpoint state, the git hook): a uniquely named temp file in the target's own
folder (so two processes writing the same target never share one, and the
rename stays on one filesystem), flushed to disk when ``durable``, renamed over
the target, and the folder flushed so the rename itself survives a power cut.

The temp file is created with ``mode`` through ``os.open``, so the process's
umask applies exactly as it does to a plain ``open(path, "w")``: replacing a
file this way leaves it with the permissions writing it in place would have.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)


def atomic_write(
    path: Path,
    data: bytes | str,
    *,
    durable: bool = True,
    mode: int = 0o666,
    mtime_ns: int | None = None,
) -> None:
    """Replace ``path`` with ``data`` (str is written as UTF-8).

    ``mode`` is the new file's permission bits before the umask (``0o777`` for
    an executable); ``mtime_ns``, its access and modification time (set before
    the rename, so the file never shows another). On any failure the old file
    is untouched and the temp file is gone.
    """
    # Encoded before any file exists: data that cannot be written leaves nothing behind.
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = _create_temp(path, mode)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            if mtime_ns is not None:
                fh.flush()
                os.utime(fh.fileno(), ns=(mtime_ns, mtime_ns))
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        tmp.replace(path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    if durable:
        _fsync_folder(path.parent)


def _create_temp(path: Path, mode: int) -> tuple[int, Path]:
    # tempfile.mkstemp would do, but always creates 0o600 and a chmod after it
    # would have to guess the umask; O_EXCL gives the same uniqueness.
    while True:
        tmp = path.with_name(f".{path.name}.{os.urandom(6).hex()}.tmp")
        try:
            return os.open(tmp, _CREATE, mode), tmp
        except FileExistsError:
            continue


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return  # a folder that cannot be opened (some platforms) cannot be flushed either
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
