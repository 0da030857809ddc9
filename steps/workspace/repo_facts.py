"""Repository facts for memory freshness, read from git and the work tree.

The memory package declares what it needs (``steps.memory.facts.RepoFacts``)
and never runs git itself; this is the implementation the front door passes
in. Git runs through the one helper (``steps.workspace.git``); a fact git
cannot give is ``None`` — memory freshness then says it does not know.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from vibflow.steps.memory.facts import SECOND_NS, FileTime
from vibflow.steps.workspace.git import Git, GitError


class GitRepoFacts:
    def __init__(self, root: Path) -> None:
        self.root = root
        self._git = Git(root)

    def _text(self, *args: str) -> str | None:
        try:
            return self._git.text(*args)
        except GitError:
            return None

    def head(self) -> str | None:
        return self._text("rev-parse", "--verify", "-q", "HEAD")

    def commits_since(self, sha: str) -> int | None:
        if not all(c in "0123456789abcdef" for c in sha) or not 7 <= len(sha) <= 64:
            return None
        out = self._text("rev-list", "--count", f"{sha}..HEAD")
        return int(out) if out and out.isdigit() else None

    def file_times(self, paths: Sequence[str]) -> list[FileTime]:
        times: list[FileTime] = []
        for rel in paths:
            try:
                ns = (self.root / rel).stat().st_mtime_ns
            except FileNotFoundError:
                times.append(FileTime(rel, None))  # deleted: whatever was verified is gone
                continue
            except OSError:
                continue
            # Whole seconds on the dot: a filesystem that keeps no finer time (or a
            # time set from one that did not); the change is somewhere in that second.
            times.append(FileTime(rel, ns, SECOND_NS if ns % SECOND_NS == 0 else 1))
        return times

    def exists(self, path: str) -> bool | None:
        try:
            (self.root / path).lstat()  # a dangling symlink is still there
        except FileNotFoundError:
            return False
        except OSError:
            return None
        return True
