"""A recover run's recap says what happened: what was restored from where, what
was skipped and why, the safety checkpoint, what to verify, and a crash and
its resume — not only the states the run passed through."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from vibflow_testing.apply import (
    APPLY,
    PARTIAL_PATHS,
    choose,
    confirm,
    drifted,
    ok_json,
    start,
)
from vibflow_testing.cli import vf

KILLED = -9


def recap_of(repo: Path, run_id: str) -> dict[str, Any]:
    return ok_json(vf(repo, "recap", run_id, "--json"))


def test_a_subset_restore_recap_counts_what_it_put_back(repo: Path) -> None:
    ckpt = drifted(repo)
    run = start(repo)
    subset = ["config.yaml", "src/services/auth.py"]
    at = choose(repo, run, 3, *(f"--input=paths={p}" for p in subset))
    assert at["paths_total"] == 2
    done = ok_json(confirm(repo, at))
    assert done["status"] == "done", done
    recap = recap_of(repo, run["run_id"])
    assert recap["headline"] == f"recover restored 2 files from {ckpt}"
    text = "\n".join(recap["bullets"])
    assert "Restored 2 of the 2 confirmed file(s) to match" in text
    assert "Safety checkpoint ckpt_" in text
    refs = {(a["kind"], a["ref"]) for a in recap["artifacts"]}
    assert {("file", p) for p in subset} <= refs
    assert ("checkpoint", ckpt) in refs
    assert ("checkpoint", done["result"]["sandwich_checkpoint_id"]) in refs
    assert "pytest tests/test_auth.py" in recap["next_actions"]


def test_a_crashed_and_resumed_restore_says_so_in_its_recap(repo: Path) -> None:
    drifted(repo)
    run = start(repo)
    at = choose(repo, run, 3)
    assert at["paths_total"] == len(PARTIAL_PATHS)
    crashed = confirm(repo, at, env={**APPLY, "VIBFLOW_CRASH_AT": "item:2"})
    assert crashed.returncode == KILLED, crashed.stderr
    resumed = ok_json(vf(repo, "resume", run["run_id"], "--json", env=APPLY))
    assert resumed["status"] == "done", resumed
    text = "\n".join(recap_of(repo, run["run_id"])["bullets"])
    assert "Interrupted 1 time(s) (at 'apply'); resumed 1 time(s)" in text
    assert f"of the {len(PARTIAL_PATHS)} confirmed file(s)" in text


def test_a_cancelled_choice_recap_says_nothing_changed(repo: Path) -> None:
    drifted(repo)
    run = start(repo)
    at = choose(repo, run, 3)
    done = ok_json(vf(repo, "step", at["run_id"], "cancel", "--json", env=APPLY))
    assert done["status"] == "done"
    recap = recap_of(repo, run["run_id"])
    assert "cancelled before confirming" in recap["headline"]
