"""Parse git's ``-z`` diff listings (``--raw`` + ``--numstat``, one run) exactly.

Names are kept byte-exact (no octal escapes); renames are followed (``-M``)
so a ``git mv`` is one change with its old path, not a delete and an add.
"""

from __future__ import annotations

import os
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from vibflow.steps.workspace.git import Git, GitError

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
_STATUS = {
    "A": "added",
    "M": "modified",
    "D": "deleted",
    "R": "renamed",
    "T": "type_changed",
    "C": "copied",
}


@dataclass(frozen=True)
class Change:
    path: str
    status: str
    old_path: str | None = None
    added_lines: int | None = None
    deleted_lines: int | None = None
    binary: bool = False
    #: The blob the old side held (git's id; ``None`` when there was none): what
    #: pairs a deleted file with an untracked copy of it (see :func:`pair_moves`).
    old_sha: str | None = None
    #: The old side's mode (``100644`` …; ``None`` when there was none).
    old_mode: str | None = None
    #: The new side's mode and blob when git names them (always between two trees;
    #: for the work tree's side only when the index's entry is clean, so read it
    #: from tree-to-tree listings alone).
    new_side: tuple[str, str] | None = None


def _decode(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")


#: A file's line counts as ``--numstat`` gives them: added, deleted (``None``
#: for a binary file), and whether it is binary.
Counts = tuple[int | None, int | None, bool]


def status_of(code: str) -> str:
    """The status a raw record's code (``M``, ``R087`` …) names."""
    return _STATUS.get(code[:1], "modified")


def parse(listing: bytes) -> list[Change]:
    """One ``-z --raw --numstat`` listing: the raw records (status and names)
    come first, then the line counts."""
    raw, counts = records(listing)
    changes: list[Change] = []
    for r in raw:
        add, rem, binary = counts.get(r.path, (None, None, False))
        changes.append(
            Change(
                r.path,
                status_of(r.code),
                r.old_path,
                add,
                rem,
                binary,
                r.old_sha,
                r.old_mode,
                r.new_side,
            )
        )
    return changes


class Record(NamedTuple):
    """One raw record: status code, names, and the sides git names."""

    code: str
    old_path: str | None
    path: str
    old_sha: str | None
    old_mode: str | None
    new_side: tuple[str, str] | None


def records(listing: bytes) -> tuple[list[Record], dict[str, Counts]]:
    """The raw records and the counts by name.

    Records are read by position: a raw record starts with ``:`` and is
    followed by one name (two for a rename or copy), a count record starts
    with a digit or ``-`` — so a name that itself starts with ``:`` is never
    mistaken for a record.
    """
    fields = listing.split(b"\0")
    raw: list[Record] = []
    counts: dict[str, Counts] = {}
    i = 0
    while i < len(fields):
        head = fields[i]
        if not head:
            i += 1
        elif head.startswith(b":"):
            # ":old-mode new-mode old-sha new-sha code"; zeros where a side is absent
            # (or, for the work tree's side, not hashed).
            meta = head.decode("ascii", "replace").split(" ")
            code = meta[-1]
            whole = len(meta) >= 5
            old_sha = meta[2] if whole and meta[2].strip("0") else None
            old_mode = meta[0][1:] if whole and old_sha is not None else None
            new_side = (meta[1], meta[3]) if whole and meta[3].strip("0") else None
            if code[:1] in ("R", "C"):
                old_name, path, i = _decode(fields[i + 1]), _decode(fields[i + 2]), i + 3
            else:
                old_name, path, i = None, _decode(fields[i + 1]), i + 2
            raw.append(Record(code, old_name, path, old_sha, old_mode, new_side))
        else:
            added, deleted, name = head.split(b"\t", 2)
            if name == b"":  # a rename: old and new names follow as their own fields
                name = fields[i + 2]
                i += 3
            else:
                i += 1
            binary = added == b"-"
            counts[_decode(name)] = (
                None if binary else int(added),
                None if binary else int(deleted),
                binary,
            )
    return raw, counts


def tree_to_tree(git: Git, old: str, new: str) -> list[Change]:
    return parse(
        git.run("diff-tree", "-r", "-z", "-M", "--no-abbrev", "--raw", "--numstat", old, new)
    )


def copy_index(git: Git, scratch_index: Path) -> None:
    """Fill ``scratch_index`` with a copy of the user's index (or none, before the
    first ``git add``), keeping its mtime, which git needs to judge racily clean
    entries. Not atomic: nothing may read the copy until this returns."""
    scratch_index.parent.mkdir(parents=True, exist_ok=True)
    try:
        copy_as_read(git.git_dir() / "index", scratch_index)
    except FileNotFoundError:
        scratch_index.unlink(missing_ok=True)


def copy_as_read(source: Path, target: Path) -> os.stat_result:
    """Copy ``source`` to ``target`` with its times, both read from one open file:
    git replaces an index by renaming a new file over it, and bytes of one file
    with the times of the next would make git trust entries it must check again.
    The stat of what was copied."""
    with source.open("rb") as src, target.open("wb") as dst:
        st = os.fstat(src.fileno())
        shutil.copyfileobj(src, dst, 1 << 20)
    os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns))
    return st


def head_to_worktree(
    git: Git,
    scratch_index: Path,
    base: str | None = None,
    *,
    counts: bool = True,
    copy: bool = True,
) -> list[Change]:
    """Tracked changes (staged or not) from HEAD — or from nothing, before the
    first commit — to the working tree. ``base`` is HEAD's commit when the caller
    has read it already (or :data:`EMPTY_TREE`). ``counts=False`` leaves the line
    counts out (``None``): git then reads no blob and no changed file's bytes.

    Porcelain ``git diff`` refreshes stat-dirty index entries and *writes the
    index* (even with GIT_OPTIONAL_LOCKS=0), so it runs against a scratch copy
    of the user's index, never the index itself: made here (:func:`copy_index`),
    or by the caller beforehand (``copy=False``).
    """
    base = base or git.head() or EMPTY_TREE
    if copy:
        copy_index(git, scratch_index)
    env = {"GIT_INDEX_FILE": str(scratch_index)}
    # One run for names and counts: each run refreshes the whole index and
    # detects renames again.
    numstat = ("--numstat",) if counts else ()
    return parse(git.run("diff", "-z", "-M", "--no-abbrev", "--raw", *numstat, base, "--", env=env))


def names_between(git: Git, old: str, new: str) -> list[Change]:
    """What differs between two trees, by name and status only: no rename search
    and no line counts, so no blob is read (git skips identical subtrees)."""
    return parse(git.run("diff-tree", "-r", "-z", "--no-renames", "--no-abbrev", "--raw", old, new))


def pair_moves(
    git: Git, root: Path, changes: list[Change], untracked: list[str]
) -> tuple[list[Change], list[str]]:
    """Pair each deleted tracked file with an untracked file of exactly its content.

    A file moved without git (``mv a b``) shows as a deletion plus an untracked
    file; paired, it is one rename, as ``git mv`` would show it. Only exact
    copies pair: judging similarity would read every untracked file, and a
    drift can hold tens of thousands. The cost is one ``cat-file
    --batch-check`` (the deleted blobs' sizes) and one ``hash-object`` over the
    untracked files of a matching size — none at all without a deletion.
    """
    # Deleted from the index yet still on disk (``git rm --cached``): one change, the
    # deletion, not a "rename" of the file to its own name.
    removed = {c.path for c in changes if c.status == "deleted"}
    if removed.intersection(untracked):
        untracked = [p for p in untracked if p not in removed]
    gone: dict[str, list[int]] = {}
    for n, c in enumerate(changes):
        if c.status == "deleted" and c.old_sha:
            gone.setdefault(c.old_sha, []).append(n)
    if not gone or not untracked:
        return changes, untracked
    candidates = _same_size(root, untracked, _blob_sizes(git, list(gone)))
    if not candidates:
        return changes, untracked
    try:
        hashed = git.run(
            "hash-object",
            "--stdin-paths",
            stdin="\n".join(candidates).encode("utf-8", "surrogateescape") + b"\n",
        ).split()
    except GitError:
        return changes, untracked  # one became unreadable meanwhile: leave them unpaired
    renamed: dict[int, str] = {}  # index of the deletion → the untracked name it moved to
    for path, sha in zip(candidates, hashed, strict=False):
        waiting = gone.get(sha.decode("ascii", "replace"))
        if waiting:
            renamed[waiting.pop(0)] = path
    if not renamed:
        return changes, untracked
    paired = []
    for n, c in enumerate(changes):
        new = renamed.get(n)
        if new is None:
            paired.append(c)
        else:
            paired.append(Change(new, "renamed", c.path, 0, 0, False, c.old_sha, c.old_mode))
    moved = set(renamed.values())
    return paired, [p for p in untracked if p not in moved]


def _blob_sizes(git: Git, shas: list[str]) -> set[int]:
    sizes: set[int] = set()
    checked = git.run("cat-file", "--batch-check", stdin=("\n".join(shas) + "\n").encode())
    for line in checked.decode("ascii", "replace").splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] == "blob" and parts[2].isdigit():
            sizes.add(int(parts[2]))
    return sizes


def _same_size(root: Path, untracked: list[str], sizes: set[int]) -> list[str]:
    """The untracked regular files whose size is one of ``sizes``."""
    found: list[str] = []
    for path in untracked:
        if path.endswith("/") or "\n" in path:
            continue  # a nested repository, or a name hash-object cannot be given
        try:
            st = (root / path).lstat()
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode) and st.st_size in sizes:
            found.append(path)
    return found
