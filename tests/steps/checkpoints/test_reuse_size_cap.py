"""Checkpoint reuse across the untracked-file size cap: files crossing it either way and
the cap itself changing. The fast path must give exactly the answer the full snapshot
would.

See ``vibflow_testing.reuse`` for how the expected answer is computed (the full
snapshot path run by a fresh store)."""

from __future__ import annotations

from pathlib import Path

from vibflow_testing.repo import make_store, write
from vibflow_testing.reuse import (
    BIG,
    BIGGER,
    CAP_MB,
    SMALL,
    assert_same_answer,
    content,
    create,
    old_repo,
    skipped_of,
    tree_of,
)

# -- 8. the size cap ------------------------------------------------------------------------


def test_a_file_over_the_cap_that_stays_over_is_reused(tmp_path: Path) -> None:
    """An untracked file over the cap, unchanged: reused by the fast path, same skipped list."""
    root = old_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root, untracked_size_cap_mb=CAP_MB)
    write(root, "big.bin", BIG)
    first = create(store)
    assert skipped_of(first.meta) == [("big.bin", "too_large")]
    out = create(store)
    assert out.fast
    assert out.meta.reused
    assert "big.bin" not in tree_of(root, out.meta.commit)
    assert_same_answer(root, store, first.meta, out, skipped=[("big.bin", "too_large")])


def test_a_file_over_the_cap_that_shrinks_under_it_is_included(tmp_path: Path) -> None:
    """An untracked file over the cap that shrinks under it is now in a new checkpoint."""
    root = old_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root, untracked_size_cap_mb=CAP_MB)
    write(root, "big.bin", BIG)
    first = create(store)
    write(root, "big.bin", SMALL)
    out = create(store)
    assert not out.meta.reused
    assert content(root, out.meta, "big.bin") == SMALL
    assert_same_answer(root, store, first.meta, out, skipped=[])


def test_a_file_over_the_cap_that_grows_further_stays_skipped(tmp_path: Path) -> None:
    """An untracked file over the cap that grows stays skipped; reuse keeps the skipped path."""
    root = old_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root, untracked_size_cap_mb=CAP_MB)
    write(root, "big.bin", BIG)
    first = create(store)
    write(root, "big.bin", BIGGER)
    out = create(store)
    assert "big.bin" not in tree_of(root, out.meta.commit)
    assert [s.path for s in out.meta.skipped] == ["big.bin"]
    assert_same_answer(root, store, first.meta, out, skipped=[("big.bin", "too_large")])


def test_an_included_file_grown_over_the_cap_leaves_the_checkpoint(tmp_path: Path) -> None:
    """An included untracked file that grows over the cap is skipped in a new checkpoint."""
    root = old_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root, untracked_size_cap_mb=CAP_MB)
    write(root, "grow.bin", SMALL)
    first = create(store)
    write(root, "grow.bin", BIG)
    out = create(store)
    assert not out.meta.reused
    assert "grow.bin" not in tree_of(root, out.meta.commit)
    assert_same_answer(root, store, first.meta, out, skipped=[("grow.bin", "too_large")])


def test_a_lowered_cap_skips_an_included_file_next_time(tmp_path: Path) -> None:
    """After the cap is lowered (policy edited), a file now over it leaves the next checkpoint."""
    root = old_repo(tmp_path / "r", {"f.txt": "1\n"})
    write(root, "big.bin", BIG)
    first = create(make_store(root))  # default 5 MB cap: included
    assert "big.bin" in tree_of(root, first.meta.commit)
    store = make_store(root, untracked_size_cap_mb=CAP_MB)
    out = create(store)
    assert "big.bin" not in tree_of(root, out.meta.commit), (
        f"big.bin is over the new cap but still in the checkpoint "
        f"(reused={out.meta.reused}, fast path={out.fast}); the full path skips it"
    )
    assert_same_answer(root, store, first.meta, out, skipped=[("big.bin", "too_large")])


def test_a_raised_cap_includes_a_skipped_file_next_time(tmp_path: Path) -> None:
    """After the cap is raised, a file skipped before is included in a new checkpoint."""
    root = old_repo(tmp_path / "r", {"f.txt": "1\n"})
    write(root, "big.bin", BIG)
    first = create(make_store(root, untracked_size_cap_mb=CAP_MB))
    store = make_store(root)
    out = create(store)
    assert content(root, out.meta, "big.bin") == BIG
    assert_same_answer(root, store, first.meta, out, skipped=[])
