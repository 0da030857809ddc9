"""The user's index as git last refreshed it for a preview, kept for the next one.

git takes a tracked file as unchanged when its stat data (size, times, inode)
matches what the index holds; when it does not — a formatter, a checkout or a
restore wrote the same bytes again — git reads and hashes the file. ``git
status`` writes what it learned back to the user's index; a preview never
writes that index (another git command may be holding its lock), so after an
agent touched every file each preview hashed them all again (0.8 s instead of
0.35 s at 20,000 files), until the user happened to run ``git status``.

The preview's ``git diff`` does write what it learned into the preview's own
copy of the index. That copy is kept (``refreshed-<key>.index`` beside the
scratch copies, one file) for the next preview, which starts from it instead
while the key is the same: the user's index file (git replaces it through a
rename on every write, so any change to it is a new file) and the files that
change what git calls clean without touching the index (the top-level
``.gitattributes``, ``info/attributes``, the repository's config).

Stat data is only ever a hint that lets git skip reading a file, and the kept
copy must never make git trust one it would have checked:

* it is dated at the start of the second the diff began in (less a margin
  for the coarse clock file times are taken from), not when git wrote it, and
  a copy kept again under the same key keeps the older date. git checks again
  every entry whose file is not older than the index file, and compares whole
  seconds when built without nanosecond times: a file git hashed, then
  rewritten with the same size in that same second, is checked again at every
  preview instead of trusted for good. Only files written in that second pay
  the second look, until the user's index changes;
* bytes and times are copied from one open file, so a copy never has one
  file's entries with a newer file's date;
* it is written whole and flushed before it replaces the last one, and used
  only while git's own checksum at its end matches its bytes (an index without
  one, ``index.skipHash``, is never kept).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import time
from pathlib import Path
from typing import NamedTuple

from vibflow.engine.atomicfile import atomic_write
from vibflow.steps.workspace.diffs import copy_as_read

_PREFIX, _SUFFIX = "refreshed-", ".index"
#: How far the clock file times come from may lag the one :func:`time.time_ns`
#: reads (a kernel tick): the kept copy is dated by the second before that.
CLOCK_LAG_NS = 50_000_000
_SECOND_NS = 1_000_000_000


class Filled(NamedTuple):
    """What a scratch copy was filled from: the key a refresh of it may be kept
    under (None: no index, nothing to keep), the copy's own stat right after
    filling (to see whether git rewrote it), when it was filled — before git
    looked at any file — and the date of the kept copy it came from, if any."""

    key: str | None
    copied: tuple[int, int, int] | None
    started_ns: int
    kept_ns: int | None = None


def _stat_text(st: os.stat_result) -> str:
    return f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}"


def _stat_of(path: Path) -> str:
    try:
        return _stat_text(path.stat())
    except OSError:
        return "-"


def key_of(index: os.stat_result, root: Path, git_dir: Path) -> str:
    """The key a kept copy is valid for: the user's index file, and the files that
    change what git calls clean without a change to the index."""
    parts = [
        _stat_text(index),
        _stat_of(root / ".gitattributes"),
        _stat_of(git_dir / "info" / "attributes"),
        _stat_of(git_dir / "config"),
    ]
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:40]


def kept_path(folder: Path, key: str) -> Path:
    return folder / f"{_PREFIX}{key}{_SUFFIX}"


def intact(data: bytes) -> bool:
    """Whether an index file's bytes end with git's checksum of them (SHA-1, or
    SHA-256 in a SHA-256 repository)."""
    if len(data) < 32 or not data.startswith(b"DIRC"):
        return False
    for size, name in ((20, "sha1"), (32, "sha256")):
        if hashlib.new(name, data[:-size], usedforsecurity=False).digest() == data[-size:]:
            return True
    return False


def _stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def fill(git_dir: Path, root: Path, scratch: Path) -> Filled:
    """Fill ``scratch`` with the refreshed copy kept for the user's index, or else
    with the user's index itself (or none, before the first ``git add``), keeping
    the file's mtime, which git needs to judge racily clean entries."""
    started = time.time_ns()
    scratch.parent.mkdir(parents=True, exist_ok=True)
    user_index = git_dir / "index"
    try:
        key = key_of(user_index.stat(), root, git_dir)
    except FileNotFoundError:
        scratch.unlink(missing_ok=True)
        return Filled(None, None, started)
    kept = kept_path(scratch.parent, key)
    kept_ns = _copy_kept(kept, scratch)
    if kept_ns is not None:
        return Filled(key, _stamp(scratch), started, kept_ns)
    _remove_others(scratch.parent, kept.name)  # kept for an index that is gone
    try:
        copied = copy_as_read(user_index, scratch)
    except FileNotFoundError:  # removed meanwhile: as before the first `git add`
        scratch.unlink(missing_ok=True)
        return Filled(None, None, started)
    return Filled(key_of(copied, root, git_dir), _stamp(scratch), started)


def _copy_kept(kept: Path, scratch: Path) -> int | None:
    """Copy the kept file to ``scratch`` if there is one vibflow can read and git's
    checksum says it is whole (a damaged one is removed); its date, or None."""
    try:
        with kept.open("rb") as fh:
            st = os.fstat(fh.fileno())
            data = fh.read()
    except OSError:  # none kept, replaced meanwhile, unreadable, not a file
        return None
    if not intact(data):
        with contextlib.suppress(OSError):
            kept.unlink()
        return None
    scratch.write_bytes(data)
    os.utime(scratch, ns=(st.st_atime_ns, st.st_mtime_ns))
    return st.st_mtime_ns


def keep(scratch: Path, filled: Filled) -> None:
    """After the diff: when git rewrote the copy (it refreshed entries), keep it in
    place of any copy kept before. Best effort: a copy not kept only costs the
    next preview the same hashing."""
    if filled.key is None or _stamp(scratch) in (None, filled.copied):
        return
    folder = scratch.parent
    target = kept_path(folder, filled.key)
    with contextlib.suppress(OSError):
        data = scratch.read_bytes()
        if not intact(data):
            return  # without git's checksum it could never be checked: not kept
        atomic_write(target, data, mtime_ns=dated(filled.started_ns, filled.kept_ns))
        _remove_others(folder, target.name)


def dated(started_ns: int, kept_ns: int | None = None) -> int:
    """The time a copy whose diff began at ``started_ns`` is kept with (the notes),
    never later than the kept copy it started from (``kept_ns``): an entry git
    checked again because it was not older than that copy, and found changed, keeps
    the stat data of its last refresh — dated later, the copy would make git trust
    it. The date only moves on when the user's index changes (a new key)."""
    own = (started_ns - CLOCK_LAG_NS) // _SECOND_NS * _SECOND_NS
    return own if kept_ns is None else min(own, kept_ns)


def _remove_others(folder: Path, keep_name: str) -> None:
    """Remove copies kept under other keys than ``keep_name``: at most one file is
    left, the size of the user's index (a half-written one a killed process left is
    the scratch copies' leftover sweep's, ``scratch``)."""
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            if entry.name.startswith(_PREFIX) and entry.name != keep_name:
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)  # noqa: PTH108 - a scandir entry's path
