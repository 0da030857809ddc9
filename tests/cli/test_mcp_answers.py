"""Every MCP answer through the official client: each tool declares an output schema and
its real answer fits it (structured and as text), and every answer the server gives —
the handshake, tools/list, tool calls, refusals, malformed requests — wrote
exactly one count-only audit row before it was sent."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import mcp_types as types
from mcp import Client
from mcp.shared.exceptions import MCPError
from vibflow_testing.cli import vf
from vibflow_testing.mcp import CLIENT, call, mcp_rows, with_servers

CALLS: dict[str, dict[str, Any]] = {
    "memory_summary_read": {},
    "recovery_preview": {},
    "checkpoint_create": {"message": "before the agent"},
    "recap_read": {},
    "runs_list": {"limit": 5},
    "triggers_check": {},
    "rewind_list": {},
    "handoff": {"budget": 2000},
    "memory_full_read": {},
    "memory_write": {"field": "risk", "text": "the agent may break auth"},
    "handoff_export": {"path": "HANDOFF.md"},
    "recovery_apply": {},
}


def test_every_tool_declares_an_output_schema_its_answers_fit(repo: Path) -> None:
    """tools/list gives each of the twelve tools an object output schema; each tool's
    real answer (all granted, the apply flag on) validates against it, and its text
    content is the same JSON."""
    (repo / "README.md").write_text("drifted\n", encoding="utf-8")
    assert vf(repo, "recap").returncode == 0
    assert vf(repo, "memory", "intent", "fix the login flow", "--yes").returncode == 0
    for tool in ("memory_full_read", "memory_write", "handoff_export", "recovery_apply"):
        assert vf(repo, "grant", tool, "--client", CLIENT).returncode == 0

    async def body(client: Client) -> tuple[list[Any], dict[str, tuple[bool, Any, str]]]:
        tools = (await client.list_tools()).tools
        return tools, {name: await call(client, name, args) for name, args in CALLS.items()}

    tools, answers = with_servers(repo, body, env={"VIBFLOW_RECOVERY_APPLY": "1"})
    schemas = {t.name: t.output_schema for t in tools}
    assert set(schemas) == set(CALLS)
    for name, schema in schemas.items():
        assert schema is not None, name
        assert schema["type"] == "object", name
        jsonschema.Draft202012Validator.check_schema(schema)
        failed, data, text = answers[name]
        assert not failed, (name, data)
        jsonschema.validate(data, schema)
        assert json.loads(text) == data
    # The schema says something: a wrong kind, or a missing field, does not fit.
    summary = dict(answers["memory_summary_read"][1])
    no_risks = {k: v for k, v in summary.items() if k != "risks"}
    for broken in ({**summary, "kind": "memory"}, no_risks):
        assert not jsonschema.Draft202012Validator(schemas["memory_summary_read"]).is_valid(broken)


async def raw(client: Client, method: str, params: dict[str, Any]) -> Any:
    """A request as the caller words it, past the client's typed helpers."""
    request: types.Request[Any, str] = types.Request(method=method, params=params)
    return await client.session.send_request(request, types.EmptyResult)


def test_every_answer_writes_exactly_one_audit_row(repo: Path) -> None:
    """The handshake, tools/list, an allowed call, a denied call, a call with
    malformed params, an unknown method and an unknown tool: each answer adds exactly
    one count-only mcp.* row naming the configured client, written before the answer."""
    seen: list[int] = []

    def rows() -> int:
        return len(mcp_rows(repo, protocol=True))

    async def body(client: Client) -> list[str]:
        seen.append(rows())  # after the handshake
        await client.list_tools()
        seen.append(rows())
        await call(client, "runs_list", {})
        seen.append(rows())
        await call(client, "memory_full_read", {})
        seen.append(rows())
        await call(client, "no_such_tool", {})
        seen.append(rows())
        errors = []
        for method, params in (("tools/call", {"name": 42}), ("vibflow/xyzzy-path", {})):
            try:
                await raw(client, method, params)
            except MCPError as exc:
                errors.append(exc.error.code)
            seen.append(rows())
        return [str(e) for e in errors]

    errors = with_servers(repo, body)
    assert errors == ["-32602", "-32601"]  # invalid params, method not found
    assert seen == [1, 2, 3, 4, 5, 6, 7]
    found = mcp_rows(repo, protocol=True)
    assert [r["event"] for r in found] == [
        "mcp.discover",  # the official client's handshake (the raw legacy one: test_mcp_server)
        "mcp.tools_list",
        "mcp.runs_list",
        "mcp.memory_full_read",
        "mcp.unknown_tool",
        "mcp.tools_call",
        "mcp.unknown_method",
    ]
    assert [r["result"] for r in found] == [
        "ok",
        "ok",
        "ok",
        "refused",
        "refused",
        "refused",
        "refused",
    ]
    assert {r["tool"] for r in found} == {CLIENT}
    assert "xyzzy" not in json.dumps(found)  # the caller's method name is not echoed
    assert vf(repo, "audit", "verify").returncode == 0
