"""A run an error stopped is ``interrupted``, never ``running`` with nobody on it.

Issue 11's blocker: a failure the engine raises (here: a first step whose
result outgrows the run context's bound) used to leave the run ``running`` at
its first state with no owner, so `runs abort` and `resume` answered "being
advanced by another process" forever and `recap` did not list it. Now the
run is journaled ``interrupted`` where it stopped, abortable, resumable and
listed with its resume command — and a run already left that way by an older
vibflow is noticed and marked the same.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from vibflow_testing.cli import as_json, effects_of, vf

BOUND = 65536  # the shipped engine.context_max_bytes
TOO_BIG = str(BOUND + 1000)


def listed(root: Path) -> dict[str, dict[str, object]]:
    proc = vf(root, "runs", "list", "--json")
    assert proc.returncode == 0, proc.stderr
    return {r["run_id"]: r for r in as_json(proc)["runs"]}


def stopped_by_the_bound(root: Path) -> str:
    proc = vf(root, "run", "grows", "--input", f"grow={TOO_BIG}", "--json")
    assert proc.returncode == 1, proc.stderr
    assert "over the 65536-byte limit" in proc.stderr
    (run_id,) = listed(root)
    return run_id


def test_a_failure_inside_the_first_step_leaves_the_run_interrupted(repo: Path) -> None:
    """The run stopped by the context bound is interrupted at its first state, owner-less."""
    run_id = stopped_by_the_bound(repo)
    run = listed(repo)[run_id]
    assert (run["status"], run["state"]) == ("interrupted", "grow")


def test_such_a_run_can_be_aborted(repo: Path) -> None:
    """`runs abort` ends it (exit 0), instead of answering busy forever."""
    run_id = stopped_by_the_bound(repo)
    proc = vf(repo, "runs", "abort", run_id, "--json")
    assert proc.returncode == 0, proc.stderr
    assert listed(repo)[run_id]["status"] == "aborted"


def test_such_a_run_can_be_resumed_once_the_cause_is_fixed(repo: Path) -> None:
    """With the bound raised in policy, `resume` re-runs the step and the run finishes."""
    run_id = stopped_by_the_bound(repo)
    (repo / ".vibflow" / "policy.yaml").write_text(
        "engine:\n  context_max_bytes: 262144\n", encoding="utf-8"
    )
    proc = vf(repo, "resume", run_id, "--json")
    assert proc.returncode == 0, proc.stderr
    assert listed(repo)[run_id]["status"] == "done"
    assert effects_of(repo, run_id)["grow grow"] == 2  # the stopped attempt, then the resumed one


def test_the_project_recap_lists_it_with_its_resume_command(repo: Path) -> None:
    """`recap --json` lists the stopped run among the open runs, with `vibflow resume RUN`."""
    run_id = stopped_by_the_bound(repo)
    data = as_json(vf(repo, "recap", "--json"))
    (item,) = [r for r in data["open_runs"] if r["run_id"] == run_id]
    assert item["status"] == "interrupted"
    assert item["resume_command"] == f"vibflow resume {run_id}"


def test_a_run_left_running_without_an_owner_is_noticed_as_interrupted(repo: Path) -> None:
    """A journal holding a `running`, owner-less run (an older vibflow's leftover) shows
    it interrupted, and it can be aborted."""
    proc = vf(repo, "run", "grows", "--input", "grow=10", "--json")
    run_id = as_json(proc)["run_id"]
    with closing(sqlite3.connect(repo / ".vibflow" / "runs.db")) as db, db:
        db.execute(
            "UPDATE runs SET status='running', state='grow', owner_pid=NULL, owner_host=NULL,"
            " owner_started=NULL, owner_token=NULL WHERE run_id=?",
            (run_id,),
        )
    assert listed(repo)[run_id]["status"] == "interrupted"
    assert vf(repo, "runs", "abort", run_id).returncode == 0
