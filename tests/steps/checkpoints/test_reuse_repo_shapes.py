"""Checkpoint reuse in unusual repositories: nested repositories, linked worktrees,
submodules. The fast path must give exactly the answer the full snapshot would.

See ``vibflow_testing.reuse`` for how the expected answer is computed (the full
snapshot path run by a fresh store)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from vibflow_testing.git import gtext, run_git
from vibflow_testing.repo import make_store, with_submodule, write
from vibflow_testing.reuse import (
    assert_same_answer,
    content,
    create,
    head,
    old_repo,
    skipped_of,
    tree_of,
)

from vibflow.steps.workspace.git import Git

# -- 11. nested repositories ----------------------------------------------------------------


@pytest.mark.parametrize("with_commit", [False, True], ids=["empty-nested", "nested-with-commit"])
def test_a_nested_repo_that_stays_is_reused_and_listed(tmp_path: Path, with_commit: bool) -> None:
    """A nested repository left alone: reused by the fast path, still listed as skipped."""
    root = old_repo(tmp_path / "r", {"f.txt": "1\n"})
    nested = old_repo(root / "vendor" / "lib", {"lib.py": "x\n"} if with_commit else None)
    write(root, "vendor/sibling.txt", "mine\n")
    store = make_store(root)
    first = create(store)
    assert skipped_of(first.meta) == [("vendor/lib", "nested_repo")]
    write(nested, "work.py", "changes inside the nested repo\n")
    out = create(store)
    assert out.fast
    assert out.meta.reused
    assert skipped_of(out.meta) == [("vendor/lib", "nested_repo")]
    assert not any(p.startswith("vendor/lib") for p in tree_of(root, out.meta.commit))
    assert_same_answer(root, store, first.meta, out, skipped=[("vendor/lib", "nested_repo")])


def test_an_included_folder_that_becomes_a_nested_repo_leaves_the_checkpoint(
    tmp_path: Path,
) -> None:
    """An untracked folder included before and `git init`ed since is skipped as nested_repo."""
    root = old_repo(tmp_path / "r", {"f.txt": "1\n"})
    write(root, "tool/main.py", "print()\n")
    store = make_store(root)
    first = create(store)
    assert "tool/main.py" in tree_of(root, first.meta.commit)
    run_git(root / "tool", "init", "-q")
    out = create(store)
    assert skipped_of(out.meta) == [("tool", "nested_repo")], (
        f"tool/ is a nested repository now but the checkpoint says skipped="
        f"{skipped_of(out.meta)} and holds {sorted(tree_of(root, out.meta.commit))} "
        f"(reused={out.meta.reused}, fast path={out.fast}); the full path skips it"
    )
    assert "tool/main.py" not in tree_of(root, out.meta.commit)
    assert_same_answer(root, store, first.meta, out, skipped=[("tool", "nested_repo")])


def test_a_nested_repo_that_loses_its_git_folder_is_included(tmp_path: Path) -> None:
    """A nested repository whose .git is removed becomes plain files, included next time."""
    root = old_repo(tmp_path / "r", {"f.txt": "1\n"})
    nested = old_repo(root / "lib", {"lib.py": "x\n"})
    store = make_store(root)
    first = create(store)
    shutil.rmtree(nested / ".git")
    out = create(store)
    assert content(root, out.meta, "lib/lib.py") == b"x\n"
    assert_same_answer(root, store, first.meta, out, skipped=[])


# -- 12. linked worktrees -------------------------------------------------------------------


def test_reuse_works_in_a_linked_worktree(tmp_path: Path) -> None:
    """In a linked worktree (.git is a gitdir: file) checkpoints are exact and reused."""
    main = old_repo(tmp_path / "main", {"f.txt": "main\n"})
    linked = tmp_path / "linked"
    run_git(main, "worktree", "add", "-q", "-b", "wt", str(linked))
    assert (linked / ".git").is_file()
    assert Git(linked).git_dir() == (main / ".git" / "worktrees" / "linked").resolve()
    write(linked, "f.txt", "edited in linked\n")
    write(linked, "only_linked.txt", "l\n")
    store = make_store(linked)
    first = create(store)
    assert content(linked, first.meta, "f.txt") == b"edited in linked\n"
    assert first.meta.base_head == head(linked)

    write(main, "f.txt", "edited in main\n")  # the other worktree is not ours
    write(main, "only_main.txt", "m\n")
    out = create(store)
    assert out.fast
    assert out.meta.reused
    assert_same_answer(linked, store, first.meta, out, skipped=[])

    write(linked, "only_linked.txt", "l2\n")
    changed = create(store)
    assert not changed.meta.reused
    assert content(linked, changed.meta, "only_linked.txt") == b"l2\n"
    assert_same_answer(linked, store, first.meta, changed, skipped=[])

    run_git(linked, "commit", "-q", "--allow-empty", "-m", "wt moves")
    moved = create(store)
    assert moved.meta.base_head == head(linked) != head(main)
    assert_same_answer(linked, store, changed.meta, moved, skipped=[])


# -- 13. submodules -------------------------------------------------------------------------


def test_a_submodule_with_only_dirty_content_is_reused(tmp_path: Path) -> None:
    """Uncommitted edits and new files inside a submodule leave the gitlink: reused."""
    root, sub = with_submodule(tmp_path, old=True)
    store = make_store(root)
    first = create(store)
    gitlink = ("160000", gtext(sub, "rev-parse", "HEAD"))
    assert tree_of(root, first.meta.commit)["sub"] == gitlink
    write(sub, "lib.py", "edited, not committed\n")
    write(sub, "scratch.txt", "untracked in the submodule\n")
    out = create(store)
    assert out.meta.reused
    assert tree_of(root, out.meta.commit)["sub"] == gitlink
    assert not any(p.startswith("sub/") for p in tree_of(root, out.meta.commit))
    assert_same_answer(root, store, first.meta, out, skipped=[])


def test_a_submodule_whose_head_moved_is_a_new_checkpoint(tmp_path: Path) -> None:
    """A new commit checked out in a submodule moves the gitlink: a new checkpoint."""
    root, sub = with_submodule(tmp_path, old=True)
    store = make_store(root)
    first = create(store)
    write(sub, "lib.py", "v2\n")
    run_git(sub, "commit", "-q", "-am", "v2")
    out = create(store)
    assert not out.meta.reused
    assert tree_of(root, out.meta.commit)["sub"] == ("160000", gtext(sub, "rev-parse", "HEAD"))
    assert_same_answer(root, store, first.meta, out, skipped=[])
