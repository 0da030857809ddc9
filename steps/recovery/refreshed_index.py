"""The user's index as git last refreshed it for a preview, kept for the next one.

git takes a tracked file as unchanged when its stat data (size, times, inode)
matches what the index holds; when it does not — a formatter, a checkout or a
restore wrote the same bytes again — git reads and hashes the file. ``git
status`` writes what it learned back to the user's index; a preview never
writes that index (another git command may be holding its lock), so after an
agent touched every file each preview hashed them all again (0.8 s instead of
0.35 s at 20,000 files), until the user happened to run ``git status``.

The preview's ``git diff`` does write what it learned into the preview's own
copy of the index. That copy is kept (``refreshed-<identity>.index`` beside the
scratch copies), named by the identity of the user's index it came from: its
inode, size, modification and change times (git replaces the index through a
rename on every write, so any change to it is a new identity). While the user's
index is that same file, the next preview starts from the kept copy instead.

Stat data is only ever a hint that lets git skip reading a file: a file changed
since is seen as changed (its stat differs), and git's racy-clean rule holds
because the copy keeps the time git wrote it, as it would in place. Only the
stat data can differ from the user's index: ``diff`` refreshes, it never stages.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path
from typing import NamedTuple

from vibflow.engine.errors import VibflowError
from vibflow.steps.recovery.scratch import new_scratch

_PREFIX, _SUFFIX = "refreshed-", ".index"


class Filled(NamedTuple):
    """What a scratch copy was filled from: the user's index's identity (None when
    there is no index, or it changed while it was copied) and the copy's own stat
    right after filling, to see whether git rewrote it."""

    identity: str | None
    copied: tuple[int, int, int] | None


def _identity(st: os.stat_result) -> str:
    return f"{st.st_ino}-{st.st_size}-{st.st_mtime_ns}-{st.st_ctime_ns}"


def _stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def kept_path(folder: Path, identity: str) -> Path:
    return folder / f"{_PREFIX}{identity}{_SUFFIX}"


def fill(user_index: Path, scratch: Path) -> Filled:
    """Fill ``scratch`` with the refreshed copy kept for the user's index, or else
    with the user's index itself (or none, before the first ``git add``), keeping
    the file's mtime, which git needs to judge racily clean entries."""
    scratch.parent.mkdir(parents=True, exist_ok=True)
    try:
        before = user_index.stat()
    except FileNotFoundError:
        scratch.unlink(missing_ok=True)
        return Filled(None, None)
    identity = _identity(before)
    kept = kept_path(scratch.parent, identity)
    try:
        shutil.copy2(kept, scratch)
    except FileNotFoundError:  # none kept, or another preview just replaced it
        _remove_others(scratch.parent, kept.name)  # kept for an index that is gone
        shutil.copy2(user_index, scratch)
        try:
            same = _identity(user_index.stat()) == identity
        except FileNotFoundError:
            same = False
        if not same:  # replaced while it was copied: the copy is fine, not its name
            return Filled(None, _stamp(scratch))
    return Filled(identity, _stamp(scratch))


def keep(scratch: Path, filled: Filled) -> None:
    """After the diff: when git rewrote the copy (it refreshed entries), keep it for
    the user's index it came from, in place of any copy kept before. Best effort: a
    copy not kept only costs the next preview the same hashing."""
    if filled.identity is None or _stamp(scratch) in (None, filled.copied):
        return
    folder = scratch.parent
    target = kept_path(folder, filled.identity)
    with contextlib.suppress(OSError, VibflowError):
        spare = new_scratch(folder)
        try:
            shutil.copy2(scratch, spare)
            spare.replace(target)
        finally:
            spare.unlink(missing_ok=True)
        _remove_others(folder, target.name)


def _remove_others(folder: Path, keep_name: str) -> None:
    """Remove the copies kept for other indexes than ``keep_name``'s (at most one
    file is left, the size of the user's index)."""
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            if entry.name.startswith(_PREFIX) and entry.name != keep_name:
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)  # noqa: PTH108 - a scandir entry's path
