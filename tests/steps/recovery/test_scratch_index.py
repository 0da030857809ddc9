"""Two previews at once each list through their own copy of the index: neither
copies over the file the other's git is reading, and no copy is left behind."""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from vibflow_testing.repo import init_repo, write

from vibflow.mcp.server import McpApp
from vibflow.steps.recovery.scratch import LEFTOVER_SECONDS, scratch_index
from vibflow.steps.workspace import diffs
from vibflow.steps.workspace.git import Git


def test_concurrent_previews_never_share_a_scratch_index(tmp_path: Path) -> None:
    """One warm server, two requests in flight again and again: every preview answers
    (a shared scratch file failed ~1 in 10 with 'index file smaller than expected')."""
    files = {f"pkg{i % 40}/f{i:04d}.py": f"x = {i}\n" for i in range(3000)}
    root = init_repo(tmp_path / "r", files, old=True)
    for i in range(0, 3000, 25):
        write(root, f"pkg{i % 40}/f{i:04d}.py", f"x = {i} + 1\n")
    app = McpApp(root, "probe", env=dict(os.environ), rescan_rate=0)

    def previews(n: int) -> list[bool]:
        out = []
        for k in range(n):
            write(root, f"pkg{k % 40}/f{k:04d}.py", f"x = {k} * {n}\n")  # an agent's edit
            out.append(bool(app.call("recovery_preview", {}).is_error))
        return out

    try:
        with ThreadPoolExecutor(2) as pool:
            failed = [f for run in pool.map(previews, [12, 12]) for f in run]
    finally:
        app.close()
    assert not any(failed)
    left = [p.name for p in (root / ".vibflow" / "recovery").iterdir() if ".index" in p.name]
    assert left == []


def test_a_killed_previews_copy_is_removed_once_old(tmp_path: Path) -> None:
    """A copy a killed process left is removed by a later preview once no preview
    can still be reading it (by its change time: a copy's mtime is the user's
    index's); a more recent one is left alone."""
    folder = tmp_path / "recovery"
    folder.mkdir()
    old, legacy = folder / "diff-abc.index", folder / "diff.index"
    half = folder / ".refreshed-k.index.0a1b2c.tmp"  # a killed atomic_write's
    for path in (old, legacy, half):
        path.write_bytes(b"DIRC")
    written = old.stat().st_ctime
    time.sleep(1.1)  # change times a second apart: no clock can set one
    recent = folder / "diff-def.index"
    recent.write_bytes(b"DIRC")
    os.utime(recent, (0, 0))  # an old mtime, as a copy of an old index has
    writing = folder / ".last_preview.json.3d4e5f.tmp"  # an atomic_write under way
    writing.write_bytes(b"{")
    later = written + LEFTOVER_SECONDS + 0.5  # past the old ones' hour, not the recent one's
    with scratch_index(folder, now=lambda: later) as index:
        assert index.exists()
        assert index.parent == folder
    assert not index.exists()
    assert sorted(p.name for p in folder.iterdir()) == [
        ".last_preview.json.3d4e5f.tmp",
        "diff-def.index",
    ]


def test_a_copy_in_use_is_not_swept_when_the_users_index_is_old(tmp_path: Path) -> None:
    """A copy keeps the user's index's mtime (git needs it), which may be hours old:
    another preview starting meanwhile must not take it for a killed one's."""
    root = init_repo(tmp_path / "r", {"a.py": "A = 1\n", "b.py": "B = 1\n"}, old=True)
    write(root, "a.py", "A = 2\n", old=True)
    past = time.time() - 2 * LEFTOVER_SECONDS
    os.utime(root / ".git" / "index", (past, past))
    folder = root / ".vibflow" / "recovery"
    with scratch_index(folder) as mine:
        diffs.copy_index(Git(root), mine)
        with scratch_index(folder):  # another preview starts
            pass
        listed = diffs.head_to_worktree(Git(root), mine, copy=False, counts=False)
    assert [(c.path, c.status) for c in listed] == [("a.py", "modified")]
