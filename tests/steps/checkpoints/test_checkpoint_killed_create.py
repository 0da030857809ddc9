"""A checkpoint whose creation was killed never poisons the next one.

The store saves its list of untracked files before adding them to its private
index. A process killed in between left later checkpoints believing those
files were in already: they were silently left out (while still counted), and
a restore that needed them could never get them back. Here a real `vibflow
checkpoint create` is SIGKILLed by a git wrapper on PATH at the exact call
that adds the untracked files; the next checkpoint must hold every one.
"""

from __future__ import annotations

import os
import shutil
import signal
import stat
from pathlib import Path

import pytest
from vibflow_testing.cli import as_json, vf
from vibflow_testing.git import gtext
from vibflow_testing.repo import write

pytestmark = pytest.mark.cli

KILLED = -signal.SIGKILL


def killing_git(tmp: Path, *, when: str) -> dict[str, str]:
    """PATH with a `git` that SIGKILLs its caller when its arguments contain ``when``
    (all words), and runs the real git otherwise."""
    real = shutil.which("git")
    assert real is not None
    folder = tmp / "killing-bin"
    folder.mkdir()
    words = " ".join(when.split())
    script = folder / "git"
    script.write_text(
        "#!/bin/sh\n"
        f'case " $* " in *" {words} "*) kill -9 $PPID; exit 1;; esac\n'
        f'exec "{real}" "$@"\n',
        encoding="utf-8",
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return {"PATH": f"{folder}{os.pathsep}{os.environ.get('PATH', '')}"}


def test_a_kill_while_adding_untracked_files_leaves_the_next_checkpoint_complete(
    repo: Path, tmp_path: Path
) -> None:
    """Killed at `update-index --add`, the next checkpoint still holds the new files."""
    write(repo, "src/app.py", "v1\n")
    assert vf(repo, "checkpoint", "create").returncode == 0
    write(repo, "notes/new.txt", "an untracked file\n")
    write(repo, "src/helper.py", "another\n")
    killed = vf(repo, "checkpoint", "create", env=killing_git(tmp_path, when="update-index --add"))
    assert killed.returncode == KILLED, killed.stderr
    proc = vf(repo, "checkpoint", "create", "--json")
    assert proc.returncode == 0, proc.stderr
    data = as_json(proc)
    held = set(gtext(repo, "ls-tree", "-r", "--name-only", data["commit"]).splitlines())
    assert {"notes/new.txt", "src/helper.py", "src/app.py"} <= held
