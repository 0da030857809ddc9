"""The git facts trigger metrics read: commits and changed lines since a commit.

Built on the memory's repository facts (``steps.workspace.repo_facts``) plus
one ``git diff --numstat``; each answer is asked for only when a condition
names the metric that needs it.
"""

from __future__ import annotations

from vibflow.steps.workspace.git import GitError
from vibflow.steps.workspace.repo_facts import GitRepoFacts


class GitDiffFacts(GitRepoFacts):
    def diff_lines_since(self, sha: str) -> int | None:
        if not all(c in "0123456789abcdef" for c in sha) or not 7 <= len(sha) <= 64:
            return None
        try:
            out = self._git.text("diff", "--numstat", "--no-renames", sha, "--")
        except GitError:
            return None
        total = 0
        for line in out.splitlines():
            added, deleted, _ = [*line.split("\t", 2), "", ""][:3]
            # A binary file shows "-": it has no lines to count.
            total += int(added) if added.isdigit() else 0
            total += int(deleted) if deleted.isdigit() else 0
        return total
