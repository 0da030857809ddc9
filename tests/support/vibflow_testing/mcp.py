"""``vibflow mcp serve`` as a real subprocess, driven by the official MCP client.

``with_servers(root, body, ...)`` starts one server per client name (each its
own process, as every MCP client starts its own), connects the SDK's
``Client`` over stdio and runs ``async body(*clients)``; ``call`` returns a
tool's (is_error, structured content, text).  The server's stderr goes to a
file beside the project so a failing test can show it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from vibflow_testing.cli import clean_env

CLIENT = "test-agent"


def server_params(
    root: Path, client: str = CLIENT, *, env: dict[str, str] | None = None, rescan: float = 0.0
) -> StdioServerParameters:
    args = ["-m", "vibflow", "mcp", "serve", "--client", client, "--rescan-rate", str(rescan)]
    return StdioServerParameters(
        command=sys.executable, args=args, cwd=str(root), env=clean_env(**(env or {}))
    )


def with_servers(
    root: Path,
    body: Callable[..., Awaitable[Any]],
    *,
    clients: tuple[str, ...] = (CLIENT,),
    env: dict[str, str] | None = None,
    rescan: float = 0.0,
    envs: dict[str, dict[str, str]] | None = None,
) -> Any:
    """Run ``body(client, ...)`` with one connected client per name; return its result.
    ``envs`` adds to ``env`` for the server of one client name."""
    log = root.parent / "mcp-server.stderr"

    async def main() -> Any:
        async with AsyncExitStack() as stack:
            errlog = stack.enter_context(log.open("a", encoding="utf-8"))
            connected = []
            for name in clients:
                mine = {**(env or {}), **(envs or {}).get(name, {})}
                params = server_params(root, name, env=mine, rescan=rescan)
                transport = stdio_client(params, errlog=errlog)
                connected.append(await stack.enter_async_context(Client(transport)))
            return await body(*connected)

    return anyio.run(main)


async def call(
    client: Client, tool: str, args: dict[str, Any] | None = None
) -> tuple[bool, Any, str]:
    """``(is_error, structured content, text)`` of one tool call."""
    result = await client.call_tool(tool, args or {})
    texts = [c.text for c in result.content if getattr(c, "type", "") == "text"]
    return bool(result.is_error), result.structured_content, "\n".join(texts)


#: Rows of answers outside tools/call's boundary (the handshake, tools/list, ping ...).
PROTOCOL_EVENTS = frozenset(
    f"mcp.{e}"
    for e in ("initialize", "ping", "tools_list", "tools_call", "discover", "unknown_method")
)


def mcp_rows(root: Path, *, protocol: bool = False) -> list[dict[str, Any]]:
    """The audit's mcp.* rows: the tool calls' only, or with ``protocol`` every answer's."""
    path = root / ".vibflow" / "audit.jsonl"
    if not path.exists():
        return []
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return [
        r
        for r in rows
        if str(r.get("event", "")).startswith("mcp.")
        and (protocol or r.get("event") not in PROTOCOL_EVENTS)
    ]
