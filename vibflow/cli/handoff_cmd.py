"""``vibflow handoff``: a context pack for the next agent or human, within a
character budget, redacted (wiring only: the handoff service does the work)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

import typer

from vibflow.cli.context import JSON_OPT, project_for
from vibflow.cli.output import emit_json


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
    from vibflow.engine.atomicfile import atomic_write
    from vibflow.engine.errors import ErrorCode, VibflowError

    project = project_for(ctx)
    made = project.handoff.assemble(audience.value, budget)
    if out is not None:
        try:
            atomic_write(out, made.text + "\n", durable=False)
        except OSError as exc:
            raise VibflowError(
                ErrorCode.BAD_INPUT,
                f"the handoff could not be written to {out.name} ({exc.strerror or exc})",
            ) from exc
    if as_json:
        data = made.to_json()
        if out is not None:
            data["written_to"] = out.name
        emit_json(data)
    elif out is not None:
        typer.echo(f"Handoff written to {out.name} ({len(made.text):,} characters).")
    else:
        typer.echo(made.text)
