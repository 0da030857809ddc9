"""Follow symbolic links under the project folder, refusing every way out.

The only part of the path contract that touches the filesystem. It walks a
clean relative path (no ``..``, no empty segments) one name at a time the way
the kernel does, starting *inside* the project, and follows each link it
meets. Unlike ``os.path.realpath`` it fails the moment any hop leaves the
project (a link to ``/etc``, to ``../..``, or a chain that steps outside and
back in, whose meaning depends on files vibflow does not own), and it reports
loops instead of silently returning a half-resolved path.

The parent folders come back fully resolved, so a path through a symlinked
folder is stored under the real folder git tracks; the last name is kept as
is, so naming a symlink names the link entry. When a name is missing it is
looked up under Unicode NFC, so ``café`` typed on Linux finds a ``café``
committed from a Mac in NFD form, and file operations use the name on disk.
"""

from __future__ import annotations

import errno
import os
import stat
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from vibflow.steps.paths.rules import PathRule

MAX_LINK_HOPS = 40  # the kernel's own limit (Linux MAXSYMLINKS)


class ResolveError(Exception):
    """Resolution refused the path; the contract turns this into ``PathRejected``."""

    def __init__(self, rule: PathRule) -> None:
        super().__init__(rule.value)
        self.rule = rule


@dataclass(frozen=True)
class Resolution:
    """Where a relative path really is, as on-disk names relative to the project."""

    parent: tuple[str, ...]
    name: str
    target: tuple[str, ...]  # the last name's link followed too (same as parent+name if none)
    exists: bool
    target_is_dir: bool
    notes: tuple[str, ...] = field(default=())


class Resolver:
    """Resolves paths below one project folder (given as its real, absolute path)."""

    def __init__(self, root_real: str, *, aliases: Sequence[str] = ()) -> None:
        self._root = Path(root_real)
        # Absolute link targets may spell the project as the caller knows it.
        self._anchors = [_split_abs(a) for a in dict.fromkeys([root_real, *aliases])]
        self._hops = 0
        self._notes: list[str] = []

    def resolve(self, parts: Sequence[str]) -> Resolution:
        self._hops = 0
        self._notes = []
        parent, parent_exists = self._walk([], list(parts[:-1]))
        name = parts[-1]
        if not parent_exists:
            target = (*parent, name)
            return Resolution(tuple(parent), name, target, False, False, tuple(self._notes))
        name, st = self._lookup(parent, name)
        if st is None:
            return Resolution(
                tuple(parent), name, (*parent, name), False, False, tuple(self._notes)
            )
        if stat.S_ISLNK(st.st_mode):
            target_list, exists = self._walk(list(parent), [name])
            target = tuple(target_list)
            is_dir = exists and self._join(target).is_dir()
        else:
            target = (*parent, name)
            exists, is_dir = True, stat.S_ISDIR(st.st_mode)
        return Resolution(tuple(parent), name, target, exists, is_dir, tuple(self._notes))

    def _walk(self, state: list[str], todo: list[str]) -> tuple[list[str], bool]:
        """Apply ``todo`` to ``state`` (real names below the project), following links."""
        pending = list(reversed(todo))
        exists = True
        while pending:
            comp = pending.pop()
            if comp in {"", "."}:
                continue
            if comp == "..":  # only ever from a link's text
                if not state:
                    raise ResolveError(PathRule.SYMLINK_ESCAPE)
                state.pop()
                continue
            if not exists:
                state.append(comp)
                continue
            comp, st = self._lookup(state, comp)
            if st is None:
                exists = False
                state.append(comp)
                continue
            if not stat.S_ISLNK(st.st_mode):
                state.append(comp)
                continue
            self._hops += 1
            if self._hops > MAX_LINK_HOPS:
                raise ResolveError(PathRule.SYMLINK_LOOP)
            text = str(self._join((*state, comp)).readlink())
            if Path(text).is_absolute():
                state = []
                pending.extend(reversed(self._below_project(text)))
            else:
                pending.extend(reversed(text.replace(os.sep, "/").split("/")))
        return state, exists

    def _below_project(self, text: str) -> list[str]:
        """The names after the project folder in an absolute link target."""
        parts = _split_abs(text)
        for anchor in self._anchors:
            if parts[: len(anchor)] == anchor:
                return parts[len(anchor) :]
        raise ResolveError(PathRule.SYMLINK_ESCAPE)

    def _lookup(self, state: Sequence[str], comp: str) -> tuple[str, os.stat_result | None]:
        """``lstat`` of ``comp`` in ``state``; a missing name is retried under NFC."""
        try:
            return comp, self._join((*state, comp)).lstat()
        except (FileNotFoundError, NotADirectoryError):
            pass
        except OSError as exc:
            if exc.errno == errno.ENAMETOOLONG:
                raise ResolveError(PathRule.TOO_LONG) from exc
            if exc.errno == errno.ELOOP:
                raise ResolveError(PathRule.SYMLINK_LOOP) from exc
            return comp, None  # unreadable: judged by its name alone, never followed
        return self._nfc_sibling(state, comp)

    def _nfc_sibling(self, state: Sequence[str], comp: str) -> tuple[str, os.stat_result | None]:
        want = unicodedata.normalize("NFC", comp)
        if want == comp and comp.isascii():
            return comp, None
        try:
            entries = [e.name for e in self._join(state).iterdir()]
        except OSError:
            return comp, None
        matches = sorted(e for e in entries if unicodedata.normalize("NFC", e) == want)
        if not matches:
            return comp, None
        if len(matches) > 1:
            self._notes.append(
                "several names on disk differ only in Unicode normalization (NFC/NFD)"
            )
        try:
            return matches[0], self._join((*state, matches[0])).lstat()
        except OSError:
            return comp, None

    def _join(self, parts: Sequence[str]) -> Path:
        return self._root.joinpath(*parts)


def _split_abs(path: str) -> list[str]:
    return [p for p in path.replace(os.sep, "/").split("/") if p not in {"", "."}]
