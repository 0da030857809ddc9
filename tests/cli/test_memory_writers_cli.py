"""The write gate from real surfaces: a contradicting decision is refused with both
texts and the exact command to say which stands (the earlier one is archived, never
deleted); `--writer` makes the conflict window reachable between an agent and a user."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from vibflow_testing.cli import vf

pytestmark = pytest.mark.cli


def _memory(repo: Path) -> dict:  # type: ignore[type-arg]
    return json.loads((repo / ".vibflow" / "memory.json").read_text("utf-8"))


def test_a_contradicting_decision_asks_which_stands(repo: Path) -> None:
    assert vf(repo, "memory", "decide", "Never use tabs", "--yes").returncode == 0
    old = _memory(repo)["decisions"][0]["id"]
    refused = vf(repo, "memory", "decide", "Always use tabs", "--yes")
    assert refused.returncode == 3
    assert f"contradicts {old} “Never use tabs”" in refused.stderr
    assert f"--replaces {old}" in refused.stderr
    assert [d["text"] for d in _memory(repo)["decisions"]] == ["Never use tabs"]
    ok = vf(repo, "memory", "decide", "Always use tabs", "--yes", "--replaces", old)
    assert ok.returncode == 0, ok.stderr
    data = _memory(repo)
    assert [d["text"] for d in data["decisions"]] == ["Always use tabs"]
    assert [d["id"] for d in data["archived_decisions"]] == [old]
    unrelated = vf(repo, "memory", "decide", "Use pytest for tests", "--yes")
    assert unrelated.returncode == 0, unrelated.stderr


def test_replacing_an_unknown_decision_is_bad_input(repo: Path) -> None:
    proc = vf(repo, "memory", "decide", "Use tabs", "--yes", "--replaces", "dec_nope")
    assert proc.returncode == 2
    assert "there is no active decision dec_nope" in proc.stderr


def test_writer_conflict_window_between_agent_and_user(repo: Path) -> None:
    agent = vf(repo, "memory", "next", "write the test", "--yes", "--writer", "agent.claude")
    assert agent.returncode == 0, agent.stderr
    assert _memory(repo)["next_action"]["updated_by"] == "agent.claude"
    user = vf(repo, "memory", "next", "ship it", "--yes")
    assert user.returncode == 3
    assert "changed by agent.claude" in user.stderr
    assert "“write the test”" in user.stderr
    assert "“ship it”" in user.stderr
    forced = vf(repo, "memory", "next", "ship it", "--yes", "--overwrite")
    assert forced.returncode == 0, forced.stderr
    bad = vf(repo, "memory", "decide", "x", "--yes", "--writer", "Root")
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr
