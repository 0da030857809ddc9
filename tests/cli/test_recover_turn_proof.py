"""A checkpoint you took after an unnoticed drift: the agent hooks' turn records let
recovery step back past it, to the start of the agent's turns that made the drift,
only when they prove every change to every drift candidate since was the agent's
(``steps/recovery/turn_proof``). Real CLI, real hooks (the agent's recorded
payloads), real checkpoints, a real restore."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from vibflow_testing.agents import run_hook as hook
from vibflow_testing.apply import choose, confirm, ok_json, start, stored_option
from vibflow_testing.cli import as_json, vf
from vibflow_testing.git import git
from vibflow_testing.repo import init_repo, write
from vibflow_testing.terminal import drive

pytestmark = pytest.mark.cli

COMMITTED = {
    "src/util.py": "util = 1\n",
    "src/app.py": "app = 1\n",
    "notes.md": "my notes\n",
}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = init_repo(tmp_path / "proj", COMMITTED, old=True)
    for args in (
        ("memory", "intent", "Make the util helper return two", "--yes"),
        ("memory", "relevant", "src/util.py", "the helper", "--yes"),
    ):
        assert vf(root, *args).returncode == 0
    return root


def _turn(repo: Path, edits: dict[str, str]) -> None:
    """One agent turn that writes ``edits`` with its Edit tool."""
    hook(repo, "claude-code", "turn-start")
    for rel, text in edits.items():
        write(repo, rel, text)
        hook(repo, "claude-code", "edit", repo / rel)
    hook(repo, "claude-code", "turn-end")


def _your_checkpoint(repo: Path) -> str:
    made = ok_json(vf(repo, "checkpoint", "create", "-m", "the helper works", "--json"))
    return str(made["checkpoint_id"])


def _turn_starts(repo: Path) -> list[str]:
    """The agent turns' start checkpoints, oldest first."""
    listed = ok_json(vf(repo, "checkpoint", "list", "--json"))["checkpoints"]
    turns = [c for c in listed if c["reason"] == "agent_turn"]
    turns.sort(key=lambda c: c["created_at"])
    return [c["checkpoint_id"] for c in turns[::2]]  # start, end, start, end ...


def _preview(repo: Path) -> dict[str, Any]:
    proc = vf(repo, "recover", "--preview", "--json")
    assert proc.returncode == 0, proc.stderr
    return as_json(proc)


def test_drift_the_records_prove_is_restored_from_before_the_turn_that_made_it(
    repo: Path,
) -> None:
    """Turn 1 does the work and, unasked, rewrites app.py; you checkpoint, not noticing;
    turn 2 goes on with the helper. Your checkpoint holds app.py's drift as it is now,
    so restoring from it would change nothing; the records prove only turn 1 touched
    app.py, so the safe point is turn 1's start and the restore puts app.py back as
    committed, keeping the helper's work."""
    _turn(repo, {"src/util.py": "util = 2\n", "src/app.py": "app = 'retitled'\n"})
    yours = _your_checkpoint(repo)
    _turn(repo, {"src/util.py": "util = 2  # two\n"})
    plan = _preview(repo)
    assert [d["path"] for d in plan["drift_candidates"]] == ["src/app.py"]
    safe = plan["safe_checkpoint_candidate"]
    assert safe["checkpoint_id"] == _turn_starts(repo)[0] != yours
    assert yours in safe["why"]
    assert "src/app.py" in safe["why"]
    text = vf(repo, "recover", "--preview").stdout
    assert f"Safe checkpoint: {safe['checkpoint_id']}" in text
    assert f"Why this one: checkpoint {yours} already holds" in text
    full = next(o for o in plan["options"] if o["level"] == 4)
    assert f"`vibflow checkpoint restore {yours}`" in full["blocked_reason"]
    run = start(repo)
    assert stored_option(repo, run, 3)["affected_paths"] == ["src/app.py"]
    done = ok_json(confirm(repo, choose(repo, run, 3)))
    assert done["status"] == "done"
    assert (repo / "src/app.py").read_text(encoding="utf-8") == COMMITTED["src/app.py"]
    assert (repo / "src/util.py").read_text(encoding="utf-8") == "util = 2  # two\n"


def test_a_rename_the_records_prove_is_put_back_whole(repo: Path) -> None:
    """Turn 1 does the work and, unasked, renames app.py (its tools report both names);
    you checkpoint, not noticing; turn 2 goes on. The records prove the rename was the
    agent's, so the safe point is turn 1's start and the partial restore puts the
    rename back whole: app.py as committed, the new name gone, the helper's work kept.
    (A rename among the drift candidates used to keep your checkpoint, which holds it.)"""
    hook(repo, "claude-code", "turn-start")
    write(repo, "src/util.py", "util = 2\n")
    hook(repo, "claude-code", "edit", repo / "src/util.py")
    git(repo, "mv", "src/app.py", "src/application.py")
    for rel in ("src/app.py", "src/application.py"):
        hook(repo, "claude-code", "edit", repo / rel)
    hook(repo, "claude-code", "turn-end")
    yours = _your_checkpoint(repo)
    _turn(repo, {"src/util.py": "util = 2  # two\n"})
    plan = _preview(repo)
    assert [d["path"] for d in plan["drift_candidates"]] == ["src/application.py"]
    safe = plan["safe_checkpoint_candidate"]
    assert safe["checkpoint_id"] == _turn_starts(repo)[0] != yours
    done = ok_json(confirm(repo, choose(repo, start(repo), 3)))
    assert done["status"] == "done"
    assert (repo / "src/app.py").read_text(encoding="utf-8") == COMMITTED["src/app.py"]
    assert not (repo / "src/application.py").exists()
    assert (repo / "src/util.py").read_text(encoding="utf-8") == "util = 2  # two\n"


def test_your_own_edit_of_a_drift_candidate_between_turns_keeps_your_checkpoint(
    repo: Path,
) -> None:
    """Turn 1 rewrites app.py and notes.md; between the turns you edit notes.md; turn 2
    rewrites notes.md again; you checkpoint. Going back before turn 1 would lose your
    notes edit: nothing is proved, and your checkpoint stays the safe point."""
    _turn(
        repo,
        {"src/util.py": "util = 2\n", "src/app.py": "app = 'x'\n", "notes.md": "agent\n"},
    )
    write(repo, "notes.md", "my notes, and my own line\n")
    _turn(repo, {"notes.md": "my notes, and my own line\nagent again\n"})
    yours = _your_checkpoint(repo)
    _turn(repo, {"src/util.py": "util = 2  # two\n"})
    plan = _preview(repo)
    assert {d["path"] for d in plan["drift_candidates"]} == {"src/app.py", "notes.md"}
    assert plan["safe_checkpoint_candidate"]["checkpoint_id"] == yours


def test_a_commit_since_the_turn_began_keeps_your_checkpoint(repo: Path) -> None:
    """You committed the helper after turn 1 (which also drifted app.py): a version from
    before that commit is not "before the drift", so nothing is proved."""
    _turn(repo, {"src/util.py": "util = 2\n", "src/app.py": "app = 'retitled'\n"})
    git(repo, "add", "src/util.py")
    git(repo, "commit", "-q", "-m", "the helper")
    yours = _your_checkpoint(repo)
    _turn(repo, {"src/util.py": "util = 2  # two\n"})
    plan = _preview(repo)
    assert plan["safe_checkpoint_candidate"]["checkpoint_id"] == yours


def test_your_edit_after_the_last_turn_stays_when_the_safe_point_steps_back(
    repo: Path,
) -> None:
    """Turn 1 rewrites app.py and notes.md; you checkpoint; turn 2 works on the helper;
    then you edit app.py yourself. app.py is yours now (in scope); notes.md is proved
    the agent's alone: the safe point steps back to turn 1's start, and the restore
    puts back notes.md only, never your app.py."""
    _turn(
        repo,
        {"src/util.py": "util = 2\n", "src/app.py": "app = 'x'\n", "notes.md": "agent\n"},
    )
    _your_checkpoint(repo)
    _turn(repo, {"src/util.py": "util = 2  # two\n"})
    write(repo, "src/app.py", "app = 'mine'\n")
    plan = _preview(repo)
    assert [d["path"] for d in plan["drift_candidates"]] == ["notes.md"]
    assert plan["safe_checkpoint_candidate"]["checkpoint_id"] == _turn_starts(repo)[0]
    run = start(repo)
    assert stored_option(repo, run, 3)["affected_paths"] == ["notes.md"]
    done = ok_json(confirm(repo, choose(repo, run, 3)))
    assert done["status"] == "done"
    assert (repo / "notes.md").read_text(encoding="utf-8") == COMMITTED["notes.md"]
    assert (repo / "src/app.py").read_text(encoding="utf-8") == "app = 'mine'\n"


def test_your_hand_edit_during_a_turn_is_never_proved_the_agents(repo: Path) -> None:
    """While turn 1 runs, you fix app.py by hand (no tool of the agent reports it); the
    agent also rewrote notes.md. You checkpoint; turn 2 works on the helper. app.py
    changed inside a turn, but nothing says the agent wrote it: no step back."""
    hook(repo, "claude-code", "turn-start")
    write(repo, "src/util.py", "util = 2\n")
    hook(repo, "claude-code", "edit", repo / "src/util.py")
    write(repo, "notes.md", "agent\n")
    hook(repo, "claude-code", "edit", repo / "notes.md")
    write(repo, "src/app.py", "app = 'fixed by hand'\n")
    hook(repo, "claude-code", "turn-end")
    yours = _your_checkpoint(repo)
    _turn(repo, {"src/util.py": "util = 2  # two\n"})
    plan = _preview(repo)
    assert "src/app.py" in [d["path"] for d in plan["drift_candidates"]]
    assert plan["safe_checkpoint_candidate"]["checkpoint_id"] == yours


def test_an_interrupted_turn_proves_nothing(repo: Path) -> None:
    """Turn 1 rewrites app.py and is interrupted (no Stop hook); you fix notes.md by hand
    before your next prompt, which closes turn 1 at turn 2's start. That "end" holds
    your fix: nothing is proved, and your checkpoint stays."""
    hook(repo, "claude-code", "turn-start")
    for rel, text in (("src/util.py", "util = 2\n"), ("src/app.py", "app = 'x'\n")):
        write(repo, rel, text)
        hook(repo, "claude-code", "edit", repo / rel)
    write(repo, "notes.md", "my own fix\n")
    yours = _your_checkpoint(repo)
    _turn(repo, {"src/util.py": "util = 2  # two\n"})
    plan = _preview(repo)
    assert plan["safe_checkpoint_candidate"]["checkpoint_id"] == yours


def test_the_guided_run_says_which_checkpoint_and_why_before_you_choose(repo: Path) -> None:
    """`vibflow run recover` in a terminal: before the menu, the stepped-back safe point
    and why; in the menu, the full rollback held back with the command for your
    checkpoint; the partial restore chosen and confirmed puts app.py back."""
    _turn(repo, {"src/util.py": "util = 2\n", "src/app.py": "app = 'retitled'\n"})
    yours = _your_checkpoint(repo)
    _turn(repo, {"src/util.py": "util = 2  # two\n"})
    first = _turn_starts(repo)[0]
    code, text = drive(
        repo,
        ["run", "recover"],
        [("Which one (", "1"), ("c cancels, q stops)", f"APPLY {first}")],
        env={"VIBFLOW_RECOVERY_APPLY": "1"},
    )
    assert code == 0, text
    flat = " ".join(text.replace("\r\n", "\n").split())
    assert flat.index(f"Safe checkpoint: {first}") < flat.index("Ways back:")
    assert f"Why this one: checkpoint {yours} already holds" in flat
    assert f"cannot run now: it would reach back past checkpoint {yours}" in flat
    assert (repo / "src/app.py").read_text(encoding="utf-8") == COMMITTED["src/app.py"]
