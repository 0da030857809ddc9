"""Checkpoints (DESIGN §4.1) never touch the user's state: every operation leaves files,
index, refs and merge state byte for byte, whatever the user's git configuration, and a
create killed midway leaves no ref and no damage. Real git repositories, real processes."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from vibflow_testing.git import git_proc, run_git
from vibflow_testing.repo import init_repo, make_store, write
from vibflow_testing.snapshots import (
    assert_same_state,
    busy_repo,
    content,
    oracle_tree,
    tree_of,
    user_state,
)

# -- 1. invariants ----------------------------------------------------------------------


def test_every_operation_leaves_the_users_state_byte_for_byte(tmp_path: Path) -> None:
    """create/list/show/diff/reuse/prune/size leave the user's git state and files byte for byte."""
    root = busy_repo(tmp_path / "r")
    store = make_store(root)
    before = user_state(root)
    first = store.create("first")
    assert_same_state(before, user_state(root))
    write(root, "notes/more.md", "more\n")
    before = user_state(root)
    second = store.create("second")
    steps: list[Callable[[], object]] = [
        store.all,
        lambda: store.get(first.checkpoint_id),
        lambda: store.diff(first.checkpoint_id),
        lambda: store.diff(first.checkpoint_id, second.checkpoint_id),
        lambda: store.create("again"),
        store.working_tree,
        lambda: store.prune(dry_run=True),
        store.prune,
        store.size_bytes,
    ]
    for step in steps:
        step()
        assert_same_state(before, user_state(root))


def test_a_checkpoint_during_a_merge_conflict_keeps_the_conflict(tmp_path: Path) -> None:
    """Mid-merge, the checkpoint holds the conflicted file as on disk; merge state untouched."""
    root = init_repo(tmp_path / "r", {"f.txt": "base\n"})
    run_git(root, "checkout", "-q", "-b", "other")
    write(root, "f.txt", "theirs\n")
    run_git(root, "commit", "-q", "-am", "theirs")
    run_git(root, "checkout", "-q", "main")
    write(root, "f.txt", "ours\n")
    run_git(root, "commit", "-q", "-am", "ours")
    merge = git_proc(root, "merge", "other", check=False)
    assert merge.returncode != 0
    assert (root / ".git" / "MERGE_HEAD").exists()
    before = user_state(root)
    meta = make_store(root).create("mid-merge")
    assert_same_state(before, user_state(root))
    assert content(root, meta, "f.txt") == (root / "f.txt").read_bytes()
    assert b"<<<<<<<" in content(root, meta, "f.txt")


@pytest.mark.parametrize(
    "config",
    [
        pytest.param({"index.version": "4"}, id="index-v4"),
        pytest.param({"core.splitIndex": "true"}, id="split-index"),
        pytest.param({"core.untrackedCache": "true"}, id="untracked-cache"),
        pytest.param({"commit.gpgSign": "true", "gpg.program": "false"}, id="gpgsign"),
    ],
)
def test_user_git_configuration_is_respected_and_untouched(
    tmp_path: Path, config: dict[str, str]
) -> None:
    """Index v4, split index, untracked cache, gpgSign: exact tree and count, nothing written."""
    root = init_repo(tmp_path / "r")
    for key, value in config.items():
        run_git(root, "config", key, value)
    for i in range(200):
        write(root, f"d/f{i}.txt", f"{i}\n", old=True)  # no racy entries: stable index
    run_git(root, "add", "-A")
    run_git(root, "-c", "commit.gpgSign=false", "commit", "-q", "-m", "init")
    # A plain `git status` (optional locks allowed) writes the index extensions.
    git_proc(root, "status", "-uall", optional_locks=True)
    if "core.splitIndex" in config:
        run_git(root, "update-index", "--split-index")
    write(root, "d/f1.txt", "changed\n")
    write(root, "new.txt", "new\n")
    before = user_state(root)
    meta = make_store(root).create()
    assert_same_state(before, user_state(root))
    assert meta.tree == oracle_tree(root)
    assert meta.file_count == len(tree_of(root, meta.commit)) == 201


# -- 6. orphans ----------------------------------------------------------------------------


def test_a_stale_private_index_lock_does_not_block(tmp_path: Path) -> None:
    """A leftover private index.lock is cleared and the next checkpoint is exact."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    store.create()
    lock = root / ".vibflow" / "checkpoints" / "index.lock"
    lock.write_bytes(b"half-written index from a killed git")
    write(root, "f.txt", "2\n")
    meta = store.create()
    assert not lock.exists()
    assert meta.tree == oracle_tree(root)


_KILL_AT_RECORDING = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from vibflow.steps.checkpoints.store import CheckpointStore
    from vibflow.steps.workspace.root import state_dir

    def die(what):
        if what == "recording the checkpoint":
            os.kill(os.getpid(), signal.SIGKILL)

    root = Path(sys.argv[1])
    CheckpointStore(root, state_dir(root)).create("doomed", progress=die)
    """
)


def _killed_create(root: Path) -> None:
    """A real process killed after hashing, before the checkpoint is recorded."""
    proc = subprocess.run([sys.executable, "-c", _KILL_AT_RECORDING, str(root)], check=False)
    assert proc.returncode == -signal.SIGKILL


@pytest.mark.cli
def test_a_create_killed_before_recording_leaves_no_ref_and_no_damage(tmp_path: Path) -> None:
    """A create killed before recording leaves no ref, no user change, and the next is exact."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    store.create()
    write(root, "f.txt", "2 changed\n")
    write(root, "new.txt", "n\n")
    before = user_state(root)
    _killed_create(root)
    assert_same_state(before, user_state(root))
    assert len(store.all()) == 1
    meta = store.create()
    assert not meta.reused
    assert meta.tree == oracle_tree(root)


@pytest.mark.cli
def test_a_killed_create_cannot_leak_a_later_ignored_file(tmp_path: Path) -> None:
    """A file hashed by a killed create and ignored afterwards stays out of the next one."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    store.create()
    write(root, "token.txt", "TOKEN=abc\n")
    _killed_create(root)
    write(root, ".gitignore", "token.txt\n")
    meta = store.create()
    assert "token.txt" not in tree_of(root, meta.commit)
    assert meta.tree == oracle_tree(root)
