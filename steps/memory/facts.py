"""What freshness needs to know about the repository, as data.

Memory code never runs git or reads the work tree itself (spec §15 Layer 4):
the front door passes in an object with this shape, implemented over git in
``steps.workspace.repo_facts``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

#: Nanoseconds in a second: a file time a filesystem keeps in whole seconds.
SECOND_NS = 1_000_000_000


@dataclass(frozen=True)
class FileTime:
    """When a file last changed, as finely as its filesystem keeps it.

    ``ns`` is the modification time in nanoseconds since the epoch (``None``: the
    file is gone); the change happened somewhere in ``[ns, ns + precision_ns)``.
    A filesystem that keeps whole seconds makes that window a second wide, and
    freshness then may not be able to tell which came first (``freshness.order``).
    """

    path: str
    ns: int | None
    precision_ns: int = 1


class RepoFacts(Protocol):
    def head(self) -> str | None:
        """The current HEAD commit, or None in a repository without commits."""

    def commits_since(self, sha: str) -> int | None:
        """Commits reachable from HEAD but not from ``sha`` (None if unknown)."""

    def file_times(self, paths: Sequence[str]) -> list[FileTime]:
        """When each of ``paths`` last changed (content or existence); a path whose
        time cannot be read is left out."""

    def exists(self, path: str) -> bool | None:
        """Whether the project-relative ``path`` is in the work tree (None if unknown)."""


class NoFacts:
    """Facts for a caller that cannot look at the repository: nothing is known."""

    def head(self) -> str | None:
        return None

    def commits_since(self, sha: str) -> int | None:
        del sha
        return None

    def file_times(self, paths: Sequence[str]) -> list[FileTime]:
        del paths
        return []

    def exists(self, path: str) -> bool | None:
        del path
        return None
