"""What freshness needs to know about the repository, as data.

Memory code never runs git or reads the work tree itself (spec §15 Layer 4):
the front door passes in an object with this shape, implemented over git in
``steps.workspace.repo_facts``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol


class RepoFacts(Protocol):
    def head(self) -> str | None:
        """The current HEAD commit, or None in a repository without commits."""

    def commits_since(self, sha: str) -> int | None:
        """Commits reachable from HEAD but not from ``sha`` (None if unknown)."""

    def changed_after(self, paths: Sequence[str], when: datetime) -> list[str]:
        """Which of ``paths`` changed (content or existence) after ``when``."""

    def exists(self, path: str) -> bool | None:
        """Whether the project-relative ``path`` is in the work tree (None if unknown)."""


class NoFacts:
    """Facts for a caller that cannot look at the repository: nothing is known."""

    def head(self) -> str | None:
        return None

    def commits_since(self, sha: str) -> int | None:
        del sha
        return None

    def changed_after(self, paths: Sequence[str], when: datetime) -> list[str]:
        del paths, when
        return []

    def exists(self, path: str) -> bool | None:
        del path
        return None
