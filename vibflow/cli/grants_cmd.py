"""``vibflow grant``, ``vibflow revoke`` and ``vibflow grants``: which MCP tools a
client may use in this project (wiring only: the grant service does the work).

Grants are default-deny and per tool; ``--client`` narrows one to a single
configured MCP client (``vibflow mcp serve --client NAME``). Only this local
command line makes or revokes grants — no MCP tool can.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

import typer

from vibflow.cli.context import JSON_OPT, project_for
from vibflow.cli.output import emit_json

if TYPE_CHECKING:
    from vibflow.steps.grants.model import Grant


def _shown(g: Grant, now: datetime) -> dict[str, Any]:
    return {**g.model_dump(mode="json"), "status": g.status(now)}


def _line(g: Grant, now: datetime) -> str:
    who = g.client or "any MCP client"
    until = f", until {g.expires_at[:16]}Z" if g.expires_at else ", until revoked"
    why = f" — {g.reason}" if g.reason else ""
    status = g.status(now)
    flag = "" if status == "active" else f" [{status}]"
    return f"{g.id}  {g.tool} for {who} (since {g.granted_at[:16]}Z{until}){flag}{why}"


def grant(
    ctx: typer.Context,
    tool: str = typer.Argument(
        ...,
        metavar="TOOL",
        help="memory_full_read, memory_write, handoff_export or recovery_apply.",
    ),
    client: str | None = typer.Option(
        None,
        "--client",
        metavar="NAME",
        help="Only this MCP client (its `vibflow mcp serve --client NAME`); default: any.",
    ),
    expires: str | None = typer.Option(
        None,
        "--expires",
        metavar="DURATION",
        help="End the grant after this long: 30m, 8h, 7d, 2w (default: until revoked).",
    ),
    reason: str | None = typer.Option(
        None, "--reason", metavar="TEXT", help="Why (stored redacted, shown by `vibflow grants`)."
    ),
    as_json: bool = JSON_OPT,
) -> None:
    """Allow an MCP client to use a tool that is denied by default."""
    from datetime import UTC

    made = project_for(ctx).grants.grant(tool, client=client, expires=expires, reason=reason)
    now = datetime.now(UTC)
    if as_json:
        emit_json(_shown(made, now))
        return
    typer.echo(f"granted: {_line(made, now)}")
    if tool == "recovery_apply":
        typer.echo(
            "  note: recovery_apply also needs VIBFLOW_RECOVERY_APPLY=1 in the MCP server's "
            "environment; revoke with `vibflow revoke " + made.id + "`"
        )
    else:
        typer.echo(f"  revoke with `vibflow revoke {made.id}`")


def revoke(
    ctx: typer.Context,
    target: str = typer.Argument(
        ...,
        metavar="GRANT_ID|TOOL",
        help="A grant id (`vibflow grants`), or a tool to revoke every grant for it.",
    ),
    as_json: bool = JSON_OPT,
) -> None:
    """Take a grant back (by id), or every grant in force for a tool."""
    from datetime import UTC

    gone = project_for(ctx).grants.revoke(target)
    now = datetime.now(UTC)
    if as_json:
        emit_json({"revoked": [_shown(g, now) for g in gone]})
        return
    if not gone:
        typer.echo(f"no grant for {target} is in force; nothing was revoked")
    for g in gone:
        typer.echo(f"revoked: {_line(g, now)}")


def grants(
    ctx: typer.Context,
    show_all: bool = typer.Option(
        False, "--all", help="Also the revoked and expired grants (the history)."
    ),
    as_json: bool = JSON_OPT,
) -> None:
    """The MCP grants of this project (default-deny: what is not listed is refused)."""
    from vibflow.steps.grants.capabilities import CAPABILITIES

    listing = project_for(ctx).grants.listing()
    now = listing.now
    shown = [g for g in listing.grants if show_all or g.status(now) == "active"]
    if listing.warning:
        typer.echo(f"vibflow: warning: {listing.warning}", err=True)
    if as_json:
        emit_json(
            {
                "grants": [_shown(g, now) for g in shown],
                "defaults": {n: c.posture for n, c in CAPABILITIES.items()},
                "warning": listing.warning,
            }
        )
        return
    if not shown:
        typer.echo(
            "no grants in force: MCP clients may use only the tools allowed by default "
            "(`vibflow grant TOOL` allows another)"
        )
    for g in shown:
        typer.echo(_line(g, now))
