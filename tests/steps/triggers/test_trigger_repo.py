"""The git facts behind the trigger metrics, in a real repository: lines and commits
since a commit, the same whether started ahead (prefetch) or asked for when read, an
answer started for one commit never used for another, and unread work ended."""

from __future__ import annotations

from pathlib import Path

from vibflow_testing.git import git, gtext
from vibflow_testing.repo import write

from vibflow.steps.triggers.repo import GitDiffFacts


def test_counts_since_a_commit_with_and_without_prefetch(repo: Path) -> None:
    """3 lines committed and 2 in the work tree since the base: 5 lines, 1 commit."""
    base = gtext(repo, "rev-parse", "HEAD")
    write(repo, "a.txt", "1\n2\n3\n")
    git(repo, "add", "a.txt")
    git(repo, "commit", "-q", "-m", "a")
    write(repo, "README.md", "hello\nx\ny\n")
    plain = GitDiffFacts(repo)
    assert (plain.diff_lines_since(base), plain.commits_since(base)) == (5, 1)
    ahead = GitDiffFacts(repo)
    ahead.prefetch(base)
    assert (ahead.diff_lines_since(base), ahead.commits_since(base)) == (5, 1)
    ahead.close()


def test_an_answer_started_for_one_commit_is_not_used_for_another(repo: Path) -> None:
    """Prefetch for HEAD, ask about the base: the base's own answer; close ends the rest."""
    base = gtext(repo, "rev-parse", "HEAD")
    write(repo, "a.txt", "1\n")
    git(repo, "add", "a.txt")
    git(repo, "commit", "-q", "-m", "a")
    head = gtext(repo, "rev-parse", "HEAD")
    facts = GitDiffFacts(repo)
    facts.prefetch(head)
    assert facts.diff_lines_since(base) == 1
    assert facts.commits_since(head) == 0
    facts.close()  # the unread line count for HEAD is ended, not leaked
    assert facts.diff_lines_since("not-a-sha") is None
    assert facts.diff_lines_since("0" * 40) is None  # no such commit: unknown, not 0


def test_kept_answers_are_read_once_and_plain_ones_every_time(repo: Path) -> None:
    """keep=True (a command that changes nothing) asks git once per question; the
    default asks again, so a change made between two evaluations is seen."""
    base = gtext(repo, "rev-parse", "HEAD")
    write(repo, "README.md", "hello\nx\n")
    kept, plain = GitDiffFacts(repo, keep=True), GitDiffFacts(repo)
    kept.prefetch(base)
    assert kept.diff_lines_since(base) == plain.diff_lines_since(base) == 1
    assert kept.commits_since(base) == plain.commits_since(base) == 0
    write(repo, "README.md", "hello\nx\ny\nz\n")
    git(repo, "add", "README.md")
    git(repo, "commit", "-q", "-m", "more")
    assert (kept.diff_lines_since(base), kept.commits_since(base)) == (1, 0)
    assert (plain.diff_lines_since(base), plain.commits_since(base)) == (3, 1)
    kept.close()
