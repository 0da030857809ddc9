"""Every command that takes a project path reads it in the folder you run it in, as
git does and as the memory commands already did: `checkpoint restore`, `rewind`,
`recover feedback`, and a flow's `--input paths=` on `run` and `step`. What they
show back is the project path (as `git rm`/`git add -v` name it), never an absolute
one; `--project DIR` is the folder you are in; and a path that climbs out of the
project is still refused by the path contract, naming the rule it breaks."""

from __future__ import annotations

from pathlib import Path

import pytest
from vibflow_testing.agents import run_hook as hook
from vibflow_testing.cli import as_json, vf
from vibflow_testing.git import git
from vibflow_testing.repo import init_repo, write

pytestmark = pytest.mark.cli

APPLY = {"VIBFLOW_RECOVERY_APPLY": "1"}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return init_repo(
        tmp_path / "svc",
        {
            "README.md": "svc\n",
            "src/app/a.py": "a = 1\n",
            "src/app/b.py": "b = 1\n",
            "src/lib/c.py": "c = 1\n",
        },
        old=True,
    )


def _checkpoint(repo: Path) -> str:
    made = as_json(vf(repo, "checkpoint", "create", "-m", "base", "--json"))
    ckpt = made["checkpoint_id"]
    assert isinstance(ckpt, str)
    for rel in ("src/app/a.py", "src/app/b.py", "src/lib/c.py"):
        write(repo, rel, "changed\n")
    return ckpt


def _writes(proc: object) -> list[str]:
    answer = as_json(proc)  # type: ignore[arg-type]
    restore = answer["restore"]
    assert isinstance(restore, dict)
    return sorted(restore["writes"])


def test_checkpoint_restore_reads_paths_in_the_folder_you_are_in(repo: Path) -> None:
    """The explorer's repro: in src/app, `checkpoint restore CKPT a.py` restores
    src/app/a.py (it used to refuse: "'a.py' is neither in checkpoint ... nor in the
    working tree"), `../lib/c.py` names the sibling folder's file, and the preview
    and the confirmed restore show and touch exactly those project paths."""
    ckpt = _checkpoint(repo)
    here = repo / "src" / "app"
    text = vf(here, "checkpoint", "restore", ckpt, "a.py", "../lib/c.py", env=APPLY)
    assert text.returncode == 0, text.stderr
    assert "    src/app/a.py\n" in text.stdout
    assert "    src/lib/c.py\n" in text.stdout
    assert str(repo) not in text.stdout + text.stderr
    run = as_json(vf(here, "checkpoint", "restore", ckpt, "a.py", "../lib/c.py", "--json"))
    assert sorted(run["restore"]["writes"]) == ["src/app/a.py", "src/lib/c.py"]
    done = vf(
        here,
        "step",
        run["run_id"],
        "confirm",
        "-i",
        f"confirmation={run['confirmation_expected']}",
        env=APPLY,
    )
    assert done.returncode == 0, done.stderr
    assert (repo / "src/app/a.py").read_text() == "a = 1\n"
    assert (repo / "src/lib/c.py").read_text() == "c = 1\n"
    assert (repo / "src/app/b.py").read_text() == "changed\n"


def test_a_folder_named_from_where_you_are(repo: Path) -> None:
    """`.` in src/app is the folder src/app: its files are restored, not the project's."""
    ckpt = _checkpoint(repo)
    run = vf(repo / "src" / "app", "checkpoint", "restore", ckpt, ".", "--json")
    assert run.returncode == 0, run.stderr
    assert _writes(run) == ["src/app/a.py", "src/app/b.py"]


def test_project_option_is_the_folder_you_are_in(repo: Path, tmp_path: Path) -> None:
    """`-C DIR` runs "as if started in" DIR, as git's -C: a path is read there; with
    `-C` at the root, paths are project-relative as they always were."""
    ckpt = _checkpoint(repo)
    sub = vf(tmp_path, "-C", "svc/src/app", "checkpoint", "restore", ckpt, "b.py", "--json")
    assert sub.returncode == 0, sub.stderr
    assert _writes(sub) == ["src/app/b.py"]
    top = vf(tmp_path, "-C", "svc", "checkpoint", "restore", ckpt, "src/lib/c.py", "--json")
    assert _writes(top) == ["src/lib/c.py"]


def test_a_path_out_of_the_project_is_still_refused_by_its_rule(repo: Path) -> None:
    """From a subfolder, a path climbing out of the project is bad input (exit 2) with
    the rule it breaks, and the message never shows an absolute path."""
    ckpt = _checkpoint(repo)
    out = vf(repo / "src" / "app", "checkpoint", "restore", ckpt, "../../../etc/passwd")
    assert out.returncode == 2, out.stdout
    assert "path rejected (outside_project): the path is outside the project" in out.stderr
    assert "Traceback" not in out.stderr
    assert str(repo) not in out.stdout + out.stderr
    assert vf(repo, "runs", "list", "--json").stdout.count('"run_id"') == 0


def test_step_and_run_inputs_named_paths_are_read_here(repo: Path) -> None:
    """`--input paths=` on `run restore` (one value, comma-separated) and on `step`
    (repeated: confirming the previewed set) is read in the folder you are in, like
    the positional paths; the confirmed restore writes exactly those files."""
    ckpt = _checkpoint(repo)
    here = repo / "src" / "app"
    started = vf(
        here, "run", "restore", "-i", f"checkpoint={ckpt}", "-i", "paths=a.py,../lib/c.py", "--json"
    )
    assert started.returncode == 0, started.stderr
    assert _writes(started) == ["src/app/a.py", "src/lib/c.py"]
    run = as_json(started)
    narrowed = vf(
        here,
        "step",
        run["run_id"],
        "confirm",
        "-i",
        f"confirmation={run['confirmation_expected']}",
        "-i",
        "paths=../lib/c.py",
        "-i",
        "paths=a.py",
        env=APPLY,
    )
    assert narrowed.returncode == 0, narrowed.stdout
    assert (repo / "src/app/a.py").read_text() == "a = 1\n"
    assert (repo / "src/lib/c.py").read_text() == "c = 1\n"
    assert (repo / "src/app/b.py").read_text() == "changed\n"


def test_recover_feedback_reads_paths_here(repo: Path) -> None:
    """`recover feedback PLAN --wrong b.py` in src/app labels src/app/b.py and says so."""
    vf(repo, "memory", "intent", "work on a", "--yes")
    vf(repo, "memory", "relevant", "src/app/a.py", "the file", "--yes")
    write(repo, "src/app/a.py", "a = 2\n")
    write(repo, "src/app/b.py", "b = 2\n")
    plan = as_json(vf(repo, "recover", "--preview", "--json"))
    assert "src/app/b.py" in plan["feedback_paths"]
    proc = vf(repo / "src" / "app", "recover", "feedback", plan["plan_id"], "--wrong", "b.py")
    assert proc.returncode == 0, proc.stderr
    assert "remembered for this intent: src/app/b.py is in scope" in proc.stdout


def test_recover_feedback_takes_an_absolute_path_inside_the_project(repo: Path) -> None:
    """`recover feedback --wrong /abs/path` inside the project labels it, as the other
    commands take it; one outside is refused by its rule, the path never echoed."""
    vf(repo, "memory", "intent", "work on a", "--yes")
    vf(repo, "memory", "relevant", "src/app/a.py", "the file", "--yes")
    write(repo, "src/app/a.py", "a = 2\n")
    write(repo, "src/app/b.py", "b = 2\n")
    plan = as_json(vf(repo, "recover", "--preview", "--json"))
    absolute = str(repo / "src" / "app" / "b.py")
    proc = vf(repo, "recover", "feedback", plan["plan_id"], "--wrong", absolute)
    assert proc.returncode == 0, proc.stderr
    assert "remembered for this intent: src/app/b.py is in scope" in proc.stdout
    outside = str(repo.parent / "elsewhere.py")
    proc = vf(repo, "recover", "feedback", plan["plan_id"], "--wrong", outside)
    assert proc.returncode == 2
    assert "outside_project" in proc.stderr
    assert str(repo.parent) not in proc.stderr + proc.stdout


def test_rewind_paths_are_read_here(repo: Path) -> None:
    """`rewind 1 a.py` in src/app rewinds only src/app/a.py."""
    hook(repo, "claude-code", "turn-start")
    write(repo, "src/app/a.py", "a = 2\n")
    write(repo, "src/app/b.py", "b = 2\n")
    hook(repo, "claude-code", "edit", repo / "src" / "app" / "a.py")
    hook(repo, "claude-code", "turn-end")
    run = vf(repo / "src" / "app", "rewind", "1", "a.py", "--json", env=APPLY)
    assert run.returncode == 0, run.stderr
    assert _writes(run) == ["src/app/a.py"]


def test_a_json_array_takes_names_with_a_comma_as_written(repo: Path) -> None:
    """One `--input paths=` value is split at commas and trimmed; as a JSON array its
    names are taken as written, so `a,b.py` and ` lead.py` restore those files (not
    `a` and `b.py`), read in the folder you are in."""
    here = repo / "src" / "app"
    for rel in (
        "src/app/a,b.py",
        "src/app/ lead.py",
        "src/app/a",
        "src/app/b.py",
        "src/app/[id].tsx",
    ):
        write(repo, rel, "kept\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "odd names")
    ckpt = _checkpoint(repo)
    for rel in ("src/app/a,b.py", "src/app/ lead.py", "src/app/a"):
        write(repo, rel, "changed\n")
    started = vf(
        here,
        "run",
        "restore",
        "-i",
        f"checkpoint={ckpt}",
        "-i",
        'paths=["a,b.py", " lead.py"]',
        "--json",
    )
    assert started.returncode == 0, started.stderr
    assert _writes(started) == ["src/app/ lead.py", "src/app/a,b.py"]
    # What is no JSON array of names is read as names: Next.js' `[id].tsx` is a file.
    write(repo, "src/app/[id].tsx", "changed\n")
    bracket = vf(
        here, "run", "restore", "-i", f"checkpoint={ckpt}", "-i", "paths=[id].tsx", "--json"
    )
    assert bracket.returncode == 0, bracket.stderr
    assert _writes(bracket) == ["src/app/[id].tsx"]
