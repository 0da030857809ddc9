"""What `vibflow agent install` wrote is vibflow's, not an agent's drift.

Found using the agent loop: a checkpoint, then `vibflow agent install claude-code`,
then an agent's turn — and `vibflow recover` called the new `.claude/settings.json`
out of scope, and its recommended partial restore would have deleted it, taking
vibflow's own hooks out. The file is listed with the generated files (never drift,
never restored) for as long as vibflow's hooks are its only change; once anyone
edits it, it is judged like any other file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from vibflow_testing.apply import commit_all, ok_json
from vibflow_testing.cli import vf
from vibflow_testing.repo import write

SETTINGS = ".claude/settings.json"


def project(repo: Path) -> None:
    write(repo, "src/app.py", "def main():\n    return 1\n")
    write(repo, "src/billing.py", "RATE = 3\n")
    commit_all(repo)
    for args in (
        ("memory", "intent", "Make main return two", "--yes"),
        ("memory", "relevant", "src/app.py", "the entry point", "--yes"),
        ("checkpoint", "create", "-m", "before the hooks"),
    ):
        proc = vf(repo, *args)
        assert proc.returncode == 0, proc.stderr


def agent_turn(repo: Path) -> None:
    write(repo, "src/app.py", "def main():\n    return 2\n")
    write(repo, "src/billing.py", "RATE = 4\n")  # the drift


def preview(repo: Path) -> dict[str, Any]:
    return ok_json(vf(repo, "recover", "--preview", "--json"))


def restored_by_any_option(plan: dict[str, Any]) -> set[str]:
    return {p for o in plan["options"] for key in ("affected_paths", "deletes") for p in o[key]}


def drift(plan: dict[str, Any]) -> set[str]:
    return {d if isinstance(d, str) else d["path"] for d in plan["drift_candidates"]}


def test_hooks_installed_after_the_safe_point_are_neither_drift_nor_restored(repo: Path) -> None:
    project(repo)
    assert vf(repo, "agent", "install", "claude-code").returncode == 0
    agent_turn(repo)

    plan = preview(repo)
    assert drift(plan) == {"src/billing.py"}
    assert SETTINGS in plan["excluded_generated"]
    assert SETTINGS not in restored_by_any_option(plan)
    (changed,) = [c for c in plan["changed"] if c["path"] == SETTINGS]
    assert "vibflow agent install claude-code" in changed["generated_why"]
    text = vf(repo, "recover", "--explain").stdout
    assert "vibflow's own hooks for Claude Code" in text


def test_hooks_merged_into_a_committed_settings_file_are_left_alone(repo: Path) -> None:
    write(repo, SETTINGS, json.dumps({"permissions": {"allow": ["Bash(ls)"]}}, indent=2) + "\n")
    project(repo)
    assert vf(repo, "agent", "install", "claude-code").returncode == 0
    agent_turn(repo)

    plan = preview(repo)
    assert SETTINGS in plan["excluded_generated"]
    assert SETTINGS not in restored_by_any_option(plan)
    # Taken out again, the file is as committed: nothing changed there at all.
    assert vf(repo, "agent", "uninstall", "claude-code").returncode == 0
    assert SETTINGS not in {c["path"] for c in preview(repo)["changed"]}


def test_a_settings_file_edited_after_install_is_judged_like_any_other(repo: Path) -> None:
    project(repo)
    assert vf(repo, "agent", "install", "claude-code").returncode == 0
    data = json.loads((repo / SETTINGS).read_text(encoding="utf-8"))
    data["env"] = {"DEBUG": "1"}  # the agent (or anyone) changed more than the hooks
    write(repo, SETTINGS, json.dumps(data, indent=2) + "\n")
    agent_turn(repo)

    plan = preview(repo)
    assert SETTINGS not in plan["excluded_generated"]
    assert SETTINGS in drift(plan)
