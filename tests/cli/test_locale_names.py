"""Non-ASCII file names under a locale that is not UTF-8 (``LC_ALL=C PYTHONUTF8=0``).

There Python encodes file names as ASCII: ``café.py``, as git lists it, could not
be stat'ed, and `recover --explain` ended in an internal error. vibflow runs
itself again in Python's UTF-8 mode. The real entry point (``python -m vibflow``)
as its own process, a real repository.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from vibflow_testing.git import git

pytestmark = pytest.mark.skipif(os.name != "posix", reason="file names are UTF-16 on Windows")

NAME = "caf\u00e9.py"


def _vibflow(root: Path, *args: str, apply: bool = False) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIBFLOW_", "LC_"))}
    env.update(LC_ALL="C", LANG="C", PYTHONUTF8="0", PYTHONIOENCODING="utf-8")
    if apply:
        env["VIBFLOW_RECOVERY_APPLY"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "vibflow", *args],
        cwd=root,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "r"
    root.mkdir()
    git(root, "init", "-q")
    (root / NAME).write_text("a\n", encoding="utf-8")
    (root / "x.py").write_text("b\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "start")
    return root


def test_a_non_ascii_relevant_file_is_read_in_the_c_locale(repo: Path) -> None:
    assert _vibflow(repo, "memory", "intent", "fix the cafe", "--yes").returncode == 0
    made = _vibflow(repo, "memory", "relevant", NAME, "the file", "--yes")
    assert made.returncode == 0, made.stderr
    (repo / NAME).write_text("a, mine\n", encoding="utf-8")
    (repo / "x.py").write_text("b, agent\n", encoding="utf-8")

    proc = _vibflow(repo, "recover", "--explain", "--json")
    assert proc.returncode == 0, proc.stderr
    zone = json.loads(proc.stdout)
    assert NAME in json.dumps(zone, ensure_ascii=False)
    assert "internal error" not in proc.stderr


def test_a_checkpoint_of_a_non_ascii_name_restores_in_the_c_locale(repo: Path) -> None:
    made = _vibflow(repo, "checkpoint", "create", "--json")
    assert made.returncode == 0, made.stderr
    ckpt = json.loads(made.stdout)["checkpoint_id"]
    (repo / NAME).write_text("changed\n", encoding="utf-8")
    done = _vibflow(
        repo, "checkpoint", "restore", ckpt, "--confirm", f"APPLY {ckpt}", "--", NAME, apply=True
    )
    assert done.returncode == 0, done.stderr
    assert (repo / NAME).read_text(encoding="utf-8") == "a\n"
    assert NAME in done.stdout
