"""The read-only proof: the work tree, everything under ``.git`` outside vibflow's own
refs, the object set and the user's index are byte-identical before and after every
recovery command; a stray parent ``.vibflow`` folder does not hide the changes.

Each scenario builds a git repository in ``tmp_path``, changes files the way a user or
an AI agent would, and reads ``vibflow recover --explain/--preview --json`` through the
real CLI (helpers in ``vibflow_testing.advisor``)."""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from vibflow_testing.advisor import checkpoint, commit_app, drift_of, recover, set_memory
from vibflow_testing.cli import Cli, as_json, vf
from vibflow_testing.git import git
from vibflow_testing.repo import write

pytestmark = pytest.mark.cli  # every test here spawns the CLI

# -- read-only proof ----------------------------------------------------------------------


def _hash_tree(top: Path, skip: set[str]) -> dict[str, str]:
    """Every folder, file (content and mode) and symlink under ``top``, by relative path."""
    out: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(top):
        here = Path(dirpath)
        rel_dir = here.relative_to(top).as_posix()
        prefix = "" if rel_dir == "." else rel_dir + "/"
        dirnames[:] = [d for d in dirnames if prefix + d not in skip]
        out[prefix] = "dir"
        for name in filenames:
            rel = prefix + name
            if rel in skip:
                continue
            path = here / name
            if path.is_symlink():
                out[rel] = "link:" + str(path.readlink())
            else:
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
                out[rel] = f"{digest}:{path.lstat().st_mode:o}"
    return out


def _objects(root: Path) -> set[str]:
    out = git(root, "cat-file", "--batch-all-objects", "--batch-check")
    return {line.split()[0] for line in out.splitlines() if line}


def _vibflow_reachable(root: Path) -> set[str]:
    tips = git(root, "for-each-ref", "--format=%(objectname)", "refs/vibflow").split()
    if not tips:
        return set()
    out = git(root, "rev-list", "--objects", *tips)
    return {line.split()[0] for line in out.splitlines() if line}


def user_state(root: Path) -> dict[str, Any]:
    """Everything of the user's: the work tree (minus .vibflow/), .git (minus objects, the
    index, vibflow's refs and reflogs), packed-refs without vibflow's lines, the index's
    bytes and mtime, and the object set."""
    dot_git = root / ".git"
    packed = dot_git / "packed-refs"
    return {
        "work tree": _hash_tree(root, {".git", ".vibflow"}),
        ".git": _hash_tree(
            dot_git, {"objects", "index", "refs/vibflow", "logs/refs/vibflow", "packed-refs"}
        ),
        "packed-refs": (
            [ln for ln in packed.read_text().splitlines() if "refs/vibflow/" not in ln]
            if packed.exists()
            else None
        ),
        "index bytes": hashlib.sha256((dot_git / "index").read_bytes()).hexdigest(),
        "index mtime": (dot_git / "index").stat().st_mtime_ns,
        "objects": _objects(root),
    }


def assert_unchanged(root: Path, before: dict[str, Any], after_what: str) -> None:
    after = user_state(root)
    new_objects = after["objects"] - before["objects"]
    assert not new_objects - _vibflow_reachable(root), f"{after_what}: objects outside refs/vibflow"
    assert not before["objects"] - after["objects"], f"{after_what}: objects disappeared"
    for key in ("work tree", ".git", "packed-refs", "index bytes", "index mtime"):
        assert after[key] == before[key], f"{after_what} changed the user's {key}"


def _busy_repo(repo: Path, cli: Cli, *, stat_dirty: bool) -> None:
    """Staged, unstaged, untracked, renamed, deleted and generated files, a checkpoint, a
    stash, a branch, a tag, packed refs and an untracked cache. The index is then settled
    (no racily-clean entries); with ``stat_dirty`` one tracked file gets a new mtime with
    the same content — the state in which `git status` or `git diff` rewrite the index."""
    commit_app(repo)
    git(repo, "config", "core.untrackedCache", "true")
    git(repo, "update-index", "--untracked-cache")
    git(repo, "branch", "feature")
    git(repo, "tag", "v1")
    write(repo, "lib/util.py", "stashed\n")
    git(repo, "stash", "-q")
    set_memory(repo, explicit={"src/ui/login.py": "the form"})
    checkpoint(cli)
    git(repo, "pack-refs", "--all")
    write(repo, "src/ui/login.py", "staged\n")
    git(repo, "add", "src/ui/login.py")
    write(repo, "src/ui/login.py", "staged then edited\n")
    write(repo, "src/services/auth.py", "unstaged\n")
    git(repo, "mv", "config.yaml", "settings.yaml")
    (repo / "tests/test_login.py").unlink()
    write(repo, "new/feature.py", "untracked\n")
    write(repo, "node_modules/x/index.js", "generated\n")
    past = time.time() - 60
    for dirpath, dirnames, filenames in os.walk(repo):
        dirnames[:] = [d for d in dirnames if d not in (".git", ".vibflow")]
        for name in filenames:
            os.utime(Path(dirpath, name), (past, past))
    git(repo, "update-index", "-q", "--refresh")
    if stat_dirty:
        header = repo / "src/ui/header.py"
        os.utime(header, (past - 60, past - 60))


@pytest.mark.parametrize("stat_dirty", [False, True], ids=["settled-index", "stat-dirty-index"])
def test_explain_and_preview_change_nothing_of_the_users(
    repo: Path, cli: Cli, stat_dirty: bool
) -> None:
    """`recover --explain`, `--preview` (human and JSON, with --all) and feedback leave the
    work tree, .git (minus vibflow's refs), the object set and the index byte-identical."""
    _busy_repo(repo, cli, stat_dirty=stat_dirty)
    before = user_state(repo)
    for args in (
        ("--explain",),
        ("--explain", "--json"),
        ("--preview",),
        ("--preview", "--json", "--all"),
    ):
        proc = cli("recover", *args)
        assert proc.returncode == 0, proc.stderr
        assert_unchanged(repo, before, "recover " + " ".join(args))
    plan = recover(cli, "--preview")
    drifting = sorted(drift_of(plan))
    assert drifting
    fb = cli("recover", "feedback", plan["plan_id"], "--correct", drifting[0])
    assert fb.returncode == 0, fb.stderr
    assert_unchanged(repo, before, "recover feedback")


@pytest.mark.parametrize("stat_dirty", [False, True], ids=["settled-index", "stat-dirty-index"])
def test_recover_flow_to_the_choice_changes_nothing(repo: Path, cli: Cli, stat_dirty: bool) -> None:
    """`vibflow run recover` up to the choice, then choosing an option that can run
    (restoring is switched off here, so a read-only one), leaves the user's tree,
    .git, object set and index byte-identical."""
    _busy_repo(repo, cli, stat_dirty=stat_dirty)
    before = user_state(repo)
    started = cli("run", "recover", "--json")
    assert started.returncode == 0, started.stderr
    run = as_json(started)
    assert run["status"] == "waiting"
    assert_unchanged(repo, before, "run recover")
    runnable = next(o for o in run["plan"]["options"] if not o["blocked_reason"])
    chosen = cli("step", run["run_id"], "choose", "--input", f"option={runnable['option_id']}")
    assert chosen.returncode == 0, chosen.stderr
    assert_unchanged(repo, before, "step choose")


def test_a_stray_parent_vibflow_folder_does_not_hide_the_changes(tmp_path: Path) -> None:
    """The project is what git says, never a marker folder found by walking up (peer lesson:
    a parent `.vibelign/` made a 500-file change report "nothing to recover")."""
    parent = tmp_path / "outer"
    (parent / ".vibflow").mkdir(parents=True)
    (parent / ".vibflow" / "memory.json").write_text("{}", encoding="utf-8")
    inner = parent / "work" / "project"
    inner.mkdir(parents=True)
    git(inner, "init", "-q", "-b", "main")
    git(
        inner,
        "-c",
        "user.name=a",
        "-c",
        "user.email=a@b.c",
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        "init",
    )
    for i in range(30):
        (inner / f"file{i}.py").write_text(f"x = {i}\n", encoding="utf-8")
    proc = vf(inner / ".", "recover", "--explain", "--json")
    assert proc.returncode == 0, proc.stderr
    plan = json.loads(proc.stdout)
    assert len(plan["changed"]) == 30
    assert (inner / ".vibflow").is_dir()
    assert (parent / ".vibflow" / "memory.json").read_text(encoding="utf-8") == "{}"
