"""Line counts for a long-lived process: kept per file state, counted again
exactly as git counts them when they cannot be kept.

A preview's one-run ``git diff --raw --numstat`` reads every changed file and
its blob at HEAD to count lines: at 20,000 files, a third of the listing's
time, for figures only the changes' entries show. A warm server (the MCP
server) lists names alone (``--raw``) and fills the counts from what it kept,
each under what pins it (:class:`~vibflow.steps.recovery.git_memo.Pinned`):

* the file's bytes — its ``lstat`` (size, times in nanoseconds, inode, mode;
  never a file written in the last :data:`~git_memo.RACY_SECONDS`), or for a
  deleted file the blob it had;
* the other side and the change — status, old name, the blob at HEAD;
* what else decides how git counts — HEAD's commit, the repository's and the
  user's git config and ``info/attributes``, and every changed or untracked
  ``.gitattributes`` (a committed one is HEAD's).

A file whose counts are not kept is counted again:

* not staged (the index holds HEAD's blob for it, so index to work tree is
  HEAD to work tree — ``diff-files --raw`` shows the index's side): one
  ``git diff-files --raw --numstat`` of just those paths. A pathspec on
  ``git diff HEAD`` makes git read the whole tree again (~190 ms at 20,000
  files); on ``diff-files`` it does not (~10 ms);
* anything else (staged, renamed, unmerged, or too many to name): the one-run
  listing with counts, as a cold run reads it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from vibflow.steps.recovery.git_memo import Pinned
from vibflow.steps.recovery.lstats import Lstats
from vibflow.steps.workspace import diffs
from vibflow.steps.workspace.git import Git, GitError

#: Above this many files to count, one whole listing beats naming them.
MAX_NAMED = 256
_NAMED_STATUSES = frozenset({"modified", "deleted", "type_changed"})


class LineCounts:
    """One preview's line counts: what is kept (:meth:`known`), and the reading of
    the rest (:meth:`count`), which the caller may run beside other work."""

    def __init__(
        self,
        git: Git,
        root: Path,
        scratch_index: Path,
        base: str,
        kept: Pinned,
        stats: Lstats | None = None,
    ) -> None:
        self._git, self._root, self._index, self._base = git, root, scratch_index, base
        self._kept = kept
        self._stats = stats or Lstats(str(root))
        self._keys: dict[str, tuple[Any, ...] | None] = {}

    def known(
        self, names: Sequence[diffs.Change], untracked: Sequence[str]
    ) -> tuple[list[diffs.Change], list[diffs.Change]]:
        """``names`` (a ``counts=False`` listing from HEAD ``base`` through the
        scratch index) with the counts kept for them, and the changes still to count."""
        stamp = _settings(self._git, self._root, self._base, names, untracked)
        known: dict[str, diffs.Counts] = {}
        for c in names:
            key = self._keys[c.path] = _key(self._stats, c, stamp)
            if key is not None:
                found, value = self._kept.get(key)
                if found:
                    known[c.path] = value
        return _with(names, known), [c for c in names if c.path not in known]

    def count(self, missing: Sequence[diffs.Change]) -> dict[str, diffs.Counts]:
        """The counts of ``missing`` (from :meth:`known`), read as git counts them and
        kept."""
        counted = _count(self._git, self._index, self._base, missing)
        for c in missing:
            key = self._keys.get(c.path)
            if key is not None and c.path in counted:
                self._kept.put(key, counted[c.path])
        return counted


def fill(
    git: Git,
    root: Path,
    scratch_index: Path,
    base: str,
    names: Sequence[diffs.Change],
    untracked: Sequence[str],
    kept: Pinned,
    stats: Lstats | None = None,
) -> list[diffs.Change]:
    """``names`` with every change's line counts, as the one-run listing would give
    them (:class:`LineCounts`, start to end)."""
    counts = LineCounts(git, root, scratch_index, base, kept, stats)
    changes, missing = counts.known(names, untracked)
    if not missing:
        return changes
    counted = counts.count(missing)
    return _with(changes, {c.path: counted[c.path] for c in missing if c.path in counted})


def _with(changes: Sequence[diffs.Change], counts: dict[str, diffs.Counts]) -> list[diffs.Change]:
    # Built whole, not dataclasses.replace'd: ~2 µs each, for hundreds of changes.
    Change = diffs.Change
    return [
        Change(
            c.path,
            c.status,
            c.old_path,
            *counts.get(c.path, (c.added_lines, c.deleted_lines, c.binary)),
            c.old_sha,
        )
        for c in changes
    ]


def _count(
    git: Git, scratch_index: Path, base: str, missing: Sequence[diffs.Change]
) -> dict[str, diffs.Counts]:
    env = {"GIT_INDEX_FILE": str(scratch_index)}
    namable = len(missing) <= MAX_NAMED and all(
        c.old_path is None
        and (c.status == "added" or (c.status in _NAMED_STATUSES and c.old_sha is not None))
        for c in missing
    )
    if namable and base != diffs.EMPTY_TREE:
        try:
            listing = git.run(
                "diff-files",
                "-z",
                "--raw",
                "--numstat",
                "--no-abbrev",
                "--",
                *sorted(c.path for c in missing),
                env={**env, "GIT_LITERAL_PATHSPECS": "1"},
            )
        except GitError:
            listing = b""  # the index moved meanwhile: the whole listing below answers
        raw, counted = diffs.records(listing)
        index_side = {path: (code, sha) for code, _, path, sha in raw}
        if all(_index_holds_head(c, index_side.get(c.path)) for c in missing) and all(
            c.path in counted for c in missing
        ):
            return counted
    # Staged, renamed, unmerged, many, or a file the index no longer differs on.
    whole = diffs.head_to_worktree(git, scratch_index, base)
    return {c.path: (c.added_lines, c.deleted_lines, c.binary) for c in whole}


def _index_holds_head(c: diffs.Change, index_side: tuple[str, str | None] | None) -> bool:
    """Whether the index's entry for ``c`` is HEAD's (so counting from the index is
    counting from HEAD): the same blob, or for a file HEAD lacks, an intent-to-add
    entry (``git add -N``) and nothing staged."""
    if index_side is None:
        return False
    code, sha = index_side
    if c.status == "added":
        return code.startswith("A") and sha is None
    return sha == c.old_sha


def _key(stats: Lstats, c: diffs.Change, stamp: tuple[Any, ...]) -> tuple[Any, ...] | None:
    what = ("numstat", stamp, c.status, c.old_path, c.old_sha)
    if c.status == "deleted":
        # The bytes counted are the blob's alone (git said the file is gone).
        return (what, c.path) if c.old_sha is not None else None
    st = stats.get(c.path)
    return None if st is None else Pinned.key(st, c.path, what)


def _settings(
    git: Git, root: Path, base: str, names: Sequence[diffs.Change], untracked: Sequence[str]
) -> tuple[Any, ...]:
    """What, besides a file's two sides, decides how git counts its lines."""
    git_dir = git.git_dir()
    home = Path(os.environ.get("HOME", "~")).expanduser()
    xdg = Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config")
    given = os.environ.get("GIT_CONFIG_GLOBAL")
    files = [
        git_dir / "config",
        git_dir / "info" / "attributes",
        Path(given) if given else home / ".gitconfig",
        xdg / "git" / "config",
        xdg / "git" / "attributes",
        Path(os.environ.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig"),
    ]
    attributes = sorted(
        p
        for p in [*(c.path for c in names), *untracked]
        if p == ".gitattributes" or p.endswith("/.gitattributes")
    )
    files += [root / p for p in attributes]
    return (base, *(_signature(f) for f in files), tuple(attributes))


def _signature(path: Path) -> tuple[int, ...] | None:
    try:
        st = path.lstat()
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_mode)
