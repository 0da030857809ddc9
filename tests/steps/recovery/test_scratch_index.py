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
    can still be reading it; a recent one is left alone."""
    folder = tmp_path / "recovery"
    folder.mkdir()
    old, recent = folder / "diff-abc.index", folder / "diff-def.index"
    for path in (old, recent, folder / "diff.index"):
        path.write_bytes(b"DIRC")
    past = time.time() - LEFTOVER_SECONDS - 60
    os.utime(old, (past, past))
    os.utime(folder / "diff.index", (past, past))
    with scratch_index(folder) as index:
        assert index.exists()
        assert index.parent == folder
    assert not index.exists()
    assert sorted(p.name for p in folder.iterdir()) == ["diff-def.index"]
