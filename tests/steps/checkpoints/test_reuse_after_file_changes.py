"""Checkpoint reuse after file changes: nothing changed, a same-second edit, new untracked
or ignored files, deletions. The fast path (one ``git status`` against the private index)
must give exactly the answer the full snapshot would.

See ``vibflow_testing.reuse`` for how the expected answer is computed (the full
snapshot path run by a fresh store)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from vibflow_testing.git import run_git
from vibflow_testing.repo import make_store, write
from vibflow_testing.reuse import (
    BIG,
    assert_same_answer,
    checkpoint_refs,
    content,
    create,
    old_repo,
    private_index,
    tree_of,
)

# -- 1. nothing changed -------------------------------------------------------------------


def test_nothing_changed_is_answered_by_the_fast_path_without_writing(tmp_path: Path) -> None:
    """Nothing changed: the fast path returns the last checkpoint; no ref, no user index write."""
    root = old_repo(tmp_path / "r", {"f.txt": "1\n", "g.txt": "g\n", ".gitignore": "*.log\n"})
    write(root, "f.txt", "edited\n")
    write(root, "new/u.txt", "untracked\n")
    write(root, "debug.log", "ignored\n")
    write(root, "g.txt", "g staged\n")
    run_git(root, "add", "g.txt")  # an index that differs from HEAD too
    store = make_store(root)
    first = create(store, "first")
    refs = checkpoint_refs(root)
    user_index = root / ".git" / "index"
    before = (user_index.read_bytes(), user_index.stat().st_mtime_ns)

    again = create(store, "")  # no new words (new ones: test_checkpoint_reuse_message)

    assert again.fast, "the fast path did not answer an unchanged tree"
    assert again.meta.reused
    assert again.meta.checkpoint_id == first.meta.checkpoint_id
    assert again.meta.message == "first"
    assert checkpoint_refs(root) == refs, "a new ref was written for an unchanged tree"
    assert (user_index.read_bytes(), user_index.stat().st_mtime_ns) == before
    assert_same_answer(root, store, first.meta, again, skipped=[])


# -- 2. racy git ----------------------------------------------------------------------------


def _at_start_of_a_second() -> None:
    while time.time() % 1 > 0.2:
        time.sleep(0.01)


@pytest.mark.parametrize("mtime", ["natural", "restored"])
@pytest.mark.parametrize("between", ["none", "a-reuse"])
def test_a_same_size_edit_in_the_same_second_as_the_checkpoint_is_seen(
    tmp_path: Path, mtime: str, between: str
) -> None:
    """A same-size edit in the checkpoint's own second (racy git) is never reused away.

    ``restored`` puts the old mtime back (``cp -p``, coarse-timestamp filesystems):
    only git's racy-clean check can then see the edit. ``a-reuse`` lets the fast
    path's status rewrite the private index first.
    """
    for attempt in range(5):
        root = old_repo(tmp_path / f"r{attempt}", {"f.txt": "1\n"})
        store = make_store(root)
        _at_start_of_a_second()
        second = int(time.time())
        write(root, "f.txt", "2\n")
        first = create(store)
        if between == "a-reuse":
            assert create(store).meta.reused
        old = (root / "f.txt").stat()
        write(root, "f.txt", "3\n")
        if mtime == "restored":
            os.utime(root / "f.txt", ns=(old.st_atime_ns, old.st_mtime_ns))
        index_second = private_index(root).stat().st_mtime_ns // 1_000_000_000
        if int(time.time()) == second == index_second:
            break  # edit, checkpoint and private index all in one second: racy
    else:
        pytest.fail("could not fit a checkpoint and an edit into one second in 5 tries")
    out = create(store)
    assert not out.meta.reused, "a same-second, same-size edit was reused away (racy git)"
    assert content(root, out.meta, "f.txt") == b"3\n"
    assert_same_answer(root, store, first.meta, out, skipped=[])


# -- 3. new untracked and ignored files -----------------------------------------------------


@pytest.mark.parametrize("untracked_cache", [False, True], ids=["plain", "untracked-cache"])
def test_a_new_untracked_file_is_a_new_checkpoint(tmp_path: Path, untracked_cache: bool) -> None:
    """A new untracked file (also one in an existing folder) is in a new checkpoint."""
    root = old_repo(tmp_path / "r", {"f.txt": "1\n", "src/a.py": "a\n"})
    if untracked_cache:
        run_git(root, "config", "core.untrackedCache", "true")
        run_git(root, "update-index", "--untracked-cache")
        run_git(root, "status", GIT_OPTIONAL_LOCKS="1")  # the user's status fills the cache
    store = make_store(root)
    first = create(store)
    write(root, "src/new.py", "new\n")
    out = create(store)
    assert not out.meta.reused
    assert content(root, out.meta, "src/new.py") == b"new\n"
    assert_same_answer(root, store, first.meta, out, skipped=[])
    write(root, "top.txt", "top\n")
    again = create(store)
    assert "top.txt" in tree_of(root, again.meta.commit)
    assert_same_answer(root, store, out.meta, again, skipped=[])


def test_a_new_ignored_file_is_reused_by_the_fast_path(tmp_path: Path) -> None:
    """A new .gitignore'd file changes nothing: the fast path reuses the last checkpoint."""
    root = old_repo(tmp_path / "r", {"f.txt": "1\n", ".gitignore": ".env\nbuild/\n"})
    store = make_store(root)
    first = create(store)
    write(root, ".env", "TOKEN=abc\n")
    write(root, "build/out.bin", BIG)
    out = create(store)
    assert out.fast
    assert out.meta.reused
    assert not any(p in tree_of(root, out.meta.commit) for p in (".env", "build/out.bin"))
    assert_same_answer(root, store, first.meta, out, skipped=[])


# -- 5. deletions ---------------------------------------------------------------------------


def test_a_deleted_included_untracked_file_is_a_new_checkpoint(tmp_path: Path) -> None:
    """An untracked file in the last checkpoint and deleted since is not in the next one."""
    root = old_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    write(root, "u.txt", "u\n")
    write(root, "keep.txt", "k\n")
    first = create(store)
    (root / "u.txt").unlink()
    out = create(store)
    assert not out.meta.reused
    tree = tree_of(root, out.meta.commit)
    assert "u.txt" not in tree
    assert "keep.txt" in tree
    assert_same_answer(root, store, first.meta, out, skipped=[])


def test_a_deleted_tracked_file_is_a_new_checkpoint(tmp_path: Path) -> None:
    """A tracked file deleted since the last checkpoint is not in the next one."""
    root = old_repo(tmp_path / "r", {"f.txt": "1\n", "g.txt": "g\n"})
    store = make_store(root)
    first = create(store)
    (root / "g.txt").unlink()
    out = create(store)
    assert not out.meta.reused
    assert set(tree_of(root, out.meta.commit)) == {"f.txt"}
    assert_same_answer(root, store, first.meta, out, skipped=[])
    write(root, "g.txt", "g\n", old=True)  # back as it was, the index untouched
    back = create(store)
    assert content(root, back.meta, "g.txt") == b"g\n"
    assert_same_answer(root, store, out.meta, back, skipped=[])
