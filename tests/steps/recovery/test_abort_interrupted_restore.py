"""`vibflow runs abort` of a run whose restore was killed mid-way removes exactly the temp
files that restore made (found by its generation in the restore ledger) and nothing else:
a user's file named like a temp file of another generation, or of the same generation
next to a path the restore never wrote, is kept. The next checkpoint and `recover` then
see no trace of the restore."""

from __future__ import annotations

import re
import signal
import time
from pathlib import Path

import pytest
from vibflow_testing.apply import APPLY, choose, commit_all, ok_json, start, tree_state
from vibflow_testing.cli import vf
from vibflow_testing.git import gtext
from vibflow_testing.repo import write

pytestmark = pytest.mark.cli  # every test here spawns the CLI

KILLED = -signal.SIGKILL
FILES = [f"src/pkg/mod_{i:03d}.py" for i in range(200)]  # more than one batch (128)
TEMP = re.compile(r"\.(.+)\.vibflow-restore-(\d+)\.tmp\Z")


def _temps(root: Path) -> dict[str, int]:
    """Every restore-temp-shaped file in the tree → its generation."""
    out = {}
    for rel in tree_state(root):
        found = TEMP.match(rel.rpartition("/")[2])
        if found:
            out[rel] = int(found.group(2))
    return out


def _killed_restore(repo: Path) -> tuple[str, int]:
    """200 drifted files, a full rollback confirmed and SIGKILLed after its 5th file.
    Returns the run id and the restore's generation."""
    for rel in FILES:
        write(repo, rel, f"original {rel}\n")
    write(repo, "src/ui/login.py", "form\n")
    commit_all(repo)
    assert vf(repo, "memory", "relevant", "src/ui/login.py", "the form", "--yes").returncode == 0
    ok_json(vf(repo, "checkpoint", "create", "--json"))
    time.sleep(0.05)
    for rel in FILES:
        write(repo, rel, f"drifted {rel}\n")
    at = choose(repo, start(repo), 4)
    killed = vf(
        repo,
        "step",
        at["run_id"],
        "confirm",
        "--input",
        f"confirmation={at['confirmation_expected']}",
        "--json",
        env={**APPLY, "VIBFLOW_CRASH_AT": "item:5"},
    )
    assert killed.returncode == KILLED, (killed.returncode, killed.stderr[-500:])
    generations = set(_temps(repo).values())
    assert len(generations) == 1, generations
    return at["run_id"], generations.pop()


def test_abort_removes_exactly_the_killed_restores_temp_files(repo: Path) -> None:
    """After the kill the tree holds that restore's temp files; `runs abort` removes every
    one of them and keeps look-alike files the restore did not make."""
    run_id, gen = _killed_restore(repo)
    left = _temps(repo)
    assert len(left) > 100, len(left)  # the current batch and the one staged behind it
    other_gen = f"src/pkg/.mod_000.py.vibflow-restore-{gen + 7}.tmp"
    unrelated = f"notes/.todo.md.vibflow-restore-{gen}.tmp"  # no restored file is named todo
    write(repo, other_gen, "the user's own file\n")
    write(repo, unrelated, "also the user's\n")

    aborted = vf(repo, "runs", "abort", run_id, "--json")
    assert aborted.returncode in (0, 1), aborted.stderr
    assert "Traceback" not in aborted.stderr
    assert ok_json(vf(repo, "runs", "show", run_id, "--json"))["status"] == "aborted"
    assert sorted(_temps(repo)) == sorted([other_gen, unrelated])
    assert (repo / other_gen).read_text(encoding="utf-8") == "the user's own file\n"

    # Nothing of the restore is picked up afterwards.
    (repo / other_gen).unlink()
    (repo / unrelated).unlink()
    meta = ok_json(vf(repo, "checkpoint", "create", "--json"))
    held = gtext(repo, "ls-tree", "-r", "--name-only", meta["commit"])
    assert "vibflow-restore" not in held
    explained = vf(repo, "recover", "--explain", "--all", "--json")
    assert explained.returncode == 0, explained.stderr
    assert "vibflow-restore" not in explained.stdout
    assert not list((repo / ".vibflow" / "recovery" / "restores").glob("*.json"))


def test_a_finished_restore_leaves_no_ledger_entry(repo: Path) -> None:
    """Resuming the killed run to the end removes its temp files and its ledger entry."""
    run_id, _gen = _killed_restore(repo)
    resumed = vf(repo, "resume", run_id, "--json", env=APPLY)
    assert resumed.returncode == 0, resumed.stderr[-800:]
    assert _temps(repo) == {}
    assert not list((repo / ".vibflow" / "recovery" / "restores").glob("*.json"))
    for rel in FILES[:3]:
        assert (repo / rel).read_text(encoding="utf-8") == f"original {rel}\n"
