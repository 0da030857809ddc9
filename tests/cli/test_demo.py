"""`vibflow demo` — the README's first command — works on a fresh machine."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from vibflow_testing.cli import clean_env
from vibflow_testing.git import git


def _demo(tmp_path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vibflow", "demo", "--dir", str(tmp_path / "demo"), *extra],
        cwd=tmp_path,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_demo_stops_at_the_choice_with_the_expected_advice(tmp_path: Path) -> None:
    """The demo's plan: two drift candidates, explicit files in zone, the new helper in
    scope because the form imports it, generated excluded."""
    proc = _demo(tmp_path, "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    plan = data["plan"]
    assert sorted(d["path"] for d in plan["drift_candidates"]) == [
        "config.yaml",
        "src/services/auth.py",
    ]
    zone = {z["path"]: z["source"] for z in plan["intent_zone"]}
    assert zone["src/ui/login.py"] == "explicit"
    assert zone["tests/test_login.py"] == "explicit"
    # In scope by evidence (the form imports it), no longer by sharing the 'ui' category.
    assert zone["src/ui/helpers.py"] == "reference"
    assert plan["excluded_generated"] == ["src/__pycache__/app.cpython-311.pyc"]
    assert plan["safe_checkpoint_candidate"]["predates_change"] is True
    assert plan["files_modified"] == 0
    assert all(d["requires_user_review"] for d in plan["drift_candidates"])
    root = Path(data["project"])
    tree = git(
        root, "ls-tree", "-r", "--name-only", f"refs/vibflow/checkpoints/{data['checkpoint_id']}"
    ).split()
    assert ".env" not in tree


def test_demo_text_says_what_to_type_next_and_that_works(tmp_path: Path) -> None:
    """The printed `vibflow step ... choose` command finishes the run without touching files."""
    proc = _demo(tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "no files were modified" in proc.stdout
    line = next(x.strip() for x in proc.stdout.splitlines() if "choose --input option=" in x)
    root = tmp_path / "demo"
    before = git(root, "status", "--porcelain")
    words = line.split()
    args = words[words.index("step") :]  # whatever runs vibflow here, then its arguments
    done = subprocess.run(
        [sys.executable, "-m", "vibflow", *args],
        cwd=root,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "finished at 'result'" in done.stdout
    after = git(root, "status", "--porcelain")
    assert after == before


def test_demo_refuses_a_non_empty_folder(tmp_path: Path) -> None:
    """--dir must be new or empty: the demo never writes into existing work."""
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo" / "mine.txt").write_text("keep", encoding="utf-8")
    proc = _demo(tmp_path)
    assert proc.returncode == 2
    assert "new or empty" in proc.stderr
    assert (tmp_path / "demo" / "mine.txt").read_text(encoding="utf-8") == "keep"


def test_demo_prints_commands_that_work_without_vibflow_on_path(tmp_path: Path) -> None:
    """After `make demo`, vibflow lives in .venv/bin (not on PATH): the printed commands
    name an executable that exists, so they work when pasted as they are."""
    proc = _demo(tmp_path)
    assert proc.returncode == 0, proc.stderr
    line = next(x.strip() for x in proc.stdout.splitlines() if "choose --input option=" in x)
    first = line.split()[0]
    assert first == "vibflow" or Path(first).exists()


def _demo_in_temp(tmp_path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """The demo without --dir, its temp folder made under ``tmp_path/tmp``."""
    temp = tmp_path / "tmp"
    temp.mkdir(exist_ok=True)
    return subprocess.run(
        [sys.executable, "-m", "vibflow", "demo", *extra],
        cwd=tmp_path,
        env=clean_env(TMPDIR=str(temp)),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_demo_removes_its_scratch_folder_unless_kept(tmp_path: Path) -> None:
    """Without --keep the temp project is gone when the demo ends, and the output says how
    to keep it instead of printing commands for a folder that no longer exists."""
    proc = _demo_in_temp(tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert list((tmp_path / "tmp").iterdir()) == []
    assert "no files were modified" in proc.stdout
    assert "demo --keep" in proc.stdout
    assert "What to type next" not in proc.stdout
    data = json.loads(_demo_in_temp(tmp_path, "--json").stdout)
    assert data["kept"] is False
    assert not Path(data["project"]).exists()
    assert list((tmp_path / "tmp").iterdir()) == []


def test_demo_keep_leaves_the_project_and_says_where(tmp_path: Path) -> None:
    """With --keep the project stays, the output names the folder, and the printed
    commands are there to follow."""
    proc = _demo_in_temp(tmp_path, "--keep")
    assert proc.returncode == 0, proc.stderr
    (kept,) = (tmp_path / "tmp").iterdir()
    assert f"The scratch project is kept in {kept}" in proc.stdout
    assert "What to type next" in proc.stdout
    assert (kept / ".vibflow" / "runs.db").is_file()
    data = json.loads(_demo_in_temp(tmp_path, "--keep", "--json").stdout)
    assert data["kept"] is True
    assert Path(data["project"]).is_dir()


def test_demo_keeps_a_folder_you_named(tmp_path: Path) -> None:
    """--dir is your folder: the demo keeps it (and its JSON says so)."""
    data = json.loads(_demo(tmp_path, "--json").stdout)
    assert data["kept"] is True
    assert (tmp_path / "demo" / ".git").is_dir()
