"""The project file beside a folder, believed only when it predates the change.

A build-output rule names a folder and the project files that make it output
(``bin/`` beside ``go.mod``). Such a file is evidence only when it was there
before the change the plan judges: HEAD or a checkpoint taken before holds it,
and the listing shows it, or git ignores it by a line a commit holds
(``ignored_apart``). One directory listing per folder asked about, each answer
kept for the preview.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from fnmatch import fnmatchcase
from pathlib import Path
from typing import TYPE_CHECKING

from vibflow.steps.recovery.brought import Brought, held_before
from vibflow.steps.recovery.generated_names import is_glob
from vibflow.steps.recovery.ignored_apart import IgnoredApart

if TYPE_CHECKING:
    from vibflow.steps.workspace.git import Git


class ProjectFiles:
    """Finds a folder's project files (reads the work tree and git)."""

    def __init__(self, root: Path, git: Git, brought: Brought) -> None:
        self._root = root
        self._git = git
        self._brought = brought
        self._listings: dict[str, frozenset[str]] = {}
        self._found: dict[tuple[str, tuple[str, ...]], str | None] = {}
        self._new: dict[str, bool] = {}
        self._ignored_apart = IgnoredApart(root, git, brought)

    def find(self, folder: str, globs: Sequence[str]) -> str | None:
        """The first of the project files ``globs`` names in ``folder`` that predates
        the change (None when there is none)."""
        # Asked once per changed file under a build-like folder: every file of a
        # docs/ folder asks the same question of the same folder.
        key = (folder, tuple(globs))
        if key not in self._found:
            self._found[key] = self._find(folder, globs)
        return self._found[key]

    def predating(self, paths: Collection[str]) -> set[str]:
        """Those of ``paths`` (exact file paths) that are plain files in the work tree
        and that the last commit holds: files the change did not bring (none before
        the first commit). One ``cat-file`` for all."""
        there = []
        for path in paths:
            folder, _, name = path.rpartition("/")
            if (
                name in self._names(folder)
                and not self._brought.has(path)
                and (where := self._root / path).is_file()
                and not where.is_symlink()
            ):
                there.append(path)
        if not there or self._brought.head is None:
            return set()
        return held_before(self._git, (self._brought.head,), there)

    def _names(self, folder: str) -> frozenset[str]:
        """The names in ``folder`` (none when it cannot be read), listed once."""
        if folder not in self._listings:
            try:
                self._listings[folder] = frozenset(
                    p.name for p in (self._root / folder if folder else self._root).iterdir()
                )
            except OSError:
                self._listings[folder] = frozenset()
        return self._listings[folder]

    def _find(self, folder: str, globs: Sequence[str]) -> str | None:
        names = self._names(folder)
        where = f"{folder}/" if folder else ""
        for pattern in globs:
            if "/" in pattern:
                # A project file inside a folder of its own (Hugo's
                # config/_default/hugo.toml): a path, not a glob.
                first, _, rest = pattern.partition("/")
                try:
                    if (
                        first in names
                        and not self._is_new(where + pattern)
                        and (self._root / folder / first / rest).is_file()
                    ):
                        return pattern
                except OSError:  # a folder we may not read: no project file seen
                    pass
            elif not is_glob(pattern):
                # Most project files are plain names.
                if pattern in names and not self._is_new(where + pattern):
                    return pattern
            else:
                found = next(
                    (
                        name
                        for name in sorted(names)
                        if fnmatchcase(name, pattern) and not self._is_new(where + name)
                    ),
                    None,
                )
                if found is not None:
                    return found
        return None

    def _is_new(self, path: str) -> bool:
        """Whether the change itself brought the project file ``path``: HEAD lacks it
        and no checkpoint taken before holds it (or git ignores it by a line no
        commit holds, ``ignored_apart``). An agent that writes a ``package.json``
        beside the files it edited under ``out/`` would otherwise make them build
        output, hidden from the plan."""
        if not self._brought.has(path):
            # Not in the listing: maybe ignored, by a line no commit holds.
            if path not in self._new:
                self._new[path] = self._ignored_apart(path)
            return self._new[path]
        if path not in self._new:
            held = held_before(self._git, self._brought.before, [path])
            self._new[path] = path not in held
        return self._new[path]
