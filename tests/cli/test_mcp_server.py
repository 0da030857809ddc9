"""``vibflow mcp serve`` through the official MCP client over stdio: the tools and their
schemas, what each may do by default, one audit row per answer, and a server that
outlives a malformed request and a killed client."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from mcp import Client
from vibflow_testing.apply import tree_state
from vibflow_testing.cli import clean_env, vf
from vibflow_testing.mcp import CLIENT, call, mcp_rows, with_servers

ALLOWED = {
    "memory_summary_read": {},
    "recovery_preview": {},
    "checkpoint_create": {"message": "before the agent"},
    "runs_list": {"limit": 5},
    "triggers_check": {},
    "rewind_list": {},
    "handoff": {"budget": 2000},
}
DENIED = {
    "memory_full_read": {},
    "memory_write": {"field": "risk", "text": "the agent may break auth"},
    "handoff_export": {"path": "HANDOFF.md"},
    "recovery_apply": {},
}


def test_lists_every_tool_with_a_closed_input_schema(repo: Path) -> None:
    """tools/list names all twelve tools; every input schema refuses unknown fields, and
    recovery_apply has no feature_enabled field to claim."""

    async def body(client: Client) -> Any:
        return (await client.list_tools()).tools

    tools = {t.name: t for t in with_servers(repo, body)}
    assert set(tools) == {*ALLOWED, *DENIED, "recap_read"}
    for tool in tools.values():
        assert tool.input_schema["type"] == "object"
        assert tool.input_schema.get("additionalProperties") is False, tool.name
        assert tool.description
    apply_schema = tools["recovery_apply"].input_schema["properties"]
    assert set(apply_schema) == {"run_id", "option_id", "paths", "confirmation"}
    assert "feature_enabled" not in json.dumps(tools["recovery_apply"].input_schema)
    assert "vibflow grant" in (tools["memory_write"].description or "")
    assert tools["recovery_apply"].annotations is not None
    assert tools["recovery_apply"].annotations.destructive_hint is True


def test_allowed_tools_answer_and_denied_ones_name_the_grant(repo: Path) -> None:
    """Each tool allowed by default answers; each denied one refuses with the exact
    `vibflow grant TOOL --client NAME` command and changes nothing."""
    assert vf(repo, "recap").returncode == 0  # so recap_read has a project recap to read
    before = tree_state(repo)

    async def body(client: Client) -> dict[str, tuple[bool, Any, str]]:
        tools = {**ALLOWED, "recap_read": {}, **DENIED}
        return {name: await call(client, name, args) for name, args in tools.items()}

    answers = with_servers(repo, body)
    for name in [*ALLOWED, "recap_read"]:
        failed, data, _ = answers[name]
        assert not failed, (name, data)
        assert isinstance(data, dict)
    for name in DENIED:
        failed, data, text = answers[name]
        assert failed, name
        error = data["error"]
        assert error["kind"] == "permission_denied"
        assert f"`vibflow grant {name} --client {CLIENT}`" in error["message"]
        assert json.loads(text) == data
    assert tree_state(repo) == before  # checkpoints live in git refs, not in the tree
    assert not (repo / "HANDOFF.md").exists()
    memory = repo / ".vibflow" / "memory.json"
    assert not memory.exists() or "auth" not in memory.read_text(encoding="utf-8")


def test_each_answer_writes_exactly_one_count_only_audit_row(repo: Path) -> None:
    """Every tool call, answered or refused, adds one mcp.<tool> row naming the
    configured client and its result; a refused call's row says refused."""
    calls = [
        ("memory_summary_read", {}),
        ("runs_list", {}),
        ("memory_full_read", {}),
        ("recovery_apply", {"feature_enabled": True}),
        ("no_such_tool", {}),
        ("checkpoint_create", {"message": "x" * 600}),
    ]

    async def body(client: Client) -> list[int]:
        counts = []
        for name, args in calls:
            await call(client, name, args)
            counts.append(len(mcp_rows(repo)))
        return counts

    assert with_servers(repo, body) == [1, 2, 3, 4, 5, 6]
    rows = mcp_rows(repo)
    assert [r["event"] for r in rows] == [
        "mcp.memory_summary_read",
        "mcp.runs_list",
        "mcp.memory_full_read",
        "mcp.recovery_apply",
        "mcp.unknown_tool",
        "mcp.checkpoint_create",
    ]
    assert {r["tool"] for r in rows} == {CLIENT}
    assert [r["result"] for r in rows] == ["ok", "ok", "refused", "refused", "refused", "refused"]
    assert rows[0]["circuit_breaker_state"] == "active"
    assert vf(repo, "audit", "verify").returncode == 0


def test_a_malformed_request_and_a_killed_client_leave_the_server_standing(repo: Path) -> None:
    """A line that is not JSON, and a call with arguments of the wrong shape, get no
    crash: the next request is answered. A client killed mid-session ends the server
    cleanly (exit 0, no traceback) and leaves an audit log that still verifies."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "vibflow", "mcp", "serve", "--client", CLIENT],
        cwd=repo,
        env=clean_env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None
    assert proc.stdout is not None

    def send(message: dict[str, Any] | str) -> None:
        line = message if isinstance(message, str) else json.dumps(message)
        assert proc.stdin is not None
        proc.stdin.write(line.encode() + b"\n")
        proc.stdin.flush()

    seen: dict[Any, dict[str, Any]] = {}

    def answer(want: int) -> dict[str, Any]:
        # Requests are served concurrently: answers may come in any order.
        assert proc.stdout is not None
        while want not in seen:
            got = json.loads(proc.stdout.readline())
            seen[got.get("id")] = got
        return seen[want]

    send(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "1"},
            },
        }
    )
    assert answer(1)["result"]["serverInfo"]["name"] == "vibflow"
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    send("this is not JSON {{{")
    send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": 42}})
    tool_call = {"name": "runs_list", "arguments": {"limit": "many", "status": ["x"]}}
    send({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": tool_call})
    send({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "runs_list"}})
    bad_shape = answer(3)["result"]
    assert bad_shape["isError"] is True
    assert bad_shape["structuredContent"]["error"]["kind"] == "schema"
    assert "many" not in json.dumps(bad_shape)  # names fields, never the values
    assert answer(4)["result"]["isError"] is False
    # The client dies without a goodbye: its end of the pipes simply closes.
    proc.stdin.close()
    code = proc.wait(timeout=30)
    stderr = proc.stderr.read().decode() if proc.stderr else ""
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()
    assert code == 0, stderr
    assert "Traceback" not in stderr
    # One row per answer: the legacy handshake, the call whose params broke the
    # protocol's own schema, the refused call and the answered one; the line that
    # was not JSON got no answer and no row. Requests 2-4 were sent together and
    # the server answers them concurrently, so their rows may come in any order.
    answered = [(r["event"], r["result"]) for r in mcp_rows(repo, protocol=True)]
    assert answered[0] == ("mcp.initialize", "ok")
    assert sorted(answered[1:]) == [
        ("mcp.runs_list", "ok"),
        ("mcp.runs_list", "refused"),
        ("mcp.tools_call", "refused"),
    ]
    assert vf(repo, "audit", "verify").returncode == 0

    # And the next client gets a fresh server that answers.
    async def body(client: Client) -> bool:
        failed, _, _ = await call(client, "runs_list", {})
        return failed

    assert with_servers(repo, body) is False


def test_a_client_killed_by_a_signal_ends_its_server_cleanly(repo: Path) -> None:
    """A client process killed with SIGKILL right after a call: the server it started
    sees its stdin close and exits by itself; no lease is left and the audit verifies."""
    script = (
        "import anyio,sys\n"
        "from vibflow_testing.mcp import server_params\n"
        "from mcp import Client\n"
        "from mcp.client.stdio import stdio_client\n"
        "from pathlib import Path\n"
        "async def main():\n"
        "    async with Client(stdio_client(server_params(Path(sys.argv[1])))) as c:\n"
        "        await c.call_tool('checkpoint_create', {'message': 'x'})\n"
        "        print('ready', flush=True)\n"
        "        await anyio.sleep(60)\n"
        "anyio.run(main)\n"
    )
    env = clean_env(PYTHONPATH=str(Path(__file__).parents[1] / "support"))
    proc = subprocess.Popen(
        [sys.executable, "-c", script, str(repo)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == b"ready"
    children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
    assert children, "the client started no server"
    os.kill(proc.pid, signal.SIGKILL)  # the client only: its server is left to notice
    proc.wait(timeout=30)
    proc.stdout.close()
    deadline = time.monotonic() + 30
    while any(Path(f"/proc/{pid}").exists() for pid in children):
        assert time.monotonic() < deadline, "the server outlived its client"
        time.sleep(0.05)
    assert not (repo / ".vibflow" / "recovery" / "lease.json").exists()
    assert [r["event"] for r in mcp_rows(repo)] == ["mcp.checkpoint_create"]
    assert vf(repo, "audit", "verify").returncode == 0
