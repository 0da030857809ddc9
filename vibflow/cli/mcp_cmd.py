"""``vibflow mcp serve``: run the MCP server for this project over stdio.

The project is fixed when the server starts (``--project`` or the working
directory) and the client's identity is its ``--client`` name; no caller can
change either. Wiring only: :mod:`vibflow.mcp.server` is the server.
"""

from __future__ import annotations

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
        0.01,  # DEFAULT_RESCAN_RATE (vibflow.mcp.server: not imported for --help)
        "--rescan-rate",
        min=0.0,
        max=1.0,
        hidden=True,
        help="Share of memory answers re-scanned after they are sent (tests use 1).",
    ),
) -> None:
    """Serve vibflow's MCP tools over stdin/stdout until the client disconnects."""
    from vibflow.mcp.serve import serve as serve_project

    state = state_of(ctx)
    serve_project(state.project, client, rescan_rate, debug=state.debug)
