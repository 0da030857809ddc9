"""Parse git's ``-z`` diff listings (``--raw`` + ``--numstat``, one run) exactly.

Names are kept byte-exact (no octal escapes); renames are followed (``-M``)
so a ``git mv`` is one change with its old path, not a delete and an add.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from vibflow.steps.workspace.git import Git

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


def _decode(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")


def parse(listing: bytes) -> list[Change]:
    """One ``-z --raw --numstat`` listing: the raw records (status and names)
    come first, then the line counts.

    Records are read by position: a raw record starts with ``:`` and is
    followed by one name (two for a rename or copy), a count record starts
    with a digit or ``-`` — so a name that itself starts with ``:`` is never
    mistaken for a record.
    """
    fields = listing.split(b"\0")
    raw: list[tuple[str, str | None, str]] = []  # (status code, old name, name)
    counts: dict[str, tuple[int | None, int | None, bool]] = {}
    i = 0
    while i < len(fields):
        head = fields[i]
        if not head:
            i += 1
        elif head.startswith(b":"):
            code = head.rsplit(b" ", 1)[-1].decode("ascii", "replace")
            if code[:1] in ("R", "C"):
                raw.append((code, _decode(fields[i + 1]), _decode(fields[i + 2])))
                i += 3
            else:
                raw.append((code, None, _decode(fields[i + 1])))
                i += 2
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
    changes: list[Change] = []
    for code, old_path, path in raw:
        add, rem, binary = counts.get(path, (None, None, False))
        changes.append(Change(path, _STATUS.get(code[:1], "modified"), old_path, add, rem, binary))
    return changes


def tree_to_tree(git: Git, old: str, new: str) -> list[Change]:
    return parse(git.run("diff-tree", "-r", "-z", "-M", "--raw", "--numstat", old, new))


def head_to_worktree(git: Git, scratch_index: Path, base: str | None = None) -> list[Change]:
    """Tracked changes (staged or not) from HEAD — or from nothing, before the
    first commit — to the working tree. ``base`` is HEAD's commit when the caller
    has read it already (or :data:`EMPTY_TREE`).

    Porcelain ``git diff`` refreshes stat-dirty index entries and *writes the
    index* (even with GIT_OPTIONAL_LOCKS=0), so it runs against a scratch copy
    of the user's index, never the index itself. The copy keeps the original's
    mtime, which git needs to judge racily clean entries.
    """
    base = base or git.head() or EMPTY_TREE
    user_index = git.git_dir() / "index"
    scratch_index.parent.mkdir(parents=True, exist_ok=True)
    if user_index.exists():
        shutil.copy2(user_index, scratch_index)
    else:
        scratch_index.unlink(missing_ok=True)
    env = {"GIT_INDEX_FILE": str(scratch_index)}
    # One run for names and counts: each run refreshes the whole index and
    # detects renames again.
    return parse(git.run("diff", "-z", "-M", "--raw", "--numstat", base, "--", env=env))
