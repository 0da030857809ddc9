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
* the other side and the change — HEAD's commit, status, old name, the blob
  at HEAD;
* what else decides how git counts, *as git resolves it*: the whole config
  (``git config -l``, includes, a linked work tree's common config) and each
  path's attributes that change a diff (``git check-attr``: every
  ``.gitattributes`` in the tree or only in the index, ``info/attributes``,
  ``core.attributesFile``). A file's own stat cannot tell these moved.

The last two are read beside the preview's other rules (:meth:`LineCounts.count`,
off the critical path): a kept count is used at once and checked there, and
one whose settings moved is counted again and replaced before the plan is
built. A count not kept is read again:

* not staged (the index holds HEAD's blob for it, so index to work tree is
  HEAD to work tree — the raw listing shows the index's side): one
  ``git diff --raw --numstat -- PATHS`` without a revision (porcelain, so
  ``diff.algorithm`` counts as in a cold run; ``diff-files`` ignores it). A
  pathspec on ``git diff HEAD`` makes git read the whole tree again (~190 ms
  at 20,000 files); without the revision it does not (~6 ms);
* anything else (staged, renamed, unmerged, or too many to name): the one-run
  listing with counts, as a cold run reads it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from vibflow.steps.recovery import scratch
from vibflow.steps.recovery.git_memo import Pinned
from vibflow.steps.recovery.lstats import Lstats
from vibflow.steps.workspace import diffs
from vibflow.steps.workspace.git import Git, GitError

#: Above this many files to count, one whole listing beats naming them.
MAX_NAMED = 256
_NAMED_STATUSES = frozenset({"modified", "deleted", "type_changed"})


#: The attributes that change what git diffs or how it counts it.
_DIFF_ATTRIBUTES = ("diff", "text", "eol", "crlf", "working-tree-encoding", "filter", "ident")
#: A kept count: the counts, and the settings they were read under.
_Kept = tuple[diffs.Counts, Any]


class LineCounts:
    """One preview's line counts: those kept, applied at once (:meth:`known`), and
    the check of their settings with the reading of the rest (:meth:`count`), which
    the caller runs beside other work."""

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
        self._applied: dict[str, Any] = {}  # path → the settings its kept count had

    def known(self, names: Sequence[diffs.Change]) -> tuple[list[diffs.Change], list[diffs.Change]]:
        """``names`` (a ``counts=False`` listing from HEAD ``base`` through the
        scratch index) with the counts kept for them, and the changes not kept."""
        known: dict[str, diffs.Counts] = {}
        for c in names:
            key = self._keys[c.path] = _key(self._stats, c, self._base)
            if key is not None:
                found, value = self._kept.get(key)
                if found:
                    known[c.path], self._applied[c.path] = value
        return _with(names, known), [c for c in names if c.path not in known]

    def count(
        self, names: Sequence[diffs.Change], missing: Sequence[diffs.Change]
    ) -> dict[str, diffs.Counts]:
        """The counts to set on ``names`` after :meth:`known`: those not kept, and
        those kept under settings that have moved since, read as git counts them
        (and kept, with the settings they were read under)."""
        settings = _settings(self._git, self._index, names)
        stale = [
            c
            for c in names
            if c.path in self._applied and self._applied[c.path] != settings[c.path]
        ]
        todo = [*missing, *stale]
        if not todo:
            return {}
        counted, same = _count(self._git, self._index, self._base, todo)
        for c in todo:
            key = self._keys.get(c.path)
            # Kept only when git counted the change the key names: the tree may have
            # moved since ``names`` was listed (a warm server's guess is an older
            # listing), and a count kept under another change's key would be served
            # for as long as the file's state holds.
            if key is not None and c.path in same:
                self._kept.put(key, (counted[c.path], settings[c.path]))
        return counted


def fill(
    git: Git,
    root: Path,
    scratch_index: Path,
    base: str,
    names: Sequence[diffs.Change],
    kept: Pinned,
    stats: Lstats | None = None,
) -> list[diffs.Change]:
    """``names`` with every change's line counts, as the one-run listing would give
    them (:class:`LineCounts`, start to end)."""
    counts = LineCounts(git, root, scratch_index, base, kept, stats)
    changes, missing = counts.known(names)
    return _with(changes, counts.count(names, missing))


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
            c.old_mode,
            c.new_side,
        )
        for c in changes
    ]


def _count(
    git: Git, scratch_index: Path, base: str, missing: Sequence[diffs.Change]
) -> tuple[dict[str, diffs.Counts], set[str]]:
    """The counts of ``missing`` as git gives them now, and the paths whose change
    git still lists as ``missing`` names it (status, old name, old blob)."""
    env = {"GIT_INDEX_FILE": str(scratch_index)}
    namable = len(missing) <= MAX_NAMED and all(
        c.old_path is None
        and (c.status == "added" or (c.status in _NAMED_STATUSES and c.old_sha is not None))
        for c in missing
    )
    if namable and base != diffs.EMPTY_TREE:
        try:
            listing = git.run(
                "diff",
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
        index_side = {r.path: (r.code, r.old_sha) for r in raw}
        if all(_index_holds_head(c, index_side.get(c.path)) for c in missing) and all(
            c.path in counted for c in missing
        ):
            return counted, {c.path for c in missing}
    # Staged, renamed, unmerged, many, or a file the index no longer differs on. Through
    # a copy of its own: the preview's may be in use by its diff still (listings.py).
    with scratch.scratch_index(scratch_index.parent) as own:
        whole = {c.path: c for c in diffs.head_to_worktree(git, own, base)}
    same = {
        c.path
        for c in missing
        if (w := whole.get(c.path)) is not None
        and (w.status, w.old_path, w.old_sha) == (c.status, c.old_path, c.old_sha)
    }
    return {c.path: (c.added_lines, c.deleted_lines, c.binary) for c in whole.values()}, same


def _index_holds_head(c: diffs.Change, index_side: tuple[str, str | None] | None) -> bool:
    """Whether the index's entry for ``c`` is HEAD's (so counting from the index is
    counting from HEAD): the same blob, or for a file HEAD lacks, an intent-to-add
    entry (``git add -N``) and nothing staged — and the work tree still differs the
    way ``c`` says (a deleted file that is back is another change)."""
    if index_side is None:
        return False
    code, sha = index_side
    if c.status == "added":
        return code.startswith("A") and sha is None
    return sha == c.old_sha and diffs.status_of(code) == c.status


def _key(stats: Lstats, c: diffs.Change, base: str) -> tuple[Any, ...] | None:
    what = ("numstat", base, c.status, c.old_path, c.old_sha)
    if c.status == "deleted":
        # The bytes counted are the blob's alone (git said the file is gone).
        return (what, c.path) if c.old_sha is not None else None
    st = stats.get(c.path)
    return None if st is None else Pinned.key(st, c.path, what)


def _settings(git: Git, scratch_index: Path, names: Sequence[diffs.Change]) -> dict[str, Any]:
    """Each change's settings as git resolves them: the whole config, and the diff
    attributes of its path (and its old path)."""
    env = {"GIT_INDEX_FILE": str(scratch_index)}  # an index-only .gitattributes counts
    unknown = object()  # what a failed read gives: equal to nothing kept, ever
    config: object
    try:
        config = hashlib.sha256(git.run("config", "-l", "-z", env=env)).hexdigest()
    except GitError:
        config = unknown
    paths = sorted({p for c in names for p in (c.path, c.old_path) if p is not None})
    attributes: dict[str, list[bytes]] = {}
    failed = False
    if paths:
        try:
            raw = git.run(
                "check-attr",
                "-z",
                "--stdin",
                *_DIFF_ATTRIBUTES,
                stdin=b"\0".join(p.encode("utf-8", "surrogateescape") for p in paths) + b"\0",
                env=env,
            )
        except GitError:
            raw, failed = b"", True
        fields = raw.split(b"\0")
        for i in range(0, len(fields) - 2, 3):
            attributes.setdefault(fields[i].decode("utf-8", "surrogateescape"), []).append(
                fields[i + 2]
            )
    return {
        c.path: (
            unknown if failed else config,
            tuple(attributes.get(c.path, ())),
            tuple(attributes.get(c.old_path, ())) if c.old_path else (),
        )
        for c in names
    }
