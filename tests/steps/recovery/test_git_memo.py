"""git_memo keeps only answers nothing can change unseen: git reads fixed by object ids
(which commands qualify, served without running git again, off under `git replace`) and
per-file judgements pinned by the file's lstat (never for a just-written file)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from vibflow_testing.git import git
from vibflow_testing.repo import write

from vibflow.steps.checkpoints.restore import Item
from vibflow.steps.recovery.git_memo import RACY_SECONDS, GitMemo, HeldJudgements, immutable_key

SHA = "0123456789abcdef0123456789abcdef01234567"


def test_only_reads_of_full_object_ids_are_kept() -> None:
    """diff-tree/ls-tree of full ids (paths after --) qualify; refs, HEAD, short ids,
    revision expressions, stdin-driven or formatted reads and every other command do not."""
    assert immutable_key(("diff-tree", "-r", "-z", SHA, SHA)) is not None
    assert immutable_key(("ls-tree", "-r", "-z", "--full-tree", SHA)) is not None
    assert immutable_key(("ls-tree", "-z", SHA, "--", "HEAD", "src/a.py")) is not None
    for args in (
        ("ls-tree", "-r", "HEAD"),
        ("ls-tree", "-r", SHA[:12]),
        ("diff-tree", "-r", f"{SHA}^", SHA),
        ("diff-tree", "--stdin"),
        ("ls-tree", "--format=%(objectname)", SHA),
        ("diff-tree", "-r", "-z"),
        ("diff", SHA, SHA),
        ("log", SHA),
        ("ls-files", "-z"),
        (),
    ):
        assert immutable_key(args) is None, args


def test_a_kept_answer_is_the_same_bytes_and_git_runs_once(repo: Path) -> None:
    """The second identical ls-tree is served from memory with the same bytes; a read of
    HEAD always runs (it follows a new commit)."""
    memo = GitMemo(repo)
    tree = memo.text("rev-parse", "HEAD^{tree}")
    first = memo.run("ls-tree", "-r", "-z", tree)
    assert memo.run("ls-tree", "-r", "-z", tree) == first
    assert (memo.hits, memo.misses) == (1, 1)
    before = memo.run("ls-tree", "-r", "-z", "HEAD")
    write(repo, "new.txt", "x\n")
    git(repo, "add", "new.txt")
    git(repo, "commit", "-q", "-m", "new")
    assert memo.run("ls-tree", "-r", "-z", "HEAD") != before
    assert (memo.hits, memo.misses) == (1, 1)


def test_replace_refs_turn_the_memory_off(repo: Path) -> None:
    """With a `git replace` ref, an id can show other content: nothing is kept."""
    memo = GitMemo(repo)
    head = memo.text("rev-parse", "HEAD")
    write(repo, "other.txt", "y\n")
    git(repo, "add", "other.txt")
    git(repo, "commit", "-q", "-m", "other")
    other = memo.text("rev-parse", "HEAD")
    git(repo, "replace", head, other)
    memo.run("ls-tree", "-r", "-z", head)
    memo.run("ls-tree", "-r", "-z", head)
    assert (memo.hits, memo.misses) == (0, 0)


def test_held_judgements_are_kept_per_file_state_and_never_for_racy_files(tmp_path: Path) -> None:
    """A verdict is reused while the file's lstat is unchanged; a rewrite that restores
    size and mtime still changes ctime and is judged again; a just-written file is
    judged every time."""
    calls: list[str] = []

    def judge(root: Path, item: Any) -> bool:
        calls.append(item.path)
        return (root / item.path).read_text(encoding="utf-8") == "held\n"

    keep = HeldJudgements(judge)
    item = Item("a.txt", "write", "100644", SHA)
    target = tmp_path / "a.txt"
    target.write_text("held\n", encoding="utf-8")
    old = time.time() - 60
    os.utime(target, (old, old))
    time.sleep(RACY_SECONDS + 0.1)  # the ctime, too, must be older than the racy window
    assert keep(tmp_path, item) is True
    assert keep(tmp_path, item) is True
    assert calls == ["a.txt"]
    st = target.stat()
    target.write_text("edit\n", encoding="utf-8")  # same size
    os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns))  # mtime put back
    assert keep(tmp_path, item) is False  # ctime moved (and it is racy now): judged again
    assert calls == ["a.txt", "a.txt"]
    assert keep(tmp_path, item) is False
    assert calls == ["a.txt", "a.txt", "a.txt"]  # racy: never kept
