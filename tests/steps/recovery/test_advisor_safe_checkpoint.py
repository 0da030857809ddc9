"""The advisor's safe checkpoint: none, or one taken after the change, means no restore
is recommended; the newest checkpoint that predates the change is the candidate.

Each scenario builds a git repository in ``tmp_path``, changes files the way a user or
an AI agent would, and reads ``vibflow recover --explain/--preview --json`` through the
real CLI (helpers in ``vibflow_testing.advisor``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from vibflow_testing.advisor import checkpoint, commit_app, option, recover, set_memory, settle
from vibflow_testing.cli import Cli
from vibflow_testing.repo import write

pytestmark = pytest.mark.cli  # every test here spawns the CLI

# -- checkpoints --------------------------------------------------------------------------


def _drifted(repo: Path) -> None:
    write(repo, "src/ui/login.py", "changed\n")
    write(repo, "src/services/auth.py", "loosened\n")


def test_no_checkpoint_means_no_restore_recommended(repo: Path, cli: Cli) -> None:
    """Without a checkpoint: no safe candidate, partial restore shown blocked with why,
    full rollback not offered, and the recommendation is a non-restoring level."""
    commit_app(repo)
    set_memory(repo, explicit={"src/ui/login.py": "the form"})
    _drifted(repo)
    plan = recover(cli, "--preview")
    assert plan["safe_checkpoint_candidate"] is None
    assert option(plan, 4) is None
    partial = option(plan, 3)
    assert partial is not None
    assert "no checkpoint" in partial["blocked_reason"]
    assert not partial["recommended"]
    assert plan["options"][0]["recommended"] is True
    assert plan["options"][0]["level"] <= 2
    assert plan["level"] <= 2
    human = cli("recover", "--preview").stdout
    assert "Cannot run now: no checkpoint" in human


def test_checkpoint_taken_after_the_change_is_not_safe(repo: Path, cli: Cli) -> None:
    """A checkpoint taken after the agent's edits is reported but predates_change is false;
    restore is blocked for that reason and full rollback is not offered."""
    commit_app(repo)
    set_memory(repo, explicit={"src/ui/login.py": "the form"})
    _drifted(repo)
    settle()
    ckpt = checkpoint(cli)
    plan = recover(cli, "--preview")
    cand = plan["safe_checkpoint_candidate"]
    assert cand["checkpoint_id"] == ckpt
    assert cand["predates_change"] is False
    assert option(plan, 4) is None
    assert "predates" in option(plan, 3)["blocked_reason"]
    assert "no checkpoint predates the change" in plan["summary"]


def test_checkpoint_taken_before_the_change_is_the_safe_candidate(repo: Path, cli: Cli) -> None:
    """A checkpoint from before the edits is selected (predates_change, metadata_complete);
    restore options need the sandwich and the lock and stay blocked while apply is off —
    partial restore is still the recommended one (the flag does not re-rank)."""
    commit_app(repo)
    set_memory(repo, explicit={"src/ui/login.py": "the form"})
    ckpt = checkpoint(cli)
    settle()
    _drifted(repo)
    plan = recover(cli, "--preview")
    cand = plan["safe_checkpoint_candidate"]
    assert cand["checkpoint_id"] == ckpt
    assert cand["predates_change"] is True
    assert cand["metadata_complete"] is True
    for level in (3, 4):
        opt = option(plan, level)
        assert opt is not None
        assert opt["requires_sandwich"] is True
        assert opt["requires_lock"] is True
        assert opt["blocked_reason"]
        assert opt["recommended"] is (level == 3)
    assert option(plan, 3)["affected_paths"] == ["src/services/auth.py"]
    assert "a safe checkpoint from before the change exists" in plan["summary"]


def test_checkpoint_between_own_work_and_the_agent_is_safe(repo: Path, cli: Cli) -> None:
    """The README's advice — checkpoint before letting an agent loose — works when the user
    already had uncommitted work: that checkpoint predates the agent's change."""
    commit_app(repo)
    set_memory(repo, explicit={"src/ui/login.py": "the form"})
    write(repo, "src/ui/login.py", "my own unfinished work\n")
    write(repo, "notes.txt", "my notes\n")
    settle()
    ckpt = checkpoint(cli)
    settle()
    write(repo, "src/services/auth.py", "the agent loosened this\n")
    plan = recover(cli, "--preview")
    cand = plan["safe_checkpoint_candidate"]
    assert cand["checkpoint_id"] == ckpt
    assert cand["predates_change"] is True, plan["summary"]


def test_newest_checkpoint_that_predates_is_selected(repo: Path, cli: Cli) -> None:
    """With checkpoints before and after the change, the one before is the candidate."""
    commit_app(repo)
    before = checkpoint(cli)
    settle()
    _drifted(repo)
    settle()
    after = checkpoint(cli)
    plan = recover(cli, "--preview")
    assert after != before
    assert plan["safe_checkpoint_candidate"]["checkpoint_id"] == before
    assert plan["safe_checkpoint_candidate"]["predates_change"] is True
