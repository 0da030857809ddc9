"""When a checkpoint is reused and when a new one is made: nothing changed reuses, a new
commit, a sandwich, a deleted ref or changed files do not. Real git repositories."""

from __future__ import annotations

from pathlib import Path

from vibflow_testing.git import gtext, run_git
from vibflow_testing.repo import init_repo, make_store, write
from vibflow_testing.snapshots import content, oracle_tree, tree_of

from vibflow.steps.checkpoints.models import REF_PREFIX

# -- 5. reuse -----------------------------------------------------------------------------


def test_nothing_changed_reuses_the_last_checkpoint(tmp_path: Path) -> None:
    """Nothing changed (and nothing new said): same id, reused true, no new ref; after
    a change a new id. (New words over an unchanged tree: test_checkpoint_reuse_message.)"""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    write(root, "u.txt", "u\n")
    first = store.create("one")
    second = store.create()
    assert second.checkpoint_id == first.checkpoint_id
    assert (first.reused, second.reused) == (False, True)
    assert second.message == "one"
    assert len(store.all()) == 1
    write(root, "f.txt", "2\n")
    third = store.create("three")
    assert third.checkpoint_id != first.checkpoint_id
    assert not third.reused
    assert len(store.all()) == 2


def test_a_new_commit_with_the_same_tree_is_a_new_checkpoint(tmp_path: Path) -> None:
    """A new commit moves HEAD, so the next checkpoint is new and based on it."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    write(root, "f.txt", "2\n")
    first = store.create()
    run_git(root, "commit", "-q", "-am", "two")
    second = store.create()
    assert second.checkpoint_id != first.checkpoint_id
    assert second.tree == first.tree
    assert second.base_head == gtext(root, "rev-parse", "HEAD")


def test_sandwich_checkpoints_are_never_reused(tmp_path: Path) -> None:
    """A sandwich checkpoint is always its own, even with nothing changed."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    a = store.create(reason="sandwich")
    b = store.create(reason="sandwich")
    assert a.checkpoint_id != b.checkpoint_id
    assert not b.reused
    assert {m.reason for m in store.all()} == {"sandwich"}


def test_a_deleted_last_checkpoint_is_not_reused(tmp_path: Path) -> None:
    """If the last checkpoint's ref is gone, an unchanged tree makes a fresh one."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    first = store.create()
    run_git(root, "update-ref", "-d", REF_PREFIX + first.checkpoint_id)
    second = store.create()
    assert not second.reused
    assert second.checkpoint_id != first.checkpoint_id
    assert [m.checkpoint_id for m in store.all()] == [second.checkpoint_id]


def test_a_newly_ignored_file_leaves_the_next_checkpoint(tmp_path: Path) -> None:
    """An untracked file snapshotted once and then ignored is not in the next checkpoint."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    # Not a secret-shaped name (those are never included, ignored or not).
    write(root, "local.cfg", "TOKEN=abc\n")
    first = store.create()
    assert "local.cfg" in tree_of(root, first.commit)
    write(root, ".gitignore", "*.cfg\n")
    second = store.create()
    assert "local.cfg" not in tree_of(root, second.commit)
    assert second.tree == oracle_tree(root)


def test_untracked_file_changes_between_checkpoints(tmp_path: Path) -> None:
    """Untracked files edited, deleted, grown past the cap or made a repo show next time."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root, untracked_size_cap_mb=0.01)
    write(root, "edit.txt", "v1\n")
    write(root, "delete.txt", "bye\n")
    write(root, "grow.txt", "small\n")
    write(root, "becomes_repo/file.txt", "x\n")
    store.create()
    write(root, "edit.txt", "v2\n")
    (root / "delete.txt").unlink()
    write(root, "grow.txt", b"g" * 20_000)
    init_repo(root / "becomes_repo")
    meta = store.create()
    tree = tree_of(root, meta.commit)
    assert content(root, meta, "edit.txt") == b"v2\n"
    assert "delete.txt" not in tree
    assert "grow.txt" not in tree
    assert not any(p.startswith("becomes_repo") for p in tree)
    assert {(s.path, s.reason) for s in meta.skipped} == {
        ("grow.txt", "too_large"),
        ("becomes_repo", "nested_repo"),
    }


def test_a_new_skipped_file_is_reported_even_when_the_tree_is_unchanged(tmp_path: Path) -> None:
    """A new too-large file is listed as skipped even when the tree is unchanged."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root, untracked_size_cap_mb=0.01)
    store.create()
    write(root, "huge.bin", b"h" * 20_000)
    meta = store.create()
    assert [(s.path, s.reason) for s in meta.skipped] == [("huge.bin", "too_large")]


def test_staging_between_checkpoints_keeps_content_exact(tmp_path: Path) -> None:
    """Staging, unstaging, rm --cached and committing between checkpoints keep content exact."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n", "g.txt": "g\n"})
    store = make_store(root)
    write(root, "u.txt", "u\n")
    store.create()
    write(root, "f.txt", "2\n")
    run_git(root, "add", "f.txt", "u.txt")
    write(root, "f.txt", "3 edited after staging\n")
    m1 = store.create()
    assert content(root, m1, "f.txt") == b"3 edited after staging\n"
    assert content(root, m1, "u.txt") == b"u\n"
    assert m1.tree == oracle_tree(root)
    run_git(root, "reset", "-q", "u.txt")
    run_git(root, "rm", "-q", "--cached", "g.txt")
    m2 = store.create()
    assert content(root, m2, "g.txt") == b"g\n"
    assert m2.tree == oracle_tree(root)
    run_git(root, "add", "-A")
    run_git(root, "commit", "-q", "-m", "all")
    write(root, "g.txt", "g2\n")
    m3 = store.create()
    assert content(root, m3, "g.txt") == b"g2\n"
    assert m3.tree == oracle_tree(root)
