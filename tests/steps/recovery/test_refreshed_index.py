"""After an agent rewrote files with the same bytes, the refresh git's diff made in a
preview's index copy is kept for the next preview while the user's index is the
same file — and it never hides a change (steps/recovery/refreshed_index.py)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from vibflow_testing.git import git
from vibflow_testing.repo import init_repo, write

from vibflow.steps.recovery import refreshed_index
from vibflow.steps.recovery.early_listing import list_changes
from vibflow.steps.recovery.scratch import new_scratch
from vibflow.steps.workspace import diffs
from vibflow.steps.workspace.git import Git

FILES = {f"src/m{i}.py": f"VALUE = {i}\n" for i in range(30)}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = init_repo(tmp_path / "r", FILES, old=True)
    write(root, "src/m1.py", "VALUE = 100\n")
    return root


def _folder(root: Path) -> Path:
    return root / ".vibflow" / "recovery"


def _kept(root: Path) -> list[str]:
    folder = _folder(root)
    return sorted(p.name for p in folder.glob("refreshed-*")) if folder.exists() else []


def _touch_all(root: Path, when: float) -> None:
    """Every tracked file written again with the same bytes (a formatter, a checkout)."""
    for rel in FILES:
        path = root / rel
        path.write_bytes(path.read_bytes())
        os.utime(path, (when, when))


def _kept_file(root: Path) -> tuple[str, int] | None:
    """The kept copy's name and inode (a copy kept again is a new file)."""
    names = _kept(root)
    if not names:
        return None
    (name,) = names
    return name, (_folder(root) / name).stat().st_ino


def _listing(root: Path) -> list[tuple[str, str]]:
    """The tracked changes a preview lists."""
    g = Git(root)
    scratch = new_scratch(_folder(root))
    try:
        listing = list_changes(g, scratch, g.head() or diffs.EMPTY_TREE, counts=True)
        changes = [(c.path, c.status) for c in listing.tracked.result()]
        listing.untracked.result()
    finally:
        scratch.unlink(missing_ok=True)
    return changes


def _user_index(root: Path) -> tuple[bytes, int, int]:
    index = root / ".git" / "index"
    st = index.stat()
    return index.read_bytes(), st.st_ino, st.st_mtime_ns


def test_a_refresh_is_kept_and_the_next_listing_hashes_nothing_again(root: Path) -> None:
    _touch_all(root, 1_700_000_000)
    before = _user_index(root)
    first = _listing(root)
    assert first == [("src/m1.py", "modified")]
    kept = _kept_file(root)  # git hashed the touched files and refreshed the copy
    assert kept is not None
    assert _listing(root) == first
    # Started from the refreshed copy, git had nothing left to refresh: the copy
    # was not rewritten, so not kept again.
    assert _kept_file(root) == kept
    # The user's index is never written: same bytes, same file, same time.
    assert _user_index(root) == before


def test_nothing_is_kept_when_git_refreshed_nothing(root: Path) -> None:
    assert _listing(root) == [("src/m1.py", "modified")]
    assert _kept(root) == []


@pytest.mark.parametrize("same_size", [True, False])
def test_a_file_changed_after_the_refresh_is_still_seen(root: Path, same_size: bool) -> None:
    _touch_all(root, 1_700_000_000)
    _listing(root)
    assert len(_kept(root)) == 1
    # Right after the copy was kept, within the same second, maybe the same size:
    # only git's own stat and racy-clean checks stand between this and a missed change.
    write(root, "src/m7.py", "VALUE = 8\n" if same_size else "VALUE = 8000\n")
    assert _listing(root) == [("src/m1.py", "modified"), ("src/m7.py", "modified")]


def _fill(root: Path) -> tuple[refreshed_index.Filled, Path]:
    g = Git(root)
    scratch = new_scratch(_folder(root))
    return refreshed_index.fill(g.git_dir(), root, scratch), scratch


def _key(root: Path) -> str:
    git_dir = root / ".git"
    return refreshed_index.key_of((git_dir / "index").stat(), root, git_dir)


def _truth(root: Path) -> list[tuple[str, str]]:
    """What git itself lists from the user's index (no index write): the tracked
    changes' paths, as (path, "modified"/"deleted"/...) is not needed — paths only."""
    out = git(root, "--no-optional-locks", "status", "--porcelain=v1", "-uno")
    return sorted((line[3:], "modified") for line in out.splitlines() if line[:2].strip() == "M")


def test_a_copy_kept_for_an_older_index_is_not_used_and_is_replaced(root: Path) -> None:
    _touch_all(root, 1_700_000_000)
    _listing(root)
    (old,) = _kept(root)
    # The user stages an edit: a new index, so a new key.
    write(root, "src/m2.py", "VALUE = 200\n")
    git(root, "add", "src/m2.py")
    filled, scratch = _fill(root)
    assert filled.key is not None
    assert refreshed_index.kept_path(_folder(root), filled.key).name != old
    assert scratch.read_bytes() == (root / ".git" / "index").read_bytes()
    scratch.unlink()
    assert _kept(root) == []  # kept for an index that no longer exists: removed
    _touch_all(root, 1_700_000_100)
    assert _listing(root) == [("src/m1.py", "modified"), ("src/m2.py", "modified")]
    assert len(_kept(root)) == 1
    assert _kept(root) != [old]


def test_before_the_first_commit_there_is_nothing_to_keep(tmp_path: Path) -> None:
    root = init_repo(tmp_path / "empty")
    write(root, "a.txt", "a\n")
    filled, scratch = _fill(root)
    assert filled.key is None
    assert filled.copied is None
    assert not scratch.exists()
    refreshed_index.keep(scratch, filled)
    assert _kept(root) == []


def test_a_same_size_rewrite_in_the_second_git_hashed_the_file_is_still_seen(
    root: Path,
) -> None:
    """git trusts an entry whose file is older than the index file, comparing whole
    seconds on some builds, and here only size and mtime (core.checkStat=minimal,
    core.trustctime=false). The kept copy is dated at the start of the second its
    diff began, so a file git hashed in that second and then rewrote with the same
    size and time is still checked again — not trusted for good."""
    git(root, "config", "core.checkStat", "minimal")
    git(root, "config", "core.trustctime", "false")
    while time.time() % 1 > 0.3:  # the touch and the listing in one second
        time.sleep(0.01)
    now = time.time()
    _touch_all(root, now)
    assert _listing(root) == [("src/m1.py", "modified")]
    (kept,) = _kept(root)
    # Dated no later than the start of the second git hashed the files in.
    assert (_folder(root) / kept).stat().st_mtime_ns <= int(now) * 1_000_000_000
    path = root / "src/m7.py"
    path.write_text("VALUE = 8\n", encoding="utf-8")  # same size as "VALUE = 7\n"
    os.utime(path, (now, now))
    assert _listing(root) == [("src/m1.py", "modified"), ("src/m7.py", "modified")]


def test_a_kept_copy_is_dated_by_the_second_its_diff_began() -> None:
    """Dated at the start of the diff's second, or of the one before when the diff
    began within a clock tick of it: never later than any file git hashed."""
    second = 1_700_000_000 * 1_000_000_000
    assert refreshed_index.dated(second + 400_000_000) == second
    assert refreshed_index.dated(second + 10_000_000) == second - 1_000_000_000
    assert refreshed_index.dated(second) == second - 1_000_000_000
    # Kept again under the same key: never later than the copy it started from.
    earlier = second - 60 * 1_000_000_000
    assert refreshed_index.dated(second + 400_000_000, earlier) == earlier
    assert refreshed_index.dated(second + 400_000_000, second + 10**12) == second


def test_a_copy_kept_again_under_the_same_key_keeps_its_older_date(root: Path) -> None:
    """A listing started from the kept copy that refreshes more entries keeps the
    copy again — dated no later than before, so entries git had to look at again
    are still looked at."""
    _touch_all(root, 1_700_000_000)
    _listing(root)
    (name,) = _kept(root)
    kept = _folder(root) / name
    old = 1_600_000_000 * 1_000_000_000
    os.utime(kept, ns=(old, old))
    before = kept.stat().st_ino
    (root / "src/m9.py").touch()  # one more stat-dirty entry: git refreshes, rewrites
    assert _listing(root) == [("src/m1.py", "modified")]
    (again,) = _kept(root)
    assert again == name
    assert kept.stat().st_ino != before  # kept again (a new file) ...
    assert kept.stat().st_mtime_ns == old  # ... with the older date


@pytest.mark.parametrize("damage", ["truncated", "zeros", "empty", "a folder", "unreadable"])
def test_a_kept_copy_that_cannot_be_trusted_is_not_used(root: Path, damage: str) -> None:
    """A kept copy cut short, zeroed, empty, a folder or unreadable is never read by
    git: the listing starts from the user's index and is right."""
    _touch_all(root, 1_700_000_000)
    _listing(root)
    (name,) = _kept(root)
    kept = _folder(root) / name
    data = kept.read_bytes()
    if damage == "truncated":
        kept.write_bytes(data[: len(data) // 2])
    elif damage == "zeros":
        kept.write_bytes(b"\0" * len(data))
    elif damage == "empty":
        kept.write_bytes(b"")
    elif damage == "a folder":
        kept.unlink()
        kept.mkdir()
    else:
        if os.geteuid() == 0:
            pytest.skip("root reads any file")
        kept.chmod(0)
    write(root, "src/m5.py", "VALUE = 500\n")
    assert _listing(root) == [("src/m1.py", "modified"), ("src/m5.py", "modified")]


def test_an_attributes_change_is_not_answered_from_a_copy_kept_before_it(root: Path) -> None:
    """A refresh kept before `.gitattributes` changed is not used after: files whose
    bytes now normalise differently are listed as git lists them."""
    for rel in FILES:
        (root / rel).write_bytes((root / rel).read_bytes().replace(b"\n", b"\r\n"))
    git(root, "add", "-A")
    git(root, "commit", "-qm", "crlf")
    _touch_all(root, 1_700_000_000)
    _listing(root)
    assert len(_kept(root)) == 1
    write(root, ".gitattributes", "* text\n")
    listed = {path for path, _ in _listing(root)}
    assert listed == {path for path, _ in _truth(root)}
    assert "src/m3.py" in listed


def test_a_split_index_repository_keeps_its_shared_index(root: Path) -> None:
    """In a split-index repository the preview's copy never writes or expires the
    user's shared index files: the user's own `git status` still works after."""
    git(root, "config", "splitIndex.sharedIndexExpire", "now")
    git(root, "config", "splitIndex.maxPercentChange", "0")
    git(root, "update-index", "--split-index")
    shared = sorted(p.name for p in (root / ".git").glob("sharedindex.*"))
    assert shared
    _touch_all(root, 1_700_000_000)
    assert _listing(root) == [("src/m1.py", "modified")]
    assert _listing(root) == [("src/m1.py", "modified")]
    assert sorted(p.name for p in (root / ".git").glob("sharedindex.*")) == shared
    git(root, "status", "--porcelain")  # raises if the user's index lost its shared part
