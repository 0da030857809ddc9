"""``vibflow runs ...``: list and inspect the runs in the journal."""

from __future__ import annotations

import typer

from vibflow.cli import output
from vibflow.cli.context import JSON_OPT, project_for, run_bare

app = typer.Typer(
    help="List and inspect runs. Alone, `vibflow runs` lists them (as `vibflow runs list`).",
    invoke_without_command=True,
)


@app.callback()
def _bare(ctx: typer.Context) -> None:
    # `vibflow runs` alone: the list (context.run_bare).
    run_bare(ctx, "list")


@app.command("list")
def runs_list(
    ctx: typer.Context,
    as_json: bool = JSON_OPT,
    status: str | None = typer.Option(
        None,
        "--status",
        metavar="STATUS",
        help="Only runs with this status: running, waiting, blocked, done, failed, "
        "aborted or interrupted.",
    ),
    limit: int = typer.Option(20, "--limit", min=1, max=1000, metavar="N", help="At most N runs."),
) -> None:
    """List recent runs, newest first."""
    from vibflow.cli import read_bodies
    from vibflow.cli.command_invocation import CommandInvocation

    read_bodies.runs_list(CommandInvocation(ctx), status=status, limit=limit, as_json=as_json)


@app.command("show")
def runs_show(
    ctx: typer.Context,
    run_id: str = typer.Argument(..., metavar="RUN"),
    as_json: bool = JSON_OPT,
) -> None:
    """Show one run with its transitions."""
    project = project_for(ctx)
    run_rec = project.runner.refresh(project.runner.get(run_id))
    output.run_detail(run_rec, project.journal.entries(run_rec.run_id), as_json)


@app.command("timeline")
def runs_timeline(
    ctx: typer.Context,
    run_id: str = typer.Argument(..., metavar="RUN"),
    as_json: bool = JSON_OPT,
) -> None:
    """Every journal entry of a run, in order, with guard results."""
    project = project_for(ctx)
    run_rec = project.runner.refresh(project.runner.get(run_id))
    output.timeline(run_rec, project.journal.entries(run_rec.run_id), as_json)


@app.command("abort")
def runs_abort(
    ctx: typer.Context,
    run_id: str = typer.Argument(..., metavar="RUN"),
    as_json: bool = JSON_OPT,
) -> None:
    """Stop an unfinished run for good (it is kept in the journal)."""
    output.run_summary(project_for(ctx).runner.abort(run_id), as_json)
