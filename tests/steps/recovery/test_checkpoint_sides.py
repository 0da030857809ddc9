"""What a checkpoint holds for each changed file is known without listing its
whole tree: its differences from HEAD, and HEAD's side of each change as the
listing gave it — the same items one ``ls-tree`` of the checkpoint gives
(steps/recovery/checkpoint_base.py)."""

from __future__ import annotations

from pathlib import Path

from vibflow_testing.cli import vf
from vibflow_testing.git import git
from vibflow_testing.repo import init_repo, write

from vibflow.steps.recovery.checkpoint_base import _held_items, _known_items, since_checkpoint
from vibflow.steps.recovery.models import ChangedFile
from vibflow.steps.recovery.options import sides
from vibflow.steps.workspace import diffs
from vibflow.steps.workspace.git import Git
from vibflow.wiring import Project


def test_known_items_are_what_the_checkpoint_tree_lists(tmp_path: Path) -> None:
    files = {f"f{i}.txt": f"text {i}\n" for i in range(8)}
    files["run.sh"] = "#!/bin/sh\necho hi\n"
    files["sub/deep.txt"] = "deep\n"
    root = init_repo(tmp_path / "r", files, old=True)
    (root / "link").symlink_to("f0.txt")
    git(root, "add", "link")
    git(root, "commit", "-qm", "link")
    # Before the checkpoint: edits it holds (some committed files differ from HEAD in it).
    write(root, "f1.txt", "checkpointed edit\n")
    write(root, "new.txt", "untracked, held\n")
    (root / "f2.txt").unlink()
    assert vf(root, "checkpoint", "create", "-m", "mid").returncode == 0
    # After it: more changes of every kind.
    write(root, "f1.txt", "edited again\n")
    write(root, "f3.txt", "changed after\n")
    (root / "run.sh").chmod(0o755)
    (root / "link").unlink()
    (root / "link").symlink_to("f4.txt")
    git(root, "mv", "f5.txt", "moved.txt")
    write(root, "f6.txt", "staged\n")
    git(root, "add", "f6.txt")
    (root / "sub" / "deep.txt").unlink()
    g = Git(root)
    head = g.head()
    assert head is not None
    tracked = diffs.head_to_worktree(g, tmp_path / "scratch.index", head, counts=False)
    changed = [ChangedFile(path=c.path, status=c.status, old_path=c.old_path) for c in tracked]  # type: ignore[arg-type]
    changed.append(ChangedFile(path="new.txt", status="untracked"))
    project = Project(root)
    (meta,) = project.checkpoints.all()
    project.close()
    base, _ = since_checkpoint(root, g, head, meta, changed)
    head_blobs = {
        c.old_path or c.path: (c.old_mode, c.old_sha)
        for c in tracked
        if c.old_mode is not None and c.old_sha is not None
    }
    held = [p for c in changed for p, in_head in sides(c) if base.holds(p, in_head)]
    assert len(held) >= 8
    known, unknown = _known_items(held, base, head_blobs)
    assert unknown == []
    listed = [i for i in _held_items(g, meta.commit or meta.tree, held) if i.action == "write"]
    assert sorted(known, key=lambda i: i.path) == sorted(listed, key=lambda i: i.path)
