"""A project file git ignores by a line the repository's history does not hold.

A ``go.mod`` beside ``bin/`` makes ``bin/`` a Go build's output. The listing of
changes cannot show every file the change brought: one git ignores is not in
it. An agent that writes a ``go.mod`` and a line for it in ``.git/info/exclude``
(a file of the clone, in no commit), or in a ``.gitignore`` it edits, makes the
tracked scripts it changed under ``bin/`` build output, hidden from the plan.

Ignored is not enough to distrust a project file: JetBrains' own ignore template
lists ``*.iml``, and an IntelliJ module's ``out/`` is its build output. What
decides is where the ignoring line comes from: a ``.gitignore`` as committed
vouches for the file (someone decided it), ``info/exclude`` or a ``.gitignore``
the change itself touched does not. A file so ignored is evidence only when
HEAD or a checkpoint taken before holds it. ``core.excludesFile`` is the user's
own configuration, read as git reads it.

Cost: nothing unless ``info/exclude`` holds a pattern or the change touched a
``.gitignore``; then one ``check-ignore`` per project file asked about.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from vibflow.engine.errors import VibflowError
from vibflow.steps.checkpoints.gitstate import common_dir
from vibflow.steps.recovery.brought import Brought, held_before

if TYPE_CHECKING:
    from vibflow.steps.workspace.git import Git

#: How much of ``info/exclude`` is read to see whether it holds a pattern at all.
_EXCLUDE_READ = 1 << 20


class IgnoredApart:
    """Whether a project file is ignored only by a line the history does not hold."""

    def __init__(self, git: Git, brought: Brought) -> None:
        self._git = git
        self._brought = brought
        self._active: bool | None = None

    def __call__(self, path: str) -> bool:
        if not self._is_active():
            return False
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
        fields = out.split(b"\0")
        if len(fields) < 4 or fields[2].startswith(b"!"):
            return False  # not ignored, or the last line that matches takes it back
        if not self._untrusted(fields[0].decode("utf-8", "surrogateescape")):
            return False
        trees = tuple(t for t in (self._brought.head, *self._brought.before) if t)
        return path not in held_before(self._git, trees, [path])

    def _untrusted(self, source: str) -> bool:
        """Whether the ignore file git named is one no commit vouches for."""
        if source.rpartition("/")[2] == ".gitignore":
            return source in self._brought.ignore_files or self._brought.has(source)
        return source.replace("\\", "/").endswith("info/exclude")

    def _is_active(self) -> bool:
        if self._active is None:
            self._active = bool(self._brought.ignore_files) or self._exclude_has_lines()
        return self._active

    def _exclude_has_lines(self) -> bool:
        try:
            exclude = common_dir(self._git.git_dir()) / "info" / "exclude"
            with exclude.open("rb") as handle:
                text = handle.read(_EXCLUDE_READ)
        except (OSError, VibflowError):
            return False
        return any(
            line.strip() and not line.lstrip().startswith(b"#") for line in text.splitlines()
        )
