"""Stale intent (P0 gate 5: older than a day or five commits since) is labelled; the
drift-accuracy circuit breaker degrades on wrong labels and recovers on correct ones.

Each scenario builds a git repository in ``tmp_path``, changes files the way a user or
an AI agent would, and reads ``vibflow recover --explain/--preview --json`` through the
real CLI (helpers in ``vibflow_testing.advisor``)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from vibflow_testing.advisor import APP, commit_app, drift_of, recover, set_memory, zone_of
from vibflow_testing.cli import Cli, as_json
from vibflow_testing.git import git
from vibflow_testing.repo import write

pytestmark = pytest.mark.cli  # every test here spawns the CLI

# -- stale intent (P0 gate 5) -----------------------------------------------------------------


def test_intent_older_than_a_day_is_stale_and_labelled(repo: Path, cli: Cli) -> None:
    """An intent last updated 30 h ago: intent_stale, diff-aware mode with the reason, explicit
    files still explicit, and the human output labels the intent STALE."""
    commit_app(repo)
    set_memory(
        repo,
        intent="Polish the header",
        explicit={"src/ui/header.py": "the header"},
        updated=datetime.now(UTC) - timedelta(hours=30),
    )
    write(repo, "src/ui/header.py", "changed\n")
    write(repo, "src/services/auth.py", "changed\n")
    plan = recover(cli, "--explain")
    assert plan["intent_stale"] is True
    assert plan["memory_mode"] == "diff_aware"
    assert "stale" in plan["memory_note"]
    zone = zone_of(plan)
    assert zone["src/ui/header.py"] == "explicit"
    assert zone["src/services/auth.py"] == "diff_fallback"
    human = cli("recover", "--explain").stdout
    intent_line = next(line for line in human.splitlines() if "Polish the header" in line)
    assert "STALE" in intent_line


def test_intent_with_five_commits_since_is_stale(repo: Path, cli: Cli) -> None:
    """An intent set through the CLI goes stale after five more commits, and says so."""
    commit_app(repo)
    assert cli("memory", "intent", "Fix the login", "--yes").returncode == 0
    for i in range(5):
        write(repo, f"log/{i}.txt", f"{i}\n")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", f"c{i}")
    write(repo, "src/ui/login.py", "changed\n")
    plan = recover(cli, "--explain")
    assert plan["intent_stale"] is True
    assert plan["memory_mode"] == "diff_aware"
    assert "commits" in plan["memory_note"]
    assert "[STALE]" in cli("recover", "--explain").stdout


def test_fresh_intent_is_not_labelled_stale(repo: Path, cli: Cli) -> None:
    """A just-set intent is shown without the STALE label and narrows the zone."""
    commit_app(repo)
    set_memory(repo, intent="Polish the header", explicit={"src/ui/header.py": "the header"})
    write(repo, "src/ui/header.py", "changed\n")
    plan = recover(cli, "--explain")
    assert plan["intent_stale"] is False
    assert plan["memory_mode"] == "memory"
    assert "STALE" not in cli("recover", "--explain").stdout


# -- the drift-accuracy circuit breaker -----------------------------------------------------

DRIFT5 = [f"lib/mod{i}.py" for i in range(5)]


def _breaker_repo(repo: Path) -> None:
    commit_app(repo, {**APP, **dict.fromkeys(DRIFT5, "x\n")})
    set_memory(repo, explicit={"src/ui/login.py": "the form"})
    write(repo, "src/ui/login.py", "changed\n")
    for p in DRIFT5:
        write(repo, p, "changed\n")


def _feedback(cli: Cli, plan_id: str, flag: str, paths: list[str]) -> dict[str, Any]:
    args = [a for p in paths for a in (flag, p)]
    proc = cli("recover", "feedback", plan_id, *args, "--json")
    assert proc.returncode == 0, proc.stderr
    return as_json(proc)


def _degrade(cli: Cli) -> None:
    first = recover(cli, "--preview")
    assert drift_of(first) == set(DRIFT5)
    assert _feedback(cli, first["plan_id"], "--wrong", DRIFT5[:3])["circuit_breaker_state"] == (
        "active"
    )
    second = recover(cli, "--preview")
    state = _feedback(cli, second["plan_id"], "--wrong", DRIFT5[3:])
    assert state["circuit_breaker_state"] == "degraded"
    assert state["labels"] == 5


def test_wrong_labels_degrade_the_breaker(repo: Path, cli: Cli) -> None:
    """Five wrong drift labels across two previews: degraded — no drift candidates,
    diff-aware mode, a visible marker, explicit files still explicit, audited."""
    _breaker_repo(repo)
    _degrade(cli)
    plan = recover(cli, "--preview")
    assert plan["circuit_breaker_state"] == "degraded"
    assert plan["drift_candidates"] == []
    assert plan["memory_mode"] == "diff_aware"
    assert "circuit breaker degraded" in plan["memory_note"]
    assert zone_of(plan)["src/ui/login.py"] == "explicit"
    assert all(zone_of(plan)[p] == "diff_fallback" for p in DRIFT5)
    human = cli("recover", "--explain").stdout
    assert "Drift labels: OFF (degraded)" in human
    rows = [
        json.loads(line)
        for line in (repo / ".vibflow" / "audit.jsonl").read_text().splitlines()
        if '"recovery_preview"' in line
    ]
    assert rows[-1]["circuit_breaker_state"] == "degraded"
    assert rows[0]["circuit_breaker_state"] == "active"


def test_four_wrong_labels_are_not_enough_to_degrade(repo: Path, cli: Cli) -> None:
    """Below the minimum sample of five labels the breaker stays active."""
    _breaker_repo(repo)
    plan = recover(cli, "--preview")
    state = _feedback(cli, plan["plan_id"], "--wrong", DRIFT5[:4])
    assert state["circuit_breaker_state"] == "active"
    assert state["accuracy"] is None
    assert recover(cli, "--explain")["drift_candidates"]


def test_degraded_breaker_recovers_after_enough_correct_labels(repo: Path, cli: Cli) -> None:
    """After degrading, the user keeps labelling on fresh previews (now confirming the
    labels) and the breaker returns to active; the paths the user said were wrongly
    labelled drift stay in scope for this intent (their corrections are remembered)."""
    _breaker_repo(repo)
    _degrade(cli)
    state = "degraded"
    for _ in range(6):
        plan = recover(cli, "--preview")
        proc = cli(
            "recover",
            "feedback",
            plan["plan_id"],
            *[a for p in DRIFT5 for a in ("--correct", p)],
            "--json",
        )
        assert proc.returncode == 0, proc.stderr
        state = as_json(proc)["circuit_breaker_state"]
        if state == "active":
            break
    assert state == "active"
    plan = recover(cli, "--explain")
    assert drift_of(plan) == set()
    assert all(zone_of(plan)[p] == "user_feedback" for p in DRIFT5)
