"""Checkpoint reuse: the fast path (one ``git status`` against the private index)
must give exactly the answer the full snapshot would.

Every test builds a real repository, makes one kind of change after a checkpoint
and creates again. The expected answer comes from the full snapshot path run by
a *fresh* store (its own state folder, so no shortcut and no memory of the last
checkpoint): the new checkpoint's tree must equal that tree, and the last
checkpoint may come back (``reused``) only when that tree, HEAD and the skipped
list are all unchanged. Trees are also read back with ``git ls-tree -r``.

Which path answered is seen through ``progress``: the full snapshot reports its
steps, the fast path reports none. Real git, real files; nothing is mocked.
"""

from __future__ import annotations

import os
import shutil
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest
import vibflow_testing.repo as repokit
from vibflow_testing.git import git_proc, gtext, run_git
from vibflow_testing.repo import ignore_outside_tree, make_store, with_submodule, write

from vibflow.engine.errors import VibflowError
from vibflow.steps.checkpoints.models import REF_PREFIX, CheckpointMeta, CheckpointPolicy
from vibflow.steps.checkpoints.store import CheckpointStore
from vibflow.steps.workspace.git import Git

CAP_MB = 0.01  # 10,485 bytes: small enough to cross with test files
SMALL = b"s" * 1_000
BIG = b"b" * 20_000
BIGGER = b"B" * 40_000

# -- helpers ------------------------------------------------------------------------------


def init_repo(root: Path, files: dict[str, str] | None = None) -> Path:
    """A git repository at ``root`` with one commit of ``files`` (if any), all old mtimes."""
    return repokit.init_repo(root, files, old=True)


@dataclass(frozen=True)
class Outcome:
    meta: CheckpointMeta
    fast: bool  # answered without a full snapshot (no progress reported)


def create(store: CheckpointStore, message: str = "") -> Outcome:
    steps: list[str] = []
    meta = store.create(message, progress=steps.append)
    return Outcome(meta, fast=not steps)


def tree_of(root: Path, rev: str) -> dict[str, tuple[str, str]]:
    """``path -> (mode, object)`` from ``git ls-tree -r <rev>``, names exact."""
    out = run_git(root, "ls-tree", "-r", "-z", "--full-tree", rev)
    entries: dict[str, tuple[str, str]] = {}
    for record in out.split(b"\0"):
        if record:
            head, name = record.split(b"\t", 1)
            mode, _kind, obj = head.decode().split()
            entries[name.decode("utf-8", "surrogateescape")] = (mode, obj)
    return entries


def content(root: Path, meta: CheckpointMeta, rel: str) -> bytes:
    return run_git(root, "cat-file", "blob", tree_of(root, meta.commit)[rel][1])


def head(root: Path) -> str | None:
    probe = git_proc(root, "rev-parse", "-q", "--verify", "HEAD", check=False)
    return probe.stdout.decode().strip() or None


def checkpoint_refs(root: Path) -> list[str]:
    return gtext(root, "for-each-ref", "--format=%(refname) %(objectname)", REF_PREFIX).split("\n")


def full_path_tree(root: Path, policy: CheckpointPolicy) -> str:
    """The tree the full snapshot path gives now: a fresh store, no memory, no fast path."""
    fresh = CheckpointStore(root, root.parent / f"oracle-{uuid.uuid4().hex}", policy)
    return fresh.working_tree()


def skipped_of(meta: CheckpointMeta) -> list[tuple[str, str]]:
    return sorted((s.path, s.reason) for s in meta.skipped)


def assert_same_answer(
    root: Path,
    store: CheckpointStore,
    last: CheckpointMeta,
    out: Outcome,
    *,
    skipped: list[tuple[str, str]],
    last_pinned: bool = True,
) -> None:
    """``out`` is what the full snapshot path would answer after ``last``.

    Its tree is the full path's tree (read from the commit too), its skipped list is
    ``skipped``, its base is HEAD, and it is the last checkpoint again exactly when
    tree, HEAD and skipped paths are unchanged and the last checkpoint still exists.
    """
    expected = full_path_tree(root, store.policy)
    meta = out.meta
    assert meta.tree == expected, "the checkpoint's tree differs from the full snapshot's"
    assert gtext(root, "rev-parse", meta.commit + "^{tree}") == expected
    assert skipped_of(meta) == sorted(skipped)
    assert meta.base_head == head(root)
    identical = (
        expected == last.tree
        and head(root) == last.base_head
        and sorted(p for p, _ in skipped) == sorted(s.path for s in last.skipped)
        and last_pinned
    )
    assert meta.reused == identical, (
        f"reused={meta.reused} (fast path: {out.fast}) but the full snapshot path "
        f"{'reuses' if identical else 'makes a new checkpoint'}"
    )
    if meta.reused:
        assert (meta.checkpoint_id, meta.commit) == (last.checkpoint_id, last.commit)
    else:
        assert meta.checkpoint_id != last.checkpoint_id
        assert f"{REF_PREFIX}{meta.checkpoint_id} {meta.commit}" in checkpoint_refs(root)


def private_index(root: Path) -> Path:
    return root / ".vibflow" / "checkpoints" / "index"


# -- 1. nothing changed -------------------------------------------------------------------


def test_nothing_changed_is_answered_by_the_fast_path_without_writing(tmp_path: Path) -> None:
    """Nothing changed: the fast path returns the last checkpoint; no ref, no user index write."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n", "g.txt": "g\n", ".gitignore": "*.log\n"})
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

    again = create(store, "second")

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
        root = init_repo(tmp_path / f"r{attempt}", {"f.txt": "1\n"})
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
    root = init_repo(tmp_path / "r", {"f.txt": "1\n", "src/a.py": "a\n"})
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
    root = init_repo(tmp_path / "r", {"f.txt": "1\n", ".gitignore": ".env\nbuild/\n"})
    store = make_store(root)
    first = create(store)
    write(root, ".env", "TOKEN=abc\n")
    write(root, "build/out.bin", BIG)
    out = create(store)
    assert out.fast
    assert out.meta.reused
    assert not any(p in tree_of(root, out.meta.commit) for p in (".env", "build/out.bin"))
    assert_same_answer(root, store, first.meta, out, skipped=[])


# -- 4. ignored from outside the tree -------------------------------------------------------


@pytest.mark.parametrize("name", ["notes.txt", "dir/notes.txt"])
def test_an_included_file_ignored_via_info_exclude_leaves_the_next_checkpoint(
    tmp_path: Path, name: str
) -> None:
    """An included untracked file newly ignored in .git/info/exclude is dropped, not reused."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
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
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    write(root, "secret.key", "k\n")
    first = create(store)
    excludes = write(tmp_path, "global-ignore", "*.key\n")
    run_git(root, "config", "core.excludesFile", str(excludes))
    out = create(store)
    assert "secret.key" not in tree_of(root, out.meta.commit)
    assert_same_answer(root, store, first.meta, out, skipped=[])


@pytest.mark.parametrize("name", [":secret.txt", ":/top.txt"])
def test_a_file_named_like_pathspec_magic_ignored_via_info_exclude_leaves(
    tmp_path: Path, name: str
) -> None:
    """A name starting with ':' newly ignored in info/exclude is dropped like any other."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
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
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
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


# -- 5. deletions ---------------------------------------------------------------------------


def test_a_deleted_included_untracked_file_is_a_new_checkpoint(tmp_path: Path) -> None:
    """An untracked file in the last checkpoint and deleted since is not in the next one."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
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
    root = init_repo(tmp_path / "r", {"f.txt": "1\n", "g.txt": "g\n"})
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


# -- 6. HEAD moves --------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["commit-allow-empty", "update-ref-only"])
def test_head_moving_with_the_same_files_is_a_new_checkpoint(tmp_path: Path, how: str) -> None:
    """HEAD moved, files the same: a new checkpoint on the new base, same tree."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
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
    root = init_repo(tmp_path / "r", {"f.txt": "1\n", "g.txt": "g\n"})
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


# -- 8. the size cap ------------------------------------------------------------------------


def test_a_file_over_the_cap_that_stays_over_is_reused(tmp_path: Path) -> None:
    """An untracked file over the cap, unchanged: reused by the fast path, same skipped list."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
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
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
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
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
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
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
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
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
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
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    write(root, "big.bin", BIG)
    first = create(make_store(root, untracked_size_cap_mb=CAP_MB))
    store = make_store(root)
    out = create(store)
    assert content(root, out.meta, "big.bin") == BIG
    assert_same_answer(root, store, first.meta, out, skipped=[])


# -- 9, 10. the last checkpoint's ref -------------------------------------------------------


def test_after_gc_packs_the_ref_the_checkpoint_is_still_reused(tmp_path: Path) -> None:
    """After gc packs the ref (no loose file), the fast path reuses it with its metadata."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    write(root, "f.txt", "2\n")
    write(root, "u.txt", "u\n")
    store = make_store(root)
    first = create(store, "before gc")
    run_git(root, "gc", "-q", "--prune=now")
    assert not (root / ".git" / REF_PREFIX / first.meta.checkpoint_id).exists()
    assert (root / ".git" / "packed-refs").read_text().count(first.meta.checkpoint_id) == 1
    out = create(store, "after gc")
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
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    first = create(store)
    if ref == "packed":
        run_git(root, "pack-refs", "--all")
    run_git(root, "update-ref", "-d", REF_PREFIX + first.meta.checkpoint_id)
    out = create(store)
    assert not out.meta.reused
    assert checkpoint_refs(root) == [f"{REF_PREFIX}{out.meta.checkpoint_id} {out.meta.commit}"]
    assert_same_answer(root, store, first.meta, out, skipped=[], last_pinned=False)


# -- 11. nested repositories ----------------------------------------------------------------


@pytest.mark.parametrize("with_commit", [False, True], ids=["empty-nested", "nested-with-commit"])
def test_a_nested_repo_that_stays_is_reused_and_listed(tmp_path: Path, with_commit: bool) -> None:
    """A nested repository left alone: reused by the fast path, still listed as skipped."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    nested = init_repo(root / "vendor" / "lib", {"lib.py": "x\n"} if with_commit else None)
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
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
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
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    nested = init_repo(root / "lib", {"lib.py": "x\n"})
    store = make_store(root)
    first = create(store)
    shutil.rmtree(nested / ".git")
    out = create(store)
    assert content(root, out.meta, "lib/lib.py") == b"x\n"
    assert_same_answer(root, store, first.meta, out, skipped=[])


# -- 12. linked worktrees -------------------------------------------------------------------


def test_reuse_works_in_a_linked_worktree(tmp_path: Path) -> None:
    """In a linked worktree (.git is a gitdir: file) checkpoints are exact and reused."""
    main = init_repo(tmp_path / "main", {"f.txt": "main\n"})
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
