"""Checkpoint reuse after git changes: HEAD moves, the user's index changes, the last
checkpoint's ref is packed or deleted. The fast path must give exactly the answer the
full snapshot would.

See ``vibflow_testing.reuse`` for how the expected answer is computed (the full
snapshot path run by a fresh store)."""

from __future__ import annotations

from pathlib import Path

import pytest
from vibflow_testing.git import gtext, run_git
from vibflow_testing.repo import make_store, write
from vibflow_testing.reuse import (
    assert_same_answer,
    checkpoint_refs,
    content,
    create,
    head,
    old_repo,
)

from vibflow.steps.checkpoints.models import REF_PREFIX

# -- 6. HEAD moves --------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["commit-allow-empty", "update-ref-only"])
def test_head_moving_with_the_same_files_is_a_new_checkpoint(tmp_path: Path, how: str) -> None:
    """HEAD moved, files the same: a new checkpoint on the new base, same tree."""
    root = old_repo(tmp_path / "r", {"f.txt": "1\n"})
    write(root, "f.txt", "2\n")
    store = make_store(root)
    first = create(store)
    if how == "commit-allow-empty":
        run_git(root, "commit", "-q", "--allow-empty", "-m", "empty")
    else:  # the user's index is not written at all: only HEAD tells
        commit = gtext(root, "commit-tree", "HEAD^{tree}", "-p", "HEAD", "-m", "moved")
        run_git(root, "update-ref", "refs/heads/main", commit)
    out = create(store)
    assert not out.meta.reused
    assert out.meta.tree == first.meta.tree
    assert out.meta.base_head == head(root) != first.meta.base_head
    assert_same_answer(root, store, first.meta, out, skipped=[])


# -- 7. the user's index changes ------------------------------------------------------------


@pytest.mark.parametrize("how", ["add-edit", "add-untracked", "rm-cached", "add-then-edit"])
def test_index_only_changes_match_the_full_path(tmp_path: Path, how: str) -> None:
    """Staging what the last checkpoint already holds: the tree is right, reuse only if equal."""
    root = old_repo(tmp_path / "r", {"f.txt": "1\n", "g.txt": "g\n"})
    store = make_store(root)
    write(root, "f.txt", "2 checkpointed edit\n")
    write(root, "u.txt", "u\n")
    first = create(store)
    if how == "add-edit":
        run_git(root, "add", "f.txt")
    elif how == "add-untracked":
        run_git(root, "add", "u.txt")
    elif how == "rm-cached":
        run_git(root, "rm", "-q", "--cached", "g.txt")
    else:
        run_git(root, "add", "f.txt")
        write(root, "f.txt", "3 after staging\n")
    out = create(store)
    want = b"3 after staging\n" if how == "add-then-edit" else b"2 checkpointed edit\n"
    assert content(root, out.meta, "f.txt") == want
    assert content(root, out.meta, "g.txt") == b"g\n"
    assert content(root, out.meta, "u.txt") == b"u\n"
    assert_same_answer(root, store, first.meta, out, skipped=[])


# -- 9, 10. the last checkpoint's ref -------------------------------------------------------


def test_after_gc_packs_the_ref_the_checkpoint_is_still_reused(tmp_path: Path) -> None:
    """After gc packs the ref (no loose file), the fast path reuses it with its metadata."""
    root = old_repo(tmp_path / "r", {"f.txt": "1\n"})
    write(root, "f.txt", "2\n")
    write(root, "u.txt", "u\n")
    store = make_store(root)
    first = create(store, "before gc")
    run_git(root, "gc", "-q", "--prune=now")
    assert not (root / ".git" / REF_PREFIX / first.meta.checkpoint_id).exists()
    assert (root / ".git" / "packed-refs").read_text().count(first.meta.checkpoint_id) == 1
    out = create(store, "")  # no new words (new ones: test_checkpoint_reuse_message)
    assert out.fast
    assert out.meta.reused
    assert out.meta.checkpoint_id == first.meta.checkpoint_id
    keep = {"message", "reason", "file_count", "untracked_count", "created_at", "base_head"}
    assert out.meta.model_dump(include=keep) == first.meta.model_dump(include=keep)
    assert (out.meta.message, out.meta.reason, out.meta.file_count) == ("before gc", "manual", 2)
    assert out.meta.metadata_complete
    assert_same_answer(root, store, first.meta, out, skipped=[])


@pytest.mark.parametrize("ref", ["loose", "packed"])
def test_a_deleted_last_ref_is_never_reused(tmp_path: Path, ref: str) -> None:
    """The last checkpoint's ref deleted (loose or packed): a new checkpoint is made."""
    root = old_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    first = create(store)
    if ref == "packed":
        run_git(root, "pack-refs", "--all")
    run_git(root, "update-ref", "-d", REF_PREFIX + first.meta.checkpoint_id)
    out = create(store)
    assert not out.meta.reused
    assert checkpoint_refs(root) == [f"{REF_PREFIX}{out.meta.checkpoint_id} {out.meta.commit}"]
    assert_same_answer(root, store, first.meta, out, skipped=[], last_pinned=False)
