"""The scratch copy of git's index one preview lists through.

Porcelain ``git diff`` refreshes stat-dirty entries and writes the index it
reads, so a preview lists through a copy, never the user's index
(``diffs.head_to_worktree``). Each preview gets its own copy: two previews at
once — a server's concurrent requests, two servers, a server and the CLI —
copying over one shared file while git read it failed about one time in ten
("index file smaller than expected", a SIGBUS in git). A copy left by a killed
process is removed by a later preview once it is old enough that no preview can
still be reading it.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from vibflow.engine.errors import ErrorCode, VibflowError

_PREFIX, _SUFFIX = "diff-", ".index"
#: A copy older than this belongs to no running preview (one takes seconds at most).
LEFTOVER_SECONDS = 3600.0


@contextlib.contextmanager
def scratch_index(folder: Path, now: Callable[[], float] = time.time) -> Iterator[Path]:
    """A fresh file in ``folder`` for one preview's index copy, removed after it."""
    path = new_scratch(folder, now)
    try:
        yield path
    finally:
        path.unlink(missing_ok=True)


def new_scratch(folder: Path, now: Callable[[], float] = time.time) -> Path:
    """A fresh file in ``folder`` for one index copy; its owner removes it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _remove_leftovers(folder, now())
        fd, name = tempfile.mkstemp(prefix=_PREFIX, suffix=_SUFFIX, dir=folder)
    except OSError as exc:
        # Named as the project sees it (``.vibflow/recovery``), never by its absolute path.
        where = f"{folder.parent.name}/{folder.name}"
        raise VibflowError(
            ErrorCode.STORE_ERROR,
            f"vibflow cannot write in {where}, where a preview keeps its copy of git's "
            f"index ({type(exc).__name__}: {exc.strerror or 'not writable'})",
            hint=f"Make {where} a folder vibflow can write to, then run the command again.",
        ) from None
    os.close(fd)
    return Path(name)


def _remove_leftovers(folder: Path, now: float) -> None:
    cut = now - LEFTOVER_SECONDS
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            name = entry.name
            # Copies, and what a killed `atomic_write` left (`.NAME.HEX.tmp`, the
            # kept refreshed index's among them).
            stale = (
                name == "diff.index"
                or (name.startswith(_PREFIX) and _SUFFIX in name)
                or (name.startswith(".") and name.endswith(".tmp"))
            )
            with contextlib.suppress(OSError):
                # The change time, not the modification time: a copy keeps the user's
                # index's mtime (git needs it), which may be hours old while in use.
                if stale and entry.stat(follow_symlinks=False).st_ctime < cut:
                    os.unlink(entry.path)  # noqa: PTH108 - a scandir entry's path
