"""The git facts trigger metrics read: commits and changed lines since a commit.

Built on the memory's repository facts (``steps.workspace.repo_facts``) plus
one ``git diff --numstat``; each answer is asked for only when a condition
names the metric that needs it. ``triggers check`` reads every metric, so it
may start both git commands up front (:meth:`GitDiffFacts.prefetch`): they
then run beside the rest of the command's start instead of after it. A
started answer is used only for the commit it was started for.

By default every question runs git again, so a command that changes the tree
between two evaluations sees the change. A command that changes nothing
(``recap``: its own text, then the nudges after it) passes ``keep=True`` and
each answer is then read once and shared by every evaluation it makes.
"""

from __future__ import annotations

from pathlib import Path

from vibflow.steps.workspace.git import GitError, Started
from vibflow.steps.workspace.repo_facts import GitRepoFacts


def _sha(sha: str) -> bool:
    return all(c in "0123456789abcdef" for c in sha) and 7 <= len(sha) <= 64


class GitDiffFacts(GitRepoFacts):
    _started: dict[tuple[str, str], Started] | None = None

    def __init__(self, root: Path, *, keep: bool = False) -> None:
        super().__init__(root)
        #: (what, sha) -> git's answer (None: git could not say), when ``keep``.
        self._kept: dict[tuple[str, str], str | None] | None = {} if keep else None

    def _pending(self) -> dict[tuple[str, str], Started]:
        if self._started is None:
            self._started = {}
        return self._started

    def prefetch(self, sha: str) -> None:
        """Start the commit count and the line count since ``sha`` in the background."""
        if not _sha(sha):
            return
        pending = self._pending()
        for what, args in (
            ("commits", ("rev-list", "--count", f"{sha}..HEAD")),
            ("lines", ("diff", "--numstat", "--no-renames", sha, "--")),
        ):
            if (what, sha) not in pending:
                try:
                    pending[(what, sha)] = Started(self.root, *args)
                except OSError:
                    return  # run again when read, and any failure reported then

    def close(self) -> None:
        """End whatever was started and never read."""
        for started in self._pending().values():
            started.stop()
        self._pending().clear()

    def _answer(self, what: str, sha: str, *args: str) -> str | None:
        if self._kept is not None and (what, sha) in self._kept:
            return self._kept[(what, sha)]
        answer = self._ask(what, sha, *args)
        if self._kept is not None:
            self._kept[(what, sha)] = answer
        return answer

    def _ask(self, what: str, sha: str, *args: str) -> str | None:
        started = self._pending().pop((what, sha), None)
        try:
            if started is not None:
                return started.result().decode("utf-8", "surrogateescape").strip()
            return self._git.text(*args)
        except GitError:
            return None

    def commits_since(self, sha: str) -> int | None:
        if not _sha(sha):
            return None
        out = self._answer("commits", sha, "rev-list", "--count", f"{sha}..HEAD")
        return int(out) if out and out.isdigit() else None

    def diff_lines_since(self, sha: str) -> int | None:
        if not _sha(sha):
            return None
        out = self._answer("lines", sha, "diff", "--numstat", "--no-renames", sha, "--")
        if out is None:
            return None
        total = 0
        for line in out.splitlines():
            added, deleted, _ = [*line.split("\t", 2), "", ""][:3]
            # A binary file shows "-": it has no lines to count.
            total += int(added) if added.isdigit() else 0
            total += int(deleted) if deleted.isdigit() else 0
        return total
