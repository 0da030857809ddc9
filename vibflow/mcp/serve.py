"""``vibflow mcp serve``'s body, shared by its typer command and the CLI's fast
path (an agent starts this server at every session: typer's import is ~40 ms of
that start, for a command line of two options)."""

from __future__ import annotations

import os
from pathlib import Path


def serve(project: Path | None, client: str, rescan_rate: float | None, *, debug: bool) -> None:
    """Serve the project's MCP tools over stdin/stdout until the client disconnects
    (``rescan_rate`` None: the server's default)."""
    from vibflow.mcp.server import DEFAULT_RESCAN_RATE, McpApp
    from vibflow.steps.grants.capabilities import check_client
    from vibflow.steps.workspace.root import find_root

    name = check_client(client)
    root = find_root(project or Path.cwd())
    rate = DEFAULT_RESCAN_RATE if rescan_rate is None else rescan_rate
    McpApp(root, name, env=os.environ, rescan_rate=rate, debug=debug).serve_stdio()
