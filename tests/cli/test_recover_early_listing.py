"""A `recover` that stops before its preview (a broken policy, Ctrl-C while it
loads) leaves no index copy of its early listing behind, and no git running; a
state folder it cannot write in is a plain error."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from vibflow_testing.repo import init_repo, write

pytestmark = pytest.mark.cli


def _slow_git(tmp_path: Path) -> dict[str, str]:
    """PATH with the real git behind a wrapper whose `diff` starts a second late,
    as a large tree's would take (the command has stopped by then)."""
    real = shutil.which("git")
    folder = tmp_path / "bin"
    folder.mkdir()
    shim = folder / "git"
    shim.write_text(
        '#!/bin/sh\nfor a in "$@"; do [ "$a" = diff ] && { sleep 1; break; }; done\n'
        f'exec {real} "$@"\n',
        encoding="utf-8",
    )
    shim.chmod(0o755)
    return {**os.environ, "PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}


def _copies(root: Path) -> list[str]:
    return sorted(p.name for p in (root / ".vibflow" / "recovery").glob("diff-*"))


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = init_repo(tmp_path / "r", {"a.txt": "a\n"})
    write(root, "a.txt", "edited\n")
    return root


def test_a_recover_that_fails_before_its_preview_leaves_no_copy(root: Path, tmp_path: Path) -> None:
    write(root, ".vibflow/policy.yaml", "this: [is: not valid\n")
    done = subprocess.run(
        [sys.executable, "-m", "vibflow", "recover", "--explain"],
        cwd=root,
        env=_slow_git(tmp_path),
        capture_output=True,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert _copies(root) == []


#: ``vibflow recover --explain`` with the default SIGINT: a terminal's Ctrl-C reaches
#: a command so, while a shell's background job starts with it ignored (and Python
#: keeps it so). ``exec`` keeps the disposition.
_WITH_DEFAULT_SIGINT = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.executable, [sys.executable, '-m', 'vibflow', 'recover', '--explain'])"
)


def test_ctrl_c_while_recover_loads_leaves_no_copy(root: Path, tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", _WITH_DEFAULT_SIGINT],
        cwd=root,
        env=_slow_git(tmp_path),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    time.sleep(0.4)  # the listing has started; vibflow is still loading
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: git gets it too
    proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert _copies(root) == []


def test_a_state_folder_vibflow_cannot_write_is_a_plain_error(root: Path) -> None:
    """`.vibflow/recovery` a file, not a folder: the preview says what is wrong and
    where (project-relative), exit 1, no traceback, and nothing is lost."""
    (root / ".vibflow").mkdir(exist_ok=True)
    (root / ".vibflow" / "recovery").write_text("not a folder\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "vibflow", "recover", "--preview", "--json"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    error = json.loads(done.stdout)["error"]
    assert error["code"] == "E302"
    assert ".vibflow/recovery" in error["message"]
    assert str(root) not in done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert (root / ".vibflow" / "recovery").read_text(encoding="utf-8") == "not a folder\n"
