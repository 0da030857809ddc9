"""The MCP ``rewind_list`` tool: the turns the agent hooks recorded, read through the
official client — what each turn's tools reported, what changed that they did not,
the checkpoints before and after — with one audit row per answer and nothing changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from vibflow_testing.agents import run_hook
from vibflow_testing.apply import tree_state
from vibflow_testing.mcp import call, mcp_rows, with_servers
from vibflow_testing.repo import write

pytestmark = pytest.mark.cli


def test_rewind_list_reads_the_recorded_turns(repo: Path) -> None:
    """Two hook-recorded turns come back over MCP in order, each with the file its
    tools reported, a shell edit flagged as unreported, and both checkpoints."""
    run_hook(repo, "claude-code", "session-start")
    run_hook(repo, "claude-code", "turn-start")
    write(repo, "src/a.py", "print('agent')\n")
    run_hook(repo, "claude-code", "write", repo / "src" / "a.py")
    write(repo, "src/b.py", "print('shell')\n")  # a shell edit: no tool reported it
    run_hook(repo, "claude-code", "turn-end")
    run_hook(repo, "claude-code", "turn-start")
    write(repo, "src/c.py", "print('second')\n")
    run_hook(repo, "claude-code", "write", repo / "src" / "c.py")
    run_hook(repo, "claude-code", "turn-end")
    before = tree_state(repo)

    async def body(client: Client) -> tuple[bool, Any, str]:
        return await call(client, "rewind_list", {})

    failed, data, _ = with_servers(repo, body)
    assert not failed, data
    turns = data["turns"]
    assert [t["turn"] for t in turns] == [1, 2]
    assert turns[0]["reported"] == ["src/a.py"]
    assert "src/b.py" in turns[0]["unreported"]
    assert turns[0]["changed_outside_tools"] is True
    assert turns[1]["reported"] == ["src/c.py"]
    assert all(t["checkpoint_before"].startswith("ckpt_") for t in turns)
    assert data["session"]["agent"] == "claude-code"
    assert str(repo) not in str(data)  # project-relative only
    assert tree_state(repo) == before
    rows = [r for r in mcp_rows(repo) if r["event"] == "mcp.rewind_list"]
    assert len(rows) == 1
    assert rows[0]["result"] == "ok"


def test_rewind_list_without_records_is_empty_and_an_unknown_session_is_bad_input(
    repo: Path,
) -> None:
    """A project no hook ran in answers an empty list (no agents.db is created); a
    session id that names nothing is a typed bad-input error."""

    async def body(client: Client) -> tuple[tuple[bool, Any, str], tuple[bool, Any, str]]:
        empty = await call(client, "rewind_list", {})
        run_hook(repo, "claude-code", "session-start")
        run_hook(repo, "claude-code", "turn-start")
        unknown = await call(client, "rewind_list", {"session": "no-such-session"})
        return empty, unknown

    (failed, data, _), (bad, error, _) = with_servers(repo, body)
    assert not failed
    assert data["turns"] == []
    assert bad
    assert error["error"]["kind"] == "bad_input"
