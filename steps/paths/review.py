"""Paths that differ only in letter case: a question for the user, not an error.

On a case-insensitive volume (macOS and Windows by default) ``src/App.tsx``
and ``src/app.tsx`` are one file; on Linux they are two. Restoring one over
the other could silently replace the wrong file, yet refusing would block a
legitimate rename. So the contract accepts such a path and marks it
``needs_review`` with the name it collides with, for the user to confirm. The
check runs on every prefix too: ``SRC/new.ts`` collides with a tracked
``src/`` folder. Comparison is NFC then case-folded, so NFC/NFD spellings of
one name are the *same* name, never a collision.

Pure: works on project-relative strings only.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable


def case_key(path: str) -> str:
    """The key under which a case-insensitive, normalization-insensitive volume
    files ``path``."""
    return unicodedata.normalize("NFC", path).casefold()


def _prefixes(path: str) -> list[str]:
    parts = path.split("/")
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]


class CaseIndex:
    """Every spelling of every path and parent folder among a set of paths."""

    def __init__(self, paths: Iterable[str]) -> None:
        self._spellings: dict[str, set[str]] = {}
        for path in paths:
            for prefix in _prefixes(unicodedata.normalize("NFC", path)):
                self._spellings.setdefault(case_key(prefix), set()).add(prefix)

    def conflict(self, path: str) -> str | None:
        """The first other spelling of ``path`` or one of its parent folders."""
        for prefix in _prefixes(unicodedata.normalize("NFC", path)):
            others = self._spellings.get(case_key(prefix), set()) - {prefix}
            if others:
                return sorted(others)[0]
        return None


def tracked_reason(other: str) -> str:
    return f"differs only in letter case from the tracked path '{other}'"


def selected_reason(other: str) -> str:
    return f"differs only in letter case from another selected path '{other}'"


def join_reasons(*reasons: str | None) -> str | None:
    present = [r for r in dict.fromkeys(reasons) if r]
    return "; ".join(present) if present else None
