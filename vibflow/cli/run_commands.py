"""What a run says next, and how a recap reads as text — without typer.

``recap``'s fast path (``fastpath``) prints a recap and the commands that
continue each open run, so these live apart from ``output`` (which echoes with
typer): the engine's continue commands made concrete by a flow's view, and a
recap's lines.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vibflow.cli.views import RunView
    from vibflow.engine.definition import FlowDefinition
    from vibflow.engine.journal import RunRecord


def stored_definition(run: RunRecord) -> FlowDefinition:
    """The definition a run stored when it started (the flow models load on first use)."""
    from vibflow.engine.definition import FlowDefinition

    return FlowDefinition.model_validate_json(run.definition)


def run_views() -> tuple[RunView, ...]:
    from vibflow.cli.recover_view import RecoverRunView
    from vibflow.cli.review_view import ReviewRunView

    return (RecoverRunView(), ReviewRunView())


def public_of(run: RunRecord) -> dict[str, Any]:
    public = run.context.get("public")
    return public if isinstance(public, dict) else {}


def next_commands(run: RunRecord, defn: FlowDefinition) -> list[str]:
    """The engine's continue commands, made concrete by a flow's view where the
    run knows the values (recover: each option id, the exact confirmation text)."""
    from vibflow.engine.recap import continue_commands

    generic = continue_commands(run, defn)
    state = defn.states.get(run.state)
    if state is None or state.kind != "wait" or run.status not in ("waiting", "blocked"):
        return generic
    for view in run_views():
        concrete = view.next_commands(run.run_id, state.wait, public_of(run))
        if concrete is not None:
            return concrete
    return generic


def recap_lines(body: dict[str, Any]) -> list[str]:
    """A recap (already redacted) as text: headline, bullets, open runs with the
    command for each, next actions, and its id."""
    edited = " (edited)" if body.get("generator") == "user_edited" else ""
    lines = [body["headline"] + edited]
    lines += [f"  • {bullet}" for bullet in body["bullets"]]
    for run in body.get("open_runs") or []:
        lines.append(f"  {run['flow']} run {run['run_id']} is {run['status']} at '{run['state']}'")
        lines.append(f"    → {run['resume_command']}")
    shown = {r["resume_command"] for r in body.get("open_runs") or []}
    lines += [f"  → {action}" for action in body.get("next_actions", []) if action not in shown]
    lines.append(
        f"  (recap {body['id']}; resume with `vibflow resume --from-recap {body['id']}`)"
        if body.get("resume_hint")
        else f"  (recap {body['id']})"
    )
    return lines
