"""``vibflow recover``: read-only shortcuts into the recovery advisor."""

from __future__ import annotations

import typer

from vibflow.cli.context import JSON_OPT, project_for
from vibflow.cli.output import emit_json
from vibflow.engine.errors import ErrorCode, VibflowError

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
    if explain and preview:
        raise VibflowError(ErrorCode.BAD_INPUT, "choose one of --explain and --preview")
    from vibflow.steps.recovery.interrupted import interrupted_restores

    project = project_for(ctx)
    advisor = project.recovery
    advice = advisor.advise()
    if preview:
        advisor.record_preview(advice)
    from vibflow.cli import recover_render

    render = recover_render.preview if preview else recover_render.explain
    text = None if as_json else render(advice.payload, show_all)
    project.audit.append(
        "recovery_preview" if preview else "recovery_explain",
        result="ok",
        **advice.audit_facts(),
        **_stale_facts(advice.plan.intent, advice.plan.intent_stale, text),
    )
    # A restore a crash left half-done comes first: resuming it is the way on.
    stopped = interrupted_restores(project.journal, lambda: project.recovery_services.jobs)
    if as_json or text is None:
        emit_json({**advice.payload, "interrupted_restores": stopped})
        return
    for run in stopped:
        typer.echo(
            f"An interrupted restore exists: run {run['run_id']} ({run['flow']}) stopped "
            f"part-way through {run['files_total']} file(s). Resume it with "
            f"`{run['resume_command']}` (files edited since are asked about again).\n"
        )
    typer.echo(text, nl=False)
    from vibflow.cli.nudges import print_nudges

    print_nudges(project, "recover")


def _stale_facts(intent: str | None, stale: bool, text: str | None) -> dict[str, bool]:
    """For a text that showed the intent: whether it was stale, and whether the
    text said so — read back from what the user gets (the stale-intent P0 count)."""
    if not intent or text is None:
        return {}
    line = next((ln for ln in text.splitlines() if ln.startswith("Your intent:")), None)
    if line is None:
        return {}
    return {"intent_stale": stale, "stale_labelled": "[STALE]" in line}


@app.command("feedback")
def recover_feedback(
    ctx: typer.Context,
    plan_id: str = typer.Argument(..., metavar="PLAN_ID", help="The latest preview's plan id."),
    correct: list[str] | None = typer.Option(
        None,
        "--correct",
        metavar="PATH",
        help="A file the preview labelled right (in scope or outside it). Repeat for more.",
    ),
    wrong: list[str] | None = typer.Option(
        None,
        "--wrong",
        metavar="PATH",
        help="A file the preview labelled wrong: a drift file that is in scope, or an "
        "in-scope file that is drift. Remembered for your current intent. Repeat for more.",
    ),
    as_json: bool = JSON_OPT,
) -> None:
    """Tell vibflow which labels of the latest preview were right or wrong."""
    project = project_for(ctx)
    outcome = project.recovery.feedback(plan_id, correct or [], wrong or [])
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
