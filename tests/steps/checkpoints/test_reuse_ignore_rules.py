"""Checkpoint reuse when a file becomes ignored from outside the tree (info/exclude,
core.excludesFile) or is named like pathspec magic: the fast path must give exactly the
answer the full snapshot would.

See ``vibflow_testing.reuse`` for how the expected answer is computed (the full
snapshot path run by a fresh store)."""

from __future__ import annotations

from pathlib import Path

import pytest
from vibflow_testing.git import gtext, run_git
from vibflow_testing.repo import ignore_outside_tree, make_store, write
from vibflow_testing.reuse import assert_same_answer, create, old_repo, tree_of

from vibflow.engine.errors import VibflowError

# -- 4. ignored from outside the tree -------------------------------------------------------


@pytest.mark.parametrize("name", ["notes.txt", "dir/notes.txt"])
def test_an_included_file_ignored_via_info_exclude_leaves_the_next_checkpoint(
    tmp_path: Path, name: str
) -> None:
    """An included untracked file newly ignored in .git/info/exclude is dropped, not reused."""
    root = old_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    write(root, name, "private\n")
    first = create(store)
    assert name in tree_of(root, first.meta.commit)
    ignore_outside_tree(root, "notes.txt")
    out = create(store)
    assert not out.meta.reused, "a file ignored via info/exclude was reused into the checkpoint"
    assert name not in tree_of(root, out.meta.commit)
    assert_same_answer(root, store, first.meta, out, skipped=[])


def test_an_included_file_ignored_via_core_excludes_file_leaves_the_next_checkpoint(
    tmp_path: Path,
) -> None:
    """An included untracked file newly ignored by core.excludesFile is dropped, not reused."""
    root = old_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    # Not a secret-shaped name (those are never included, ignored or not).
    write(root, "local.dat", "k\n")
    first = create(store)
    assert "local.dat" in tree_of(root, first.meta.commit)
    excludes = write(tmp_path, "global-ignore", "*.dat\n")
    run_git(root, "config", "core.excludesFile", str(excludes))
    out = create(store)
    assert "local.dat" not in tree_of(root, out.meta.commit)
    assert_same_answer(root, store, first.meta, out, skipped=[])


@pytest.mark.parametrize("name", [":secret.txt", ":/top.txt"])
def test_a_file_named_like_pathspec_magic_ignored_via_info_exclude_leaves(
    tmp_path: Path, name: str
) -> None:
    """A name starting with ':' newly ignored in info/exclude is dropped like any other."""
    root = old_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    write(root, name, "private\n")
    first = create(store)
    assert name in tree_of(root, first.meta.commit)
    ignore_outside_tree(root, "/" + name)
    assert gtext(root, "ls-files", "--others", "--exclude-standard") == ""  # git: ignored
    out = create(store)
    assert name not in tree_of(root, out.meta.commit), (
        f"{name!r} is ignored now but the checkpoint still holds it "
        f"(reused={out.meta.reused}, fast path={out.fast}): check-ignore read the "
        "leading ':' as pathspec magic"
    )
    assert_same_answer(root, store, first.meta, out, skipped=[])


@pytest.mark.parametrize("name", [":!x.txt", ":(exclude)y.txt", ":(glob)z.txt"])
def test_an_unchanged_tree_with_a_magic_looking_name_is_reused(tmp_path: Path, name: str) -> None:
    """An untracked file whose name starts with ':' does not break reusing an unchanged tree."""
    root = old_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    write(root, name, "kept\n")
    first = create(store)
    assert name in tree_of(root, first.meta.commit)
    try:
        out = create(store)
    except VibflowError as exc:
        pytest.fail(f"create() with nothing changed raised for the file {name!r}: {exc.message}")
    assert out.meta.reused
    assert_same_answer(root, store, first.meta, out, skipped=[])
