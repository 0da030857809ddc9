"""A turn checkpoint the hook takes its lean way (without pydantic) is a checkpoint like
any other: ``checkpoint list``, ``show``, ``diff`` and ``restore`` treat it exactly like
one ``vibflow checkpoint create`` made — same fields, same metadata, restored byte for
byte through the guarded flow."""

from __future__ import annotations

from pathlib import Path

import pytest
from vibflow_testing.agents import run_hook
from vibflow_testing.cli import as_json, vf
from vibflow_testing.git import run_git
from vibflow_testing.repo import init_repo, write

pytestmark = pytest.mark.cli
APPLY = {"VIBFLOW_RECOVERY_APPLY": "1"}


def turn_start(root: Path) -> str:
    """The turn-start hook as Claude Code runs it (the event read from the payload); the
    modules it imported (-X importtime)."""
    proc = run_hook(
        root, "claude-code", "turn-start", python_flags=("-X", "importtime"), name_event=False
    )
    return proc.stderr.decode("utf-8", "replace")


def test_a_lean_turn_checkpoint_is_listed_shown_diffed_and_restored(tmp_path: Path) -> None:
    """The hook's checkpoint (taken without importing pydantic) carries every field a
    CLI-made one has, diffs against the tree, and restores a file byte for byte."""
    root = init_repo(tmp_path / "proj", {"src/app.py": "app = 1\n", "notes.md": "n\n"}, old=True)
    write(root, "draft.txt", "an untracked draft\n", old=True)
    mine = as_json(vf(root, "checkpoint", "create", "-m", "mine", "--json"))
    write(root, "src/app.py", "app = 2  # the agent's edit\n")
    imported = turn_start(root)
    assert "pydantic" not in imported, "the hook took the full store's path"

    listed = as_json(vf(root, "checkpoint", "list", "--json"))["checkpoints"]
    assert [c["reason"] for c in listed] == ["manual", "agent_turn"]
    turn = listed[1]
    assert turn["message"] == "before claude-code turn next"
    shown = as_json(vf(root, "checkpoint", "show", turn["checkpoint_id"], "--json"))
    assert set(shown) == set(mine)
    assert shown["metadata_complete"] is True
    assert shown["untracked_count"] == mine["untracked_count"] == 1
    assert shown["base_head"] == mine["base_head"]
    assert shown["file_count"] == mine["file_count"]

    ids = (mine["checkpoint_id"], turn["checkpoint_id"])
    diff = as_json(vf(root, "checkpoint", "diff", *ids, "--json"))
    assert [c["path"] for c in diff["changes"]] == ["src/app.py"]
    write(root, "src/app.py", "app = 3  # a later edit\n")
    now = as_json(vf(root, "checkpoint", "diff", turn["checkpoint_id"], "--json"))
    assert [c["path"] for c in now["changes"]] == ["src/app.py"]

    run = as_json(
        vf(root, "checkpoint", "restore", turn["checkpoint_id"], "src/app.py", "--json", env=APPLY)
    )
    expected = run["confirmation_expected"]
    done = vf(root, "step", run["run_id"], "confirm", "-i", f"confirmation={expected}", env=APPLY)
    assert done.returncode == 0, done.stderr
    assert (root / "src" / "app.py").read_bytes() == b"app = 2  # the agent's edit\n"
    assert (root / "draft.txt").read_bytes() == b"an untracked draft\n"


def test_the_hook_finds_the_root_without_git_only_where_git_would_agree(tmp_path: Path) -> None:
    """The hook's git-free root lookup answers as ``rev-parse --show-toplevel`` in a
    plain repository (from a subfolder too) and leaves linked worktrees, a configured
    work tree and a redirecting environment to git."""
    from vibflow.agent_hook import _plain_root
    from vibflow.steps.workspace.root import find_root

    root = init_repo(tmp_path / "proj", {"src/app.py": "app = 1\n"})
    for start in (root, root / "src"):
        assert _plain_root(start) == find_root(start)
    run_git(root, "worktree", "add", "-q", str(tmp_path / "linked"))
    assert _plain_root(tmp_path / "linked") is None
    other = init_repo(tmp_path / "other", {"a": "a\n"})
    run_git(other, "config", "core.worktree", str(tmp_path))
    assert _plain_root(other) is None
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GIT_DIR", str(root / ".git"))
        assert _plain_root(root) is None


def test_a_projects_own_policy_is_read_once_and_again_when_it_changes(tmp_path: Path) -> None:
    """With a .vibflow/policy.yaml the first hook reads the policy (pydantic); the next
    ones use what it read, until the file changes; the policy's size cap applies either
    way (a file over it is left out of the turn's checkpoint)."""
    root = init_repo(tmp_path / "proj", {"src/app.py": "app = 1\n"}, old=True)
    policy = root / ".vibflow" / "policy.yaml"
    write(root, ".vibflow/policy.yaml", "recovery:\n  checkpoints:\n    untracked_size_cap_mb: 1\n")
    assert "pydantic" in turn_start(root)  # read, and kept
    write(root, "big.bin", b"x" * (2 * 1024 * 1024))
    assert "pydantic" not in turn_start(root)
    listed = as_json(vf(root, "checkpoint", "list", "--json"))["checkpoints"]
    assert [s["path"] for s in listed[-1]["skipped"]] == ["big.bin"]
    write(
        root, ".vibflow/policy.yaml", policy.read_text() + "agents:\n  hook_timeout_seconds: 20\n"
    )
    assert "pydantic" in turn_start(root)  # the file changed: read again
    assert "pydantic" not in turn_start(root)
