"""``vibflow triggers ...``: check the nudges, see what they measure, answer them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from vibflow.cli.context import JSON_OPT, project_for
from vibflow.cli.output import emit_json

if TYPE_CHECKING:
    from vibflow.steps.triggers.session import Action

app = typer.Typer(
    help="Nudges that keep project memory honest: check, explain and answer them.",
    no_args_is_help=True,
)
ID_ARG = typer.Argument(..., metavar="ID", help="A trigger id (`vibflow triggers list`).")


@app.command("check")
def triggers_check(ctx: typer.Context, as_json: bool = JSON_OPT) -> None:
    """Evaluate every trigger now and say why each fires or not (records nothing)."""
    from vibflow.cli import read_bodies
    from vibflow.cli.command_invocation import CommandInvocation

    read_bodies.triggers_check(CommandInvocation(ctx), as_json=as_json)


@app.command("list")
def triggers_list(ctx: typer.Context, as_json: bool = JSON_OPT) -> None:
    """The triggers in effect and the metrics a condition may name."""
    from vibflow.steps.triggers.metrics import METRICS

    policy = project_for(ctx).triggers_policy
    metrics = [
        {"name": m.name, "kind": m.kind, "unit": m.unit, "help": m.help}
        for m in sorted(METRICS.values(), key=lambda m: m.name)
    ]
    rules = [
        {
            "id": trigger,
            "enabled": rule.enabled,
            "message": rule.message,
            "command": rule.command,
            "thresholds": dict(rule.thresholds),
            "metrics": sorted({leaf.metric for leaf in rule.when.leaves() if leaf.metric}),
        }
        for trigger, rule in sorted(policy.rules.items())
    ]
    if as_json:
        emit_json({"triggers": rules, "metrics": metrics})
        return
    typer.echo("Triggers:")
    for rule_json in rules:
        state = "on " if rule_json["enabled"] else "off"
        typer.echo(f"  {state} {rule_json['id']}: {rule_json['message']}")
    typer.echo("Metrics a condition may name:")
    for m in metrics:
        typer.echo(f"  {m['name']} ({m['unit']}): {m['help']}")


@app.command("explain")
def triggers_explain(ctx: typer.Context, trigger: str = ID_ARG, as_json: bool = JSON_OPT) -> None:
    """One trigger: its condition, each metric's value now, and what acts on it."""
    result = project_for(ctx).triggers.explain(trigger)
    if as_json:
        emit_json({"trigger": result.to_json(), "thresholds": dict(result.rule.thresholds)})
        return
    from vibflow.cli.read_bodies import render_trigger

    typer.echo("\n".join(render_trigger(result, detail=True)))
    if result.rule.thresholds:
        tuned = ", ".join(f"{k} = {v}" for k, v in sorted(result.rule.thresholds.items()))
        typer.echo(
            f"Thresholds: {tuned} (`vibflow policy set triggers.rules.{result.id}.thresholds.NAME "
            "VALUE`)"
        )


def _answer(ctx: typer.Context, trigger: str, action: Action, as_json: bool) -> None:
    project = project_for(ctx)
    project.triggers.respond(trigger, action, "cli")
    if as_json:
        emit_json({"trigger": trigger, "action": action})
        return
    until = {
        "accepted": "it will not be suggested again in this session",
        "dismissed": "it will not come back in this session",
        "snoozed": f"quiet for {project.triggers_policy.snooze_minutes} minutes "
        "or until this session ends",
    }[action]
    typer.echo(f"{trigger}: {action}; {until}.")


@app.command("accept")
def triggers_accept(ctx: typer.Context, trigger: str = ID_ARG, as_json: bool = JSON_OPT) -> None:
    """Say you acted on a nudge (it stays quiet for this session)."""
    _answer(ctx, trigger, "accepted", as_json)


@app.command("dismiss")
def triggers_dismiss(ctx: typer.Context, trigger: str = ID_ARG, as_json: bool = JSON_OPT) -> None:
    """Dismiss a nudge for the rest of this session."""
    _answer(ctx, trigger, "dismissed", as_json)


@app.command("snooze")
def triggers_snooze(ctx: typer.Context, trigger: str = ID_ARG, as_json: bool = JSON_OPT) -> None:
    """Quiet a nudge for a while (the policy's snooze_minutes, at most this session)."""
    _answer(ctx, trigger, "snoozed", as_json)
