"""Checkpoints survive the user's history rewrites and gc, and work in a repository with
no commits yet. Real git repositories, no mocks."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from vibflow_testing.git import gtext, run_git
from vibflow_testing.repo import OLD, init_repo, make_store, write
from vibflow_testing.snapshots import (
    EMPTY_TREE,
    assert_same_state,
    content,
    oracle_tree,
    tree_of,
    user_state,
)

# -- 3. survival ----------------------------------------------------------------------------


def _rewrite_history(root: Path, how: str) -> None:
    if how == "amend":
        run_git(root, "commit", "-q", "--amend", "-m", "amended")
    elif how == "rebase":
        run_git(root, "checkout", "-q", "-b", "side", "HEAD~1")
        write(root, "side.txt", "side\n")
        run_git(root, "add", "side.txt")
        run_git(root, "commit", "-q", "-m", "side")
        run_git(root, "checkout", "-q", "main")
        run_git(root, "rebase", "-q", "side")
        run_git(root, "branch", "-q", "-D", "side")
    elif how == "reset-hard":
        run_git(root, "reset", "-q", "--hard", "HEAD~1")
    elif how == "gc-only":
        pass
    run_git(root, "reflog", "expire", "--expire=now", "--all")
    run_git(root, "gc", "-q", "--prune=now", "--aggressive")


@pytest.mark.parametrize("how", ["gc-only", "amend", "rebase", "reset-hard"])
def test_checkpoints_survive_history_rewrites_and_gc(tmp_path: Path, how: str) -> None:
    """After amend/rebase/reset, reflog expire and gc --aggressive, every object is readable."""
    root = init_repo(tmp_path / "r", {"f.txt": "one\n"})
    write(root, "f.txt", "two\n")
    run_git(root, "commit", "-q", "-am", "two")
    base = gtext(root, "rev-parse", "HEAD")
    store = make_store(root)
    write(root, "f.txt", "unique tracked edit 7f3a\n")
    write(root, "untracked.txt", "unique untracked 9c1e\n")
    meta = store.create("before rewrite")
    run_git(root, "checkout", "-q", "--", "f.txt")
    (root / "untracked.txt").unlink()
    _rewrite_history(root, how)
    listing = gtext(root, "rev-list", "--objects", meta.commit).splitlines()
    objects = [line.split(" ", 1)[0] for line in listing]
    assert base in objects
    for obj in [meta.commit, meta.tree, base, *objects]:
        run_git(root, "cat-file", "-e", obj)
    assert content(root, meta, "f.txt") == b"unique tracked edit 7f3a\n"
    assert content(root, meta, "untracked.txt") == b"unique untracked 9c1e\n"
    again = store.get(meta.checkpoint_id)
    assert again.metadata_complete
    assert again.base_head == base
    assert [m.checkpoint_id for m in store.all()] == [meta.checkpoint_id]
    run_git(root, "fsck", "--no-dangling")


def test_create_still_works_after_the_users_gc(tmp_path: Path) -> None:
    """The user's ``gc --prune=now`` between two checkpoints does not break the next."""
    root = init_repo(tmp_path / "r", {"f.txt": "one\n"})
    store = make_store(root)
    write(root, "f.txt", "two\n", old=True)
    store.create()
    run_git(root, "gc", "-q", "--prune=now")
    write(root, "g.txt", "new\n", old=True)
    meta = store.create()
    assert meta.tree == oracle_tree(root)


def test_create_after_a_working_tree_diff_and_the_users_gc(tmp_path: Path) -> None:
    """After a working-tree diff and the user's gc --prune=now, the next create is exact."""
    root = init_repo(tmp_path / "r", {"f.txt": "one\n"})
    store = make_store(root)
    write(root, "f.txt", "two\n", old=True)
    first = store.create()
    write(root, "f.txt", "three\n")
    os.utime(root / "f.txt", (OLD + 60, OLD + 60))  # old: the index entry is trusted
    assert [c.path for c in store.diff(first.checkpoint_id)] == ["f.txt"]
    run_git(root, "gc", "-q", "--prune=now")
    meta = store.create()
    assert content(root, meta, "f.txt") == b"three\n"


# -- 4. no commits yet -----------------------------------------------------------------------


def test_repo_without_commits_and_without_an_index(tmp_path: Path) -> None:
    """With no commits and no index: a parentless checkpoint, base_head None, all files in it."""
    root = init_repo(tmp_path / "r")
    assert not (root / ".git" / "index").exists()
    write(root, "a.txt", "a\n")
    write(root, "src/b.txt", "b\n")
    before = user_state(root)
    meta = make_store(root).create("first ever")
    assert_same_state(before, user_state(root))
    assert meta.base_head is None
    assert gtext(root, "rev-list", "--parents", "-n", "1", meta.commit) == meta.commit
    assert set(tree_of(root, meta.commit)) == {"a.txt", "src/b.txt"}
    assert meta.file_count == 2
    assert not (root / ".git" / "index").exists()


def test_repo_without_commits_with_staged_files(tmp_path: Path) -> None:
    """Before the first commit, staged and untracked files are both in the checkpoint."""
    root = init_repo(tmp_path / "r")
    write(root, "staged.txt", "s\n")
    run_git(root, "add", "staged.txt")
    write(root, "staged.txt", "s edited\n")
    write(root, "loose.txt", "l\n")
    meta = make_store(root).create()
    assert meta.base_head is None
    assert content(root, meta, "staged.txt") == b"s edited\n"
    assert "loose.txt" in tree_of(root, meta.commit)
    assert meta.tree == oracle_tree(root)


def test_empty_repo_gives_an_empty_checkpoint(tmp_path: Path) -> None:
    """No commits and no files: the checkpoint is the empty tree, 0 files."""
    root = init_repo(tmp_path / "r")
    meta = make_store(root).create()
    assert (meta.tree, meta.file_count, meta.base_head) == (EMPTY_TREE, 0, None)


def test_first_commit_after_checkpoints_becomes_the_base(tmp_path: Path) -> None:
    """Once the repo has a commit, the next checkpoint's base_head and parent are it."""
    root = init_repo(tmp_path / "r")
    write(root, "a.txt", "a\n")
    store = make_store(root)
    store.create()
    run_git(root, "add", "-A")
    run_git(root, "commit", "-q", "-m", "first")
    meta = store.create()
    head = gtext(root, "rev-parse", "HEAD")
    assert not meta.reused
    assert meta.base_head == head
    assert gtext(root, "rev-parse", f"{meta.commit}^") == head
