"""Your own edits are never the agent's drift: with the agent hooks recording turns, a
file you changed after the agent's last turn ended (while no turn ran) is in scope as
``user_edit`` — never drift, never in the recommended restore — and the turn records
decide it, not a guess: a file the agent touched again in a later turn is judged as
usual, and without turn records nothing changes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from vibflow_testing.agents import run_hook as hook
from vibflow_testing.cli import as_json, vf
from vibflow_testing.repo import init_repo, write

pytestmark = pytest.mark.cli

AFTER_LAST = "you changed it after the agent's last turn ended, while no turn ran"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = init_repo(
        tmp_path / "proj",
        {"src/app.py": "app = 1\n", "src/util.py": "util = 1\n", "notes.md": "my notes\n"},
        old=True,
    )
    for args in (
        ("memory", "intent", "Make the util helper return two", "--yes"),
        ("memory", "relevant", "src/util.py", "the helper", "--yes"),
    ):
        assert vf(root, *args).returncode == 0
    return root


def _preview(repo: Path) -> dict[str, Any]:
    proc = vf(repo, "recover", "--preview", "--json")
    assert proc.returncode == 0, proc.stderr
    return as_json(proc)


def _turn(repo: Path, rel: str, text: str) -> None:
    """One agent turn that edits ``rel`` with its Edit tool."""
    hook(repo, "claude-code", "turn-start")
    write(repo, rel, text)
    hook(repo, "claude-code", "edit", repo / rel)
    hook(repo, "claude-code", "turn-end")


def _recommended(plan: dict[str, Any]) -> dict[str, Any]:
    return next(o for o in plan["options"] if o["recommended"])


def test_your_edit_after_the_last_turn_is_in_scope_and_never_restored(repo: Path) -> None:
    """Turn 1 does the work, turn 2 drifts, then you append to notes.md: notes.md is in
    scope as user_edit with a reason you can check, only the agent's drift is a
    candidate, and the recommended restore leaves your notes alone."""
    _turn(repo, "src/util.py", "util = 2\n")
    _turn(repo, "src/app.py", "app = 'drifted in turn 2'\n")
    write(repo, "notes.md", "my notes\nand a line I added myself\n")
    plan = _preview(repo)
    zone = {z["path"]: z for z in plan["intent_zone"]}
    assert zone["notes.md"]["source"] == "user_edit"
    assert zone["notes.md"]["reason"] == AFTER_LAST
    assert [d["path"] for d in plan["drift_candidates"]] == ["src/app.py"]
    best = _recommended(plan)
    assert "notes.md" not in best["affected_paths"]
    assert best["affected_paths"] == ["src/app.py"]


def test_your_edit_between_turns_names_the_turn_it_followed(repo: Path) -> None:
    """An edit you made between turn 1 and turn 2, to a file turn 2 left alone, is
    yours too; the reason names the turn it came after."""
    _turn(repo, "src/util.py", "util = 2\n")
    write(repo, "notes.md", "my notes, edited between the turns\n")
    _turn(repo, "src/app.py", "app = 'drifted in turn 2'\n")
    plan = _preview(repo)
    zone = {z["path"]: z for z in plan["intent_zone"]}
    assert zone["notes.md"]["source"] == "user_edit"
    assert "after the agent's turn 1 ended" in zone["notes.md"]["reason"]
    assert [d["path"] for d in plan["drift_candidates"]] == ["src/app.py"]


def test_a_file_the_agent_touched_in_a_later_turn_is_not_yours(repo: Path) -> None:
    """You edit notes.md between the turns, then turn 2 rewrites it: the last hand on it
    was the agent's, so it is judged as any change (here: drift)."""
    _turn(repo, "src/util.py", "util = 2\n")
    write(repo, "notes.md", "my notes, edited between the turns\n")
    _turn(repo, "notes.md", "the agent rewrote the notes\n")
    plan = _preview(repo)
    sources = {z["path"]: z["source"] for z in plan["intent_zone"]}
    assert "notes.md" not in sources
    assert "notes.md" in [d["path"] for d in plan["drift_candidates"]]


def test_a_shell_edit_of_the_agent_during_its_turn_is_not_yours(repo: Path) -> None:
    """A file the agent's shell changed during the turn (no tool reported it) changed
    before the turn ended: the agent's, so still drift."""
    hook(repo, "claude-code", "turn-start")
    write(repo, "src/util.py", "util = 2\n")
    hook(repo, "claude-code", "edit", repo / "src" / "util.py")
    write(repo, "notes.md", "the agent's shell wrote here\n")
    hook(repo, "claude-code", "turn-end")
    plan = _preview(repo)
    assert "notes.md" in [d["path"] for d in plan["drift_candidates"]]
    assert all(z["source"] != "user_edit" for z in plan["intent_zone"])


def test_without_turn_records_your_edit_is_judged_as_before(repo: Path) -> None:
    """No agent hook ever ran: nothing tells your edits from the agent's, so the plan
    is unchanged (notes.md is a drift candidate for you to review)."""
    write(repo, "src/util.py", "util = 2\n")
    write(repo, "notes.md", "my notes\nand a line I added myself\n")
    plan = _preview(repo)
    assert [d["path"] for d in plan["drift_candidates"]] == ["notes.md"]
    assert not (repo / ".vibflow" / "agents.db").exists()
