"""``vibflow mcp serve``: run the MCP server for this project over stdio.

The project is fixed when the server starts (``--project`` or the working
directory) and the client's identity is its ``--client`` name; no caller can
change either. Wiring only: :mod:`vibflow.mcp.server` is the server.
"""

from __future__ import annotations

import os
from pathlib import Path

import typer

from vibflow.cli.context import state_of

app = typer.Typer(help="The MCP server for AI agents (stdio).", no_args_is_help=True)


@app.command("serve")
def serve(
    ctx: typer.Context,
    client: str = typer.Option(
        "mcp",
        "--client",
        metavar="NAME",
        help="Who this server answers (grants and audit rows name it), e.g. claude-code.",
    ),
    rescan_rate: float = typer.Option(
        0.01,
        "--rescan-rate",
        min=0.0,
        max=1.0,
        hidden=True,
        help="Share of memory answers re-scanned after they are sent (tests use 1).",
    ),
) -> None:
    """Serve vibflow's MCP tools over stdin/stdout until the client disconnects."""
    from vibflow.mcp.server import McpApp
    from vibflow.steps.grants.capabilities import check_client
    from vibflow.steps.workspace.root import find_root

    state = state_of(ctx)
    name = check_client(client)
    root = find_root(state.project or Path.cwd())
    McpApp(root, name, env=os.environ, rescan_rate=rescan_rate, debug=state.debug).serve_stdio()
