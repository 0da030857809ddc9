"""A project file git ignores by a line no commit vouches for.

A ``go.mod`` beside ``bin/`` makes ``bin/`` a Go build's output. The listing of
changes cannot show every file the change brought: one git ignores is not in
it. An agent that writes a ``go.mod`` and a line that ignores it — in
``.git/info/exclude`` (a file of the clone, in no commit), in a ``.gitignore`` it
edits or writes, even one that ignores itself — would make the tracked scripts
it changed under ``bin/`` build output, hidden from the plan.

Ignored is not enough to distrust a project file: JetBrains' own ignore template
lists ``*.iml``, and an IntelliJ module's ``out/`` is its build output. What
decides is the line that ignores it, as ``git check-ignore -v`` names it: a
line of a project file HEAD holds, as HEAD holds it, vouches for the file
(someone committed it); a line of a file in git's own folder (``info/exclude``,
a ``core.excludesFile`` kept there) or of a project file HEAD lacks or holds
without that line does not. An ignore file outside the repository (the user's
global ``core.excludesFile``) is the user's own configuration, read as git
reads it. A file no line vouches for is evidence only when HEAD or a
checkpoint the user took before holds it.

Cost: one ``check-ignore`` per project file asked about that the listing does
not show as new, and one ``cat-file`` per ignore file it names.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from vibflow.engine.errors import VibflowError
from vibflow.steps.checkpoints.gitstate import common_dir
from vibflow.steps.recovery.brought import Brought, held_before
from vibflow.steps.recovery.evidence_text import at_head

if TYPE_CHECKING:
    from vibflow.steps.workspace.git import Git


#: How much of a committed ignore file is read for the line that ignores a file.
_IGNORE_READ = 1 << 20


class IgnoredApart:
    """Whether a project file is ignored only by a line no commit vouches for."""

    def __init__(self, root: Path, git: Git, brought: Brought) -> None:
        self._root = root
        self._git = git
        self._brought = brought
        #: Each ignore file HEAD holds, by its project path: its lines (None: HEAD lacks it).
        self._committed: dict[str, frozenset[str] | None] = {}
        self._own_folders: tuple[str, ...] | None = None

    def __call__(self, path: str) -> bool:
        try:
            out = self._git.run(
                "check-ignore",
                "-v",
                "-z",
                "--no-index",
                "--stdin",
                stdin=path.encode("utf-8", "surrogateescape") + b"\0",
                ok=(0, 1),
            )
        except VibflowError:
            return False
        fields = [f.decode("utf-8", "surrogateescape") for f in out.split(b"\0")]
        if len(fields) < 4 or not fields[0] or fields[2].startswith("!"):
            return False  # not ignored, or the last line that matches takes it back
        if self._vouched(fields[0], fields[2]):
            return False
        trees = tuple(t for t in (self._brought.head, *self._brought.before) if t)
        return path not in held_before(self._git, trees, [path])

    def _vouched(self, source: str, pattern: str) -> bool:
        """Whether the ignore file ``source`` (as git names it) holds ``pattern`` in a
        way a commit vouches for."""
        where = os.path.realpath(self._root / source)  # an absolute source stays itself
        if any(where.startswith(folder) for folder in self._git_folders()):
            return False  # a file of the clone (info/exclude …): no commit holds it
        root = os.path.realpath(self._root) + os.sep
        if not where.startswith(root):
            return True  # the user's own global ignore file
        return pattern in (self._lines_at_head(where[len(root) :].replace(os.sep, "/")) or ())

    def _git_folders(self) -> tuple[str, ...]:
        if self._own_folders is None:
            try:
                git_dir = self._git.git_dir()
                found = {os.path.realpath(git_dir), os.path.realpath(common_dir(git_dir))}
            except (OSError, VibflowError):
                found = {os.path.realpath(self._root / ".git")}
            self._own_folders = tuple(f + os.sep for f in found)
        return self._own_folders

    def _lines_at_head(self, rel: str) -> frozenset[str] | None:
        if rel not in self._committed:
            head = self._brought.head
            text = at_head(self._git, [rel], _IGNORE_READ, head).get(rel) if head else None
            self._committed[rel] = (
                None if text is None else frozenset(line.rstrip() for line in text.splitlines())
            )
        return self._committed[rel]
