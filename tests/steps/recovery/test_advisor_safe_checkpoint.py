"""The advisor's safe checkpoint: the newest checkpoint that predates the change is the
candidate; with none (or only one taken after the change) the last commit is.

Each scenario builds a git repository in ``tmp_path``, changes files the way a user or
an AI agent would, and reads ``vibflow recover --explain/--preview --json`` through the
real CLI (helpers in ``vibflow_testing.advisor``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from vibflow_testing.advisor import APP, checkpoint, commit_app, option, recover, set_memory, settle
from vibflow_testing.cli import Cli
from vibflow_testing.git import git
from vibflow_testing.repo import write

pytestmark = pytest.mark.cli  # every test here spawns the CLI

# -- checkpoints --------------------------------------------------------------------------


def _drifted(repo: Path) -> None:
    write(repo, "src/ui/login.py", "changed\n")
    write(repo, "src/services/auth.py", "loosened\n")


def test_no_checkpoint_offers_the_last_commit_as_the_safe_point(repo: Path, cli: Cli) -> None:
    """Without a checkpoint: the last commit is the candidate (kind commit), both restore
    options are offered labelled "from the last commit" (blocked only while apply is off),
    and the text preview names it as the safe point."""
    commit_app(repo)
    set_memory(repo, explicit={"src/ui/login.py": "the form"})
    _drifted(repo)
    plan = recover(cli, "--preview")
    cand = plan["safe_checkpoint_candidate"]
    head = git(repo, "rev-parse", "HEAD").strip()
    assert (cand["kind"], cand["commit"], cand["checkpoint_id"]) == ("commit", head[:8], None)
    assert cand["predates_change"] is True
    for level in (3, 4):
        opt = option(plan, level)
        assert opt is not None
        assert "from the last commit" in opt["label"]
        assert "switched off" in opt["blocked_reason"]
    assert "the last commit is the safe point" in plan["summary"]
    human = cli("recover", "--preview").stdout
    assert f"Safe point: the last commit ({head[:8]})" in human


def test_checkpoint_taken_after_the_change_is_not_safe(repo: Path, cli: Cli) -> None:
    """A checkpoint taken after the agent's edits is not the safe point: the last commit
    is (and the summary says no checkpoint predates the change)."""
    commit_app(repo)
    set_memory(repo, explicit={"src/ui/login.py": "the form"})
    _drifted(repo)
    settle()
    ckpt = checkpoint(cli)
    plan = recover(cli, "--preview")
    cand = plan["safe_checkpoint_candidate"]
    assert cand["checkpoint_id"] is None
    assert cand["kind"] == "commit"  # that checkpoint is a copy of now: the commit is safe
    assert ckpt not in json.dumps(plan["options"])
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


_RETITLED = {"src/ui/header.py": "def header():\n    return '<h1>Welcome!'\n"}


def _drift_then_your_checkpoint(
    repo: Path, cli: Cli, *steps: dict[str, str]
) -> tuple[str, list[str]]:
    """The app committed with an intent on the login form, a checkpoint, then each of
    ``steps`` (files the agent writes) followed by a checkpoint — the last one the
    user's, not noticing the drift — and then in-scope work on the form. The user's
    checkpoint and the earlier ones, oldest first."""
    commit_app(repo)
    set_memory(repo, explicit={"src/ui/login.py": "the form"})
    taken = [checkpoint(cli)]
    for step in steps:
        settle()
        for rel, text in step.items():
            write(repo, rel, text)
        settle()
        taken.append(checkpoint(cli))
    settle()
    write(repo, "src/ui/login.py", "def render():\n    return '<form aria-label=login>'\n")
    return taken[-1], taken[:-1]


def test_a_restore_that_would_change_nothing_is_not_offered_to_run(repo: Path, cli: Cli) -> None:
    """The agent retitles the header, the user checkpoints without noticing, the agent
    works on: the checkpoint (the user's word) already holds the retitle, so the
    partial restore would change nothing — it says why and is not recommended (choosing
    it used to take a safety checkpoint and then have nothing to confirm)."""
    mine, _ = _drift_then_your_checkpoint(repo, cli, _RETITLED)
    plan = recover(cli, "--preview")
    assert plan["safe_checkpoint_candidate"]["checkpoint_id"] == mine
    assert [d["path"] for d in plan["drift_candidates"]] == ["src/ui/header.py"]
    partial = option(plan, 3)
    assert partial["affected_paths"] == []
    assert partial["blocked_reason"].startswith("nothing to restore")
    assert partial["recommended"] is False
    assert option(plan, 2)["recommended"] is True


def test_the_earlier_checkpoint_without_the_drift_is_named_with_its_command(
    repo: Path, cli: Cli
) -> None:
    """The same with a checkpoint from before the retitle: the user's checkpoint stays
    the safe point (their word), and the partial restore names the earlier checkpoint
    that does not hold the retitle and the command restoring it from there — which
    puts the header back and nothing else."""
    mine, (before, *_) = _drift_then_your_checkpoint(repo, cli, _RETITLED)
    plan = recover(cli, "--preview")
    assert plan["safe_checkpoint_candidate"]["checkpoint_id"] == mine
    partial = option(plan, 3)
    command = f"vibflow checkpoint restore {before} -- src/ui/header.py"
    assert command in partial["blocked_reason"]
    text = cli("recover", "--preview").stdout
    assert command in text
    apply = {"VIBFLOW_RECOVERY_APPLY": "1"}
    run = json.loads(
        cli("checkpoint", "restore", before, "--json", "--", "src/ui/header.py", env=apply).stdout
    )
    expected = run["confirmation_expected"]
    done = cli("step", run["run_id"], "confirm", "-i", f"confirmation={expected}", env=apply)
    assert done.returncode == 0, done.stderr
    assert (repo / "src/ui/header.py").read_text() == APP["src/ui/header.py"]
    assert "aria-label" in (repo / "src/ui/login.py").read_text()


def test_no_earlier_source_is_named_for_a_file_with_a_version_of_its_own_in_between(
    repo: Path, cli: Cli
) -> None:
    """config.yaml: the user's own edit sits in the checkpoint between, the agent's
    drift on top of it later — going back to the committed one would lose the user's
    edit, so no command is offered for it; lib/util.py, drifted once before the
    checkpoints, still gets its source."""
    mine, (before, *_) = _drift_then_your_checkpoint(
        repo,
        cli,
        {
            "config.yaml": "shop:\n  currency: EUR\n  locale: de\n",
            "lib/util.py": "def clamp(x):\n    return max(-1, x)\n",
        },
        {"config.yaml": "shop:\n  currency: USD\n  locale: de\n"},
    )
    plan = recover(cli, "--preview")
    assert plan["safe_checkpoint_candidate"]["checkpoint_id"] == mine
    said = option(plan, 3)["blocked_reason"] or option(plan, 3)["estimated_impact"]
    assert f"vibflow checkpoint restore {before} -- lib/util.py`" in said
    assert "config.yaml" not in said


def test_a_restore_from_before_commits_says_it_undoes_them(repo: Path, cli: Cli) -> None:
    """A checkpoint taken before a commit, then the agent's edits: the full rollback
    says how many of its files the commit changed too (restoring puts them back as
    they were before it); on the checkpoint's own commit it says nothing of commits."""
    commit_app(repo)
    set_memory(repo, explicit={"src/ui/login.py": "the form"})
    checkpoint(cli)
    settle()
    write(repo, "src/services/auth.py", "committed work\n")
    git(repo, "commit", "-qam", "auth work")
    _drifted(repo)
    plan = recover(cli, "--preview")
    full = option(plan, 4)
    assert full is not None
    assert set(full["affected_paths"]) == {"src/ui/login.py", "src/services/auth.py"}
    assert (
        "1 of them also changed in commits made since the checkpoint" in (full["estimated_impact"])
    )

    checkpoint(cli)
    settle()
    write(repo, "src/ui/login.py", "changed again\n")
    plan = recover(cli, "--preview")
    assert all("commits made since" not in o["estimated_impact"] for o in plan["options"])


def test_no_earlier_source_is_named_for_a_file_no_restore_can_write(repo: Path, cli: Cli) -> None:
    """A drifted name the path rules refuse (a ':' in it) is left out of every restore,
    so the earlier checkpoint's command never names it (it would be refused); the
    retitled header beside it still gets its command."""
    odd = "src/ui/a:b.py"
    mine, (before, *_) = _drift_then_your_checkpoint(repo, cli, {**_RETITLED, odd: "x = 1\n"})
    plan = recover(cli, "--preview")
    assert plan["safe_checkpoint_candidate"]["checkpoint_id"] == mine
    assert odd in [o["path"] for o in plan["left_out"]]
    said = option(plan, 3)["blocked_reason"] or option(plan, 3)["estimated_impact"]
    assert f"vibflow checkpoint restore {before} -- src/ui/header.py`" in said
    assert "a:b.py" not in said
