"""``vibflow recover``: read-only shortcuts into the recovery advisor (the
explain/preview body is ``recover_run``, which the fast path runs too)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from vibflow.cli.context import JSON_OPT, paths_here, project_for
from vibflow.cli.output import emit_json

if TYPE_CHECKING:
    from vibflow.wiring import Project

app = typer.Typer(
    help="Explain what changed and preview the ways back (read-only).",
    invoke_without_command=True,
)


@app.callback()
def recover(
    ctx: typer.Context,
    explain: bool = typer.Option(
        False, "--explain", help="What changed and what looks out of scope."
    ),
    preview: bool = typer.Option(False, "--preview", help="What each way back would change."),
    show_all: bool = typer.Option(False, "--all", help="List every file, not just the top ones."),
    as_json: bool = JSON_OPT,
) -> None:
    """Explain (default) or preview recovery; never modifies a file."""
    if ctx.invoked_subcommand is not None:
        return
    from vibflow.cli.command_invocation import CommandInvocation
    from vibflow.cli.recover_run import run_recover

    run_recover(
        CommandInvocation(ctx),
        explain=explain,
        preview=preview,
        show_all=show_all,
        as_json=as_json,
    )


@app.command("feedback")
def recover_feedback(
    ctx: typer.Context,
    plan_id: str = typer.Argument(..., metavar="PLAN_ID", help="The latest preview's plan id."),
    correct: list[str] | None = typer.Option(
        None,
        "--correct",
        metavar="PATH",
        help="A file the preview labelled right (in scope or outside it), relative to where "
        "you are. Repeat for more.",
    ),
    wrong: list[str] | None = typer.Option(
        None,
        "--wrong",
        metavar="PATH",
        help="A file the preview labelled wrong: a drift file that is in scope, or an "
        "in-scope file that is drift, relative to where you are. Remembered for your "
        "current intent. Repeat for more.",
    ),
    as_json: bool = JSON_OPT,
) -> None:
    """Tell vibflow which labels of the latest preview were right or wrong."""
    project = project_for(ctx)
    outcome = project.recovery.feedback(
        plan_id,
        _in_project(project, paths_here(ctx, project.root, correct or [])),
        _in_project(project, paths_here(ctx, project.root, wrong or [])),
    )
    state = outcome.state
    from vibflow.engine.audit import LabelCounts

    project.audit.append(
        "drift_feedback",
        result="ok",
        circuit_breaker_state=state.state,
        labels=LabelCounts(**outcome.labels),
    )
    if as_json:
        emit_json(
            {
                "circuit_breaker_state": state.state,
                "accuracy": state.accuracy,
                "labels": state.labels,
                "remembered": outcome.remembered,
            }
        )
        return
    acc = f"{state.accuracy:.0%}" if state.accuracy is not None else "not enough labels yet"
    typer.echo(
        f"recorded; drift labelling is {state.state} (accuracy over the last "
        f"{state.labels} labels: {acc})"
    )
    for path, label in outcome.remembered.items():
        said = "in scope" if label == "in_scope" else "outside your intent (drift)"
        typer.echo(f"  remembered for this intent: {path} is {said}")
    if outcome.not_remembered:
        typer.echo(
            "  not remembered for later plans: there is no active intent "
            "(`vibflow memory intent TEXT` sets one)"
        )


def _in_project(project: Project, paths: list[str]) -> list[str]:
    """An absolute path placed in the project by the path contract (which refuses one
    outside it, never echoing it); the others as the plan names them, odd bytes too."""
    return [project.paths.normalize_path(p) if Path(p).is_absolute() else p for p in paths]
