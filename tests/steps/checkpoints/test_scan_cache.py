"""The secret-scan verdict cache by content, and the untracked cache of the private
snapshot index: both shortcuts the agent hook's lean path takes, and neither may
change what a checkpoint holds nor touch the user's own index or config.

Real git and real files; the only stand-in is a judge whose scanner refuses to run
(our own seam), to prove a verdict came from the cache.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from vibflow_testing.git import gtext, run_git
from vibflow_testing.repo import init_repo, write

from vibflow.steps.checkpoints import gitstate, scan_cache
from vibflow.steps.checkpoints.lean_plan import UntrackedJudge
from vibflow.steps.checkpoints.lean_policy import LeanPolicy
from vibflow.steps.checkpoints.models import SecretFilesPolicy
from vibflow.steps.checkpoints.quick import QuickCheckpoints
from vibflow.steps.checkpoints.secret_files import SecretFiles
from vibflow.steps.checkpoints.store import CheckpointStore
from vibflow.steps.workspace.root import state_dir

#: A GitHub token shape the specific detectors always flag.
TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


class _NoScanJudge(UntrackedJudge):
    """A judge whose content scan must not be needed."""

    def _scan_now(self, files):  # type: ignore[no-untyped-def]
        raise AssertionError(f"scanned {[rel for rel, _ in files]}")


def _cache_file(state: Path) -> Path:
    return state / "checkpoints" / "secret_scan.json"


def test_a_verdict_is_found_again_by_the_bytes_it_was_about(tmp_path: Path) -> None:
    """The scanner answers a file from a cached content verdict of its exact bytes,
    whatever its name and stat data: a verdict planted for harmless bytes is applied
    to a new file holding them (proof no detector ran), and not to other bytes."""
    root = init_repo(tmp_path / "r", {"a.txt": "a\n"}, old=True)
    cache = _cache_file(state_dir(root))
    cache.parent.mkdir(parents=True, exist_ok=True)
    body = b"plain words\n"
    scan_cache.save(cache, 256, {}, {scan_cache.content_key(body): ["github_token"]})
    write(root, "notes/copy.txt", body)
    write(root, "notes/other.txt", b"other words\n")
    scanner = SecretFiles(root, SecretFilesPolicy(), cache)
    files = [(rel, os.lstat(root / rel)) for rel in ("notes/copy.txt", "notes/other.txt")]
    found = scanner.by_content(files)
    assert [(s.path, s.reason, s.detail) for s in found.skipped] == [
        ("notes/copy.txt", "secret_content", "github_token")
    ]
    _, contents = scan_cache.load(cache, 256)
    assert contents[scan_cache.content_key(b"other words\n")] == []


def test_a_file_scanned_when_just_written_is_judged_by_its_bytes_after(tmp_path: Path) -> None:
    """A file scanned right after it was written gets no stat-keyed verdict (the racy
    rule), but its bytes' verdict lets the lean path judge it without scanning — secret
    and clean alike — until its bytes change."""
    root = init_repo(tmp_path / "r", {"a.txt": "a\n"}, old=True)
    state = state_dir(root)
    CheckpointStore(root, state).create("first", reason="agent_turn")
    write(root, "notes/token.txt", f"token = {TOKEN}\n")
    write(root, "notes/clean.txt", "nothing here\n")
    CheckpointStore(root, state).create("scans both", reason="agent_turn")
    files, _ = scan_cache.load(_cache_file(state), 256)
    assert "notes/token.txt" not in files  # too young for a stat-keyed verdict
    judge = _NoScanJudge(root, state / "checkpoints", LeanPolicy())
    token = os.lstat(root / "notes" / "token.txt")
    clean = os.lstat(root / "notes" / "clean.txt")
    assert judge._content_kinds("notes/token.txt", token) == ["github_token"]
    assert judge._content_kinds("notes/clean.txt", clean) == []
    write(root, "notes/clean.txt", "changed words\n")
    fresh = UntrackedJudge(root, state / "checkpoints", LeanPolicy())
    assert fresh._content_kinds("notes/clean.txt", os.lstat(root / "notes/clean.txt")) is None


def test_a_lean_turn_after_a_new_file_does_not_scan_it_again(tmp_path: Path) -> None:
    """The turn after one that scanned a just-written secret file leaves it out again
    from its content verdict alone, in the same checkpoint the store makes."""
    root = init_repo(tmp_path / "r", {"a.txt": "a\n"}, old=True)
    state = state_dir(root)
    CheckpointStore(root, state).create("first", reason="agent_turn")
    write(root, "notes/token.txt", f"token = {TOKEN}\n")
    QuickCheckpoints(root, state).create("before claude-code turn 1")
    write(root, "a.txt", "edited\n")
    # The user's own index changes: the private index is seeded again and every
    # untracked file is judged again.
    index = root / ".git" / "index"
    index.write_bytes(index.read_bytes())
    lean = QuickCheckpoints(root, state)
    lean._judge = _NoScanJudge(root, state / "checkpoints", lean.policy)
    cid, reused = lean.create("before claude-code turn 2")
    assert not reused
    meta = CheckpointStore(root, state).get(cid)
    assert [(s.path, s.reason) for s in meta.skipped] == [("notes/token.txt", "secret_content")]
    tree = gtext(root, "ls-tree", "-r", "--name-only", meta.tree).split()
    assert tree == ["a.txt"]


def test_the_untracked_cache_lives_in_the_private_index_only(tmp_path: Path) -> None:
    """The lean status keeps git's untracked cache in the private snapshot index — never
    in the user's index or config — and a file new in a cached folder is still seen."""
    root = init_repo(tmp_path / "r", {"src/a.py": "a\n", "docs/b.md": "b\n"}, old=True)
    state = state_dir(root)
    config = (root / ".git" / "config").read_bytes()
    CheckpointStore(root, state).create("first", reason="agent_turn")
    write(root, "src/a.py", "edited\n")
    QuickCheckpoints(root, state).create("before claude-code turn 1")
    user_index = (root / ".git" / "index").read_bytes()
    assert b"UNTR" in (state / "checkpoints" / "index").read_bytes()
    write(root, "src/new.py", "new\n", old=True)
    write(root, "docs/deeper/c.md", "c\n", old=True)
    CheckpointStore(root, state).create("caches their verdicts", reason="agent_turn")
    write(root, "src/a.py", "edited again\n")
    write(root, "src/newer.py", "newer\n", old=True)
    cid, reused = QuickCheckpoints(root, state).create("before claude-code turn 2")
    assert not reused
    tree = CheckpointStore(root, state).get(cid).tree
    assert gtext(root, "ls-tree", "-r", "--name-only", tree).split() == [
        "docs/b.md",
        "docs/deeper/c.md",
        "src/a.py",
        "src/new.py",
        "src/newer.py",
    ]
    assert (root / ".git" / "index").read_bytes() == user_index
    assert b"UNTR" not in user_index
    assert (root / ".git" / "config").read_bytes() == config
    assert json.loads((state / "checkpoints" / "snapshot.json").read_text())["tree"] == tree


def test_a_user_who_turned_the_untracked_cache_off_is_heard(tmp_path: Path) -> None:
    """``core.untrackedCache=false`` in the repository's config (directory mtimes not to
    be trusted there) keeps the cache out of the private index too, and new files are
    still found."""
    root = init_repo(tmp_path / "r", {"src/a.py": "a\n"}, old=True)
    run_git(root, "config", "core.untrackedCache", "false")
    state = state_dir(root)
    CheckpointStore(root, state).create("first", reason="agent_turn")
    write(root, "src/a.py", "edited\n")
    write(root, "src/new.py", "new\n", old=True)
    CheckpointStore(root, state).create("caches its verdict", reason="agent_turn")
    write(root, "src/a.py", "edited again\n")
    cid, _ = QuickCheckpoints(root, state).create("before claude-code turn 1")
    assert b"UNTR" not in (state / "checkpoints" / "index").read_bytes()
    tree = CheckpointStore(root, state).get(cid).tree
    assert gtext(root, "ls-tree", "-r", "--name-only", tree).split() == ["src/a.py", "src/new.py"]
    assert gitstate.status_args(root / ".git") == gitstate.STATUS_ARGS
    run_git(root, "config", "--unset", "core.untrackedCache")
    (root / ".git" / "config").write_text(
        (root / ".git" / "config").read_text() + "[core]\n\tUntrackedCache = no ; mine\n"
    )
    assert gitstate.status_args(root / ".git") == gitstate.STATUS_ARGS
