"""Atomic file replacement: a reader sees the old content or the new, never half.

One function for every small state file vibflow keeps (jobs, leases, memory,
checkpoint state): a uniquely named temp file in the target's own folder (so
two processes writing the same target never share one, and the rename stays on
one filesystem), flushed to disk when ``durable``, renamed over the target, and
the folder flushed so the rename itself survives a power cut.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def atomic_write(path: Path, data: bytes | str, *, durable: bool = True) -> None:
    """Replace ``path`` with ``data`` (str is written as UTF-8)."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        Path(tmp).replace(path)
    except BaseException:
        with contextlib.suppress(OSError):
            Path(tmp).unlink()
        raise
    if durable:
        _fsync_folder(path.parent)


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
