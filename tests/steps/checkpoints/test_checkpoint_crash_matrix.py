"""A crash matrix for checkpoint creation: a real `vibflow checkpoint create` is SIGKILLed
at every git call it makes — just before the call runs, and just after it finished — and
the next checkpoint must still be complete: every modified and untracked file in it with
its current content, a deleted file out of it, ``untracked_count`` right, and a restore
from it bringing the tree back.

The killing is done by a `git` wrapper first on PATH that counts its invocations and
SIGKILLs its parent (the vibflow process) on the N-th (see also
``test_checkpoint_killed_create.py``, the single-point version).
"""

from __future__ import annotations

import os
import shutil
import signal
import stat
from pathlib import Path

import pytest
from vibflow_testing.cli import as_json, vf
from vibflow_testing.git import git, gtext
from vibflow_testing.repo import write

from vibflow.steps.checkpoints import restore
from vibflow.steps.recovery.lease import LeaseFile
from vibflow.steps.workspace.git import Git

pytestmark = pytest.mark.cli

KILLED = -signal.SIGKILL
#: More than the git calls one create makes (12 with changes to snapshot): the last
#: points of the matrix must finish unkilled, which proves every call was covered.
POINTS = 16


def counting_killer(tmp: Path, *, nth: int, after: bool) -> dict[str, str]:
    """PATH with a `git` that SIGKILLs its caller at its ``nth`` invocation — before
    running the real git, or right ``after`` it — and is the real git otherwise."""
    real = shutil.which("git")
    assert real is not None
    folder = tmp / f"killing-bin-{nth}-{after}"
    folder.mkdir()
    counter = folder / "count"
    counter.write_text("0\n", encoding="ascii")
    script = folder / "git"
    if after:
        act = f'"{real}" "$@"; rc=$?; if [ "$n" -eq {nth} ]; then kill -9 $PPID; fi; exit $rc\n'
    else:
        act = f'if [ "$n" -eq {nth} ]; then kill -9 $PPID; exit 1; fi\nexec "{real}" "$@"\n'
    script.write_text(
        f'#!/bin/sh\nn=$(($(cat "{counter}") + 1)); echo "$n" > "{counter}"\n' + act,
        encoding="utf-8",
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return {"PATH": f"{folder}{os.pathsep}{os.environ.get('PATH', '')}"}


def work_tree(root: Path) -> dict[str, bytes]:
    """Every file outside .git and .vibflow → its bytes."""
    out: dict[str, bytes] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in (".git", ".vibflow")]
        for name in filenames:
            path = Path(dirpath, name)
            out[path.relative_to(root).as_posix()] = path.read_bytes()
    return out


def untracked(root: Path) -> set[str]:
    listed = git(root, "ls-files", "-z", "--others", "--exclude-standard")
    return {p for p in listed.split("\0") if p and not p.startswith(".vibflow/")}


def _before_the_kill(repo: Path) -> None:
    """Committed files, a first checkpoint, then changes of every kind: a tracked file
    edited and one deleted, untracked files added (in new folders) and one removed."""
    write(repo, "src/app.py", "v1\n")
    write(repo, "src/old.py", "to be deleted\n")
    write(repo, "docs/guide.md", "# guide\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "app")
    write(repo, "scratch/early.txt", "untracked before the first checkpoint\n")
    assert vf(repo, "checkpoint", "create").returncode == 0
    write(repo, "src/app.py", "v2\n")
    (repo / "src/old.py").unlink()
    write(repo, "notes/new.txt", "a new untracked file\n")
    write(repo, "notes/deep/er/file.txt", "in new folders\n")
    write(repo, "scratch/goes.txt", "untracked, removed after the kill\n")
    (repo / "scratch/early.txt").unlink()  # in the first checkpoint, gone before the kill


def _after_the_kill(repo: Path) -> None:
    """The user goes on working before the next checkpoint: an untracked file removed,
    one added, a tracked file edited and the deleted one back."""
    (repo / "scratch/goes.txt").unlink()
    write(repo, "late.txt", "added after the kill\n")
    write(repo, "docs/guide.md", "# guide, edited\n")
    write(repo, "src/old.py", "deleted before the kill, back after it\n")


@pytest.mark.parametrize("after", [False, True], ids=["before-call", "after-call"])
@pytest.mark.parametrize("nth", range(1, POINTS + 1))
def test_a_kill_at_any_git_call_leaves_the_next_checkpoint_complete(
    repo: Path, tmp_path: Path, nth: int, after: bool
) -> None:
    """Killed at its ``nth`` git call (before or after it ran), the next create holds
    exactly the work tree, counts its untracked files right, and restores it."""
    _before_the_kill(repo)
    killed = vf(repo, "checkpoint", "create", env=counting_killer(tmp_path, nth=nth, after=after))
    assert killed.returncode in (0, KILLED), killed.stderr
    if nth == 1:
        assert killed.returncode == KILLED  # the wrapper is really in the way
    _after_the_kill(repo)

    expected = work_tree(repo)
    proc = vf(repo, "checkpoint", "create", "--json")
    assert proc.returncode == 0, proc.stderr
    meta = as_json(proc)
    listed = gtext(repo, "ls-tree", "-r", "--name-only", meta["commit"]).splitlines()
    held = {p for p in listed if not p.startswith(".vibflow/")}  # the repo's own fixture flows
    assert held == set(expected), (sorted(held ^ set(expected)), killed.returncode)
    for rel, data in expected.items():
        blob = Git(repo).run("cat-file", "blob", f"{meta['commit']}:{rel}")
        assert blob == data, rel
    assert meta["untracked_count"] == len(untracked(repo))
    assert meta["metadata_complete"]

    # A restore from it brings the tree back after more changes.
    write(repo, "src/app.py", "v3 by an agent\n")
    write(repo, "notes/deep/er/file.txt", "overwritten\n")
    (repo / "late.txt").unlink()
    g = Git(repo)
    items = restore.plan(g, meta["commit"], sorted(expected))
    blobs = restore.read_blobs(g, [i.sha for i in items if i.sha])
    lease = LeaseFile(repo / ".vibflow" / "recovery").acquire("op_matrix")
    try:
        restore.restore_items(
            repo, [(i, blobs.get(i.sha or "")) for i in items], lease.commit, tag=1
        )
    finally:
        lease.release()
    assert work_tree(repo) == expected


def test_the_matrix_covers_every_git_call_of_a_create(repo: Path, tmp_path: Path) -> None:
    """One create with changes to snapshot makes fewer git calls than POINTS: the matrix
    kills at each of them."""
    _before_the_kill(repo)
    env = counting_killer(tmp_path, nth=10_000, after=False)
    assert vf(repo, "checkpoint", "create", env=env).returncode == 0
    folder = Path(env["PATH"].split(os.pathsep)[0])
    calls = int((folder / "count").read_text(encoding="ascii"))
    assert 0 < calls < POINTS, calls
