"""What the advisor reports as changed: generated, cache and build files excluded;
renamed, deleted, binary and non-ASCII names exact; a repository with no commits yet;
a folder that is not a git repository is a clear error.

Each scenario builds a git repository in ``tmp_path``, changes files the way a user or
an AI agent would, and reads ``vibflow recover --explain/--preview --json`` through the
real CLI (helpers in ``vibflow_testing.advisor``)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from vibflow_testing.advisor import (
    APP,
    commit_app,
    drift_of,
    recover,
    set_memory,
    zone_of,
)
from vibflow_testing.cli import Cli, as_json
from vibflow_testing.git import git
from vibflow_testing.repo import write

pytestmark = pytest.mark.cli  # every test here spawns the CLI

# -- what is changed ----------------------------------------------------------------------


def test_generated_cache_and_build_files_are_excluded_everywhere(repo: Path, cli: Cli) -> None:
    """node_modules/, __pycache__/, dist/ and *.pyc appear only in excluded_generated —
    never in the zone, the drift candidates or any option's paths."""
    commit_app(repo)
    set_memory(repo, explicit={"src/ui/login.py": "the form"})
    write(repo, "src/ui/login.py", "changed\n")
    write(repo, "src/services/auth.py", "changed\n")
    generated = {
        "node_modules/left-pad/index.js",
        "src/__pycache__/app.cpython-311.pyc",
        "dist/bundle.js",
        "lib/stray.pyc",
    }
    for rel in generated:
        write(repo, rel, b"\x00built\x00")
    for args in (("--explain",), ("--preview",)):
        plan = recover(cli, *args)
        assert set(plan["excluded_generated"]) == generated
        assert not generated & set(zone_of(plan))
        assert not generated & drift_of(plan)
        for opt in plan["options"]:
            assert not generated & set(opt["affected_paths"])
    human = cli("recover", "--explain").stdout
    assert "Ignored 4 generated/cache/build file(s)" in human


def test_generated_files_under_an_explicit_directory_stay_out_of_the_zone(
    repo: Path, cli: Cli
) -> None:
    """An explicit directory entry does not pull its __pycache__/*.pyc into the zone."""
    commit_app(repo)
    set_memory(repo, explicit={"src/ui": "the whole UI"})
    write(repo, "src/ui/login.py", "changed\n")
    write(repo, "src/ui/__pycache__/login.cpython-311.pyc", b"\x00pyc")
    plan = recover(cli, "--explain")
    assert plan["excluded_generated"] == ["src/ui/__pycache__/login.cpython-311.pyc"]
    assert "src/ui/__pycache__/login.cpython-311.pyc" not in zone_of(plan)


def test_only_generated_changes_mean_nothing_to_recover(repo: Path, cli: Cli) -> None:
    """When only build/cache files changed the plan is level 0, nothing to recover."""
    commit_app(repo)
    write(repo, "dist/bundle.js", "built\n")
    write(repo, "src/__pycache__/a.cpython-311.pyc", b"\x00")
    plan = recover(cli, "--explain")
    assert plan["level"] == 0
    assert [o["level"] for o in plan["options"]] == [0]
    assert plan["intent_zone"] == []
    assert "Nothing to recover" in plan["summary"]


def test_renamed_deleted_and_binary_files_are_reported_exactly(repo: Path, cli: Cli) -> None:
    """A `git mv` is one renamed change with its old path, a deletion is 'deleted', a binary
    edit is flagged binary without line counts — and all of them are judged like any file."""
    commit_app(repo, {**APP, "assets/logo.png": b"\x89PNG\x00\x01\x02"})
    set_memory(repo, explicit={"src/ui/login.py": "the form"})
    write(repo, "src/ui/login.py", "changed\n")
    git(repo, "mv", "lib/util.py", "lib/helpers.py")
    (repo / "src/services/auth.py").unlink()
    write(repo, "assets/logo.png", b"\x89PNG\x00\x09\x09\x09")
    plan = recover(cli, "--explain")
    changed = {c["path"]: c for c in plan["changed"]}
    assert changed["lib/helpers.py"]["status"] == "renamed"
    assert changed["lib/helpers.py"]["old_path"] == "lib/util.py"
    assert "lib/util.py" not in changed
    assert changed["src/services/auth.py"]["status"] == "deleted"
    assert changed["assets/logo.png"]["binary"] is True
    assert changed["assets/logo.png"]["added_lines"] is None
    assert drift_of(plan) == {"lib/helpers.py", "src/services/auth.py", "assets/logo.png"}


def test_deleted_explicit_file_stays_explicit(repo: Path, cli: Cli) -> None:
    """Deleting an explicit relevant file does not turn it into drift."""
    commit_app(repo)
    set_memory(repo, explicit={"src/services/auth.py": "being replaced"})
    (repo / "src/services/auth.py").unlink()
    write(repo, "src/ui/login.py", "changed\n")
    plan = recover(cli, "--explain")
    assert zone_of(plan)["src/services/auth.py"] == "explicit"
    assert "src/services/auth.py" not in drift_of(plan)


def test_non_ascii_names_are_exact_not_octal_escaped(repo: Path, cli: Cli) -> None:
    """Non-ASCII names come out exactly (UTF-8, no git octal escapes) and an explicit
    non-ASCII entry matches its file."""
    commit_app(repo, {**APP, "src/ui/résumé.py": "a\n", "docs/日本語.md": "b\n"})
    set_memory(repo, explicit={"src/ui/résumé.py": "the CV page"})
    write(repo, "src/ui/résumé.py", "changed\n")
    write(repo, "docs/日本語.md", "changed\n")
    write(repo, "lib/naïve ñ.py", "new\n")
    proc = cli("recover", "--explain", "--json")
    assert proc.returncode == 0, proc.stderr
    assert "\\3" not in proc.stdout
    assert '"docs/日本語.md"' in proc.stdout
    plan = as_json(proc)
    assert zone_of(plan)["src/ui/résumé.py"] == "explicit"
    assert drift_of(plan) == {"docs/日本語.md", "lib/naïve ñ.py"}
    human = cli("recover", "--explain", "--all").stdout
    assert "lib/naïve ñ.py" in human
    assert "docs/日本語.md" in human


# -- unusual repositories -------------------------------------------------------------------


def test_repo_with_no_commits_yet(tmp_path: Path, cli: Cli) -> None:
    """Before the first commit: staged and untracked files are listed, exit 0, no safe
    checkpoint, and no traceback."""
    root = tmp_path / "fresh"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    write(root, "app.py", "print('hi')\n")
    write(root, "src/ui/form.py", "form\n")
    git(root, "add", "app.py")
    proc = cli("recover", "--explain", "--json", cwd=root)
    assert proc.returncode == 0, proc.stderr
    plan = as_json(proc)
    changed = {c["path"]: c["status"] for c in plan["changed"]}
    assert changed == {"app.py": "added", "src/ui/form.py": "untracked"}
    assert plan["safe_checkpoint_candidate"] is None
    assert plan["files_modified"] == 0
    human = cli("recover", "--preview", cwd=root)
    assert human.returncode == 0, human.stderr
    assert "Traceback" not in human.stderr


def test_no_commit_yet_with_a_checkpoint_before_the_drift(tmp_path: Path, cli: Cli) -> None:
    """Before the first commit, a checkpoint, then the agent's edits: the plan is made
    (exit 0) for the explanation and the preview alike — no last commit is looked
    for where there is none."""
    root = tmp_path / "fresh"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    write(root, ".vibflow/.gitignore", "*\n")
    for rel, text in APP.items():
        write(root, rel, text)
    set_memory(root, explicit={"src/ui/login.py": "the form"})
    assert cli("checkpoint", "create", "-m", "before", cwd=root).returncode == 0
    time.sleep(0.05)
    write(root, "src/ui/login.py", "changed\n")
    write(root, "src/services/auth.py", "def check(u, p):\n    return True\n")
    for args in (("--explain", "--json"), ("--preview", "--json"), ("--explain",)):
        proc = cli("recover", *args, cwd=root)
        assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize(
    "args",
    [("recover", "--explain"), ("recover", "--preview", "--json"), ("run", "recover")],
)
def test_non_git_directory_is_a_clear_error(tmp_path: Path, cli: Cli, args: tuple[str]) -> None:
    """Outside a git work tree: exit 2, one plain sentence with what to do, no traceback,
    and nothing is created in that folder."""
    plain = tmp_path / "plain"
    plain.mkdir()
    write(plain, "file.txt", "x\n")
    proc = cli(*args, cwd=plain, env={"GIT_CEILING_DIRECTORIES": str(tmp_path)})
    assert proc.returncode == 2
    assert "not inside a git work tree" in proc.stderr
    assert "git init" in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    assert sorted(p.name for p in plain.iterdir()) == ["file.txt"]
