"""``vibflow handoff``: a context pack for the next agent or human, within a
character budget, redacted (wiring only: the handoff service does the work)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

import typer

from vibflow.cli.context import JSON_OPT


class For(StrEnum):
    agent = "agent"
    human = "human"


def handoff(
    ctx: typer.Context,
    budget: int | None = typer.Option(
        None,
        "--budget",
        metavar="CHARS",
        help="At most this many characters (default 6,000 for a human, 12,000 for an agent).",
        show_default=False,
    ),
    audience: For = typer.Option(
        For.human, "--for", help="Who reads it: `human` (default) or `agent`."
    ),
    out: Path | None = typer.Option(
        None, "--out", metavar="FILE", help="Write the handoff to FILE instead of printing it."
    ),
    as_json: bool = JSON_OPT,
) -> None:
    """Write a handoff from memory and the journal: intent, next action,
    decisions, files, verification, risks, open runs, agent turns, last recap."""
    from vibflow.cli import read_bodies
    from vibflow.cli.command_invocation import CommandInvocation

    read_bodies.handoff(
        CommandInvocation(ctx),
        audience="agent" if audience is For.agent else "human",
        budget=budget,
        out=out,
        as_json=as_json,
    )
