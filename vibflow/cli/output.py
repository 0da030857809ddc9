"""Rendering for the CLI: one JSON object with ``--json``, plain text otherwise.

The JSON shapes here are the CLI contract (pinned by tests): every run
object has ``run_id``, ``flow``, ``status``, ``state``, ``blocked_reason`` and
``recap_id``; ``runs show`` adds ``transitions`` (``from``, ``event``, ``to``,
``at``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import typer

from vibflow.cli.plain import dumps
from vibflow.cli.run_commands import (
    next_commands,
    public_of,
    recap_lines,
    run_views,
    stored_definition,
)
from vibflow.cli.views import Answer, WaitPrompt
from vibflow.engine.errors import VibflowError

if TYPE_CHECKING:
    from vibflow.engine.catalog import FlowEntry
    from vibflow.engine.definition import FlowDefinition
    from vibflow.engine.journal import Entry, RunRecord
    from vibflow.engine.runner import DryRunReport


def emit_json(data: Any) -> None:
    """Print one ``--json`` answer; every command's JSON goes through here.

    Warnings said during the command (a damaged journal backed up) ride along
    as ``"warnings"``, so a program reading only stdout learns of them too.
    """
    from vibflow.cli.context import current_warnings

    warnings = current_warnings()
    if warnings and isinstance(data, dict) and "warnings" not in data:
        data = {**data, "warnings": list(warnings)}
    typer.echo(dumps(data))


def run_json(run: RunRecord, defn: FlowDefinition | None = None) -> dict[str, Any]:
    defn = defn or stored_definition(run)
    state = defn.states.get(run.state)
    waiting_for = None
    if state is not None and state.kind == "wait" and run.status in ("waiting", "blocked"):
        waiting_for = {"wait": state.wait, "events": list(state.on), "inputs": dict(state.inputs)}
    data: dict[str, Any] = {
        "run_id": run.run_id,
        "flow": run.flow,
        "flow_version": run.flow_version,
        "status": run.status,
        "state": run.state,
        "blocked_reason": run.blocked_reason,
        "recap_id": run.recap_id,
        "error": run.error,
        "attempt": run.attempt,
        "waiting_for": waiting_for,
        "next_commands": next_commands(run, defn),
        "created_at": run.created_at,
        "updated_at": run.updated_at,
        "parent_run": run.parent_run,
    }
    public = run.context.get("public")
    if isinstance(public, dict):
        for key, value in public.items():
            data.setdefault(key, value)
    return data


def run_summary(
    run: RunRecord,
    as_json: bool,
    *,
    changes: dict[str, list[str]] | None = None,
    prompting: bool = False,
) -> None:
    """One run as JSON or text. ``prompting``: the terminal is about to ask the
    wait, so the commands to continue (and what a guiding view asks itself) are
    left out — they are printed if the user stops."""
    data = run_json(run)
    if changes:
        data["definition_changes"] = changes
    if as_json:
        emit_json(data)
        return
    headline = {
        "waiting": f"is waiting at '{run.state}'",
        "blocked": f"is blocked at '{run.state}'",
        "done": f"finished at '{run.state}'",
        "failed": f"failed at '{run.state}'",
        "aborted": f"was aborted at '{run.state}'",
        "interrupted": f"was interrupted at '{run.state}'",
        "running": f"is running at '{run.state}'",
    }.get(run.status, f"is {run.status} at '{run.state}'")
    typer.echo(f"run {run.run_id} ({run.flow}) {headline}")
    if changes:
        typer.echo(
            "  note: the flow file changed since this run started; the run keeps the "
            "version it started with"
        )
        for key, items in changes.items():
            for item in items:
                typer.echo(f"    {key.replace('_', ' ')}: {item}")
    if run.blocked_reason:
        typer.echo(f"  blocked: {run.blocked_reason}")
        if data["waiting_for"] and not prompting:
            # A guard refused the event at a wait: nothing moved, and the wait is
            # still open — as after wrong answers at the terminal (views.Refused).
            typer.echo(
                f"  nothing was changed; the run is still waiting for "
                f"{data['waiting_for']['wait']} (a `next:` command below answers it)"
            )
    if run.error:
        typer.echo(f"  error: {run.error}")
    public = public_of(run)
    views = run_views()
    if data["waiting_for"]:
        w = data["waiting_for"]
        typer.echo(f"  waiting for: {w['wait']} (events: {', '.join(w['events'])})")
        for view in views:
            if prompting and view.guides(w["wait"], public):
                continue
            for line in view.wait_lines(run.run_id, w["wait"], public):
                typer.echo(line)
    for cmd in [] if prompting else data["next_commands"]:
        typer.echo(f"  next: {cmd}")
    for view in views:
        for line in view.result_lines(public):
            typer.echo(line)
    if run.recap_id:
        typer.echo(f"  recap: vibflow recap {run.run_id}")


def prompt_wait(
    defn: FlowDefinition,
    run: RunRecord,
    *,
    stored: Mapping[str, Any] | None = None,
    show_all: bool = False,
) -> Answer:
    """Ask on a terminal which event to send, and its inputs; None to stop.

    A flow's view that guides this wait asks it all itself (recover: the
    explanation, a numbered menu, the files to restore, the confirmation);
    otherwise the events are offered by number or name and the inputs asked
    one by one, each re-asked until it has the declared type.
    """
    state = defn.states[run.state]
    public = public_of(run)
    wait = state.wait or ""
    for view in run_views():
        if view.guides(wait, public):
            inputs = run.context.get("inputs")
            return view.guide(
                WaitPrompt(
                    run_id=run.run_id,
                    wait=wait,
                    events=tuple(state.on),
                    public=public,
                    inputs=inputs if isinstance(inputs, dict) else {},
                    stored=stored,
                    show_all=show_all,
                )
            )
    events = list(state.on)
    while True:
        for number, event in enumerate(events, start=1):
            typer.echo(f"  {number}) {event}")
        choice = typer.prompt(
            "Choose (number or name, empty to stop)", default="", show_default=False
        ).strip()
        if not choice:
            return None
        if choice.isdigit() and 1 <= int(choice) <= len(events):
            event = events[int(choice) - 1]
            break
        if choice in events:
            event = choice
            break
        typer.echo(f"'{choice}' is not one of: {', '.join(events)}")
    values: dict[str, Any] = {}
    for key, type_name in state.inputs.items():
        # Optional inputs serve scripts and agents (--input); on a terminal only
        # what is needed is asked.
        if type_name.endswith("?"):
            continue
        values[key] = _ask(key, type_name, f"state '{run.state}'")
    return event, values


def _ask(key: str, type_name: str, where: str) -> str:
    """Prompt for one required input until the answer has the declared type."""
    from vibflow.engine.inputs import coerce

    while True:
        value = str(typer.prompt(f"{key} ({type_name})"))
        try:
            coerce({key: type_name}, {key: value}, where=where)
        except VibflowError as exc:
            typer.echo(f"  {exc.message}; try again")
            continue
        return value


def _transitions(entries: list[Entry]) -> list[dict[str, Any]]:
    return [
        {
            "seq": e.seq,
            "from": e.from_state,
            "event": e.event,
            "to": e.to_state,
            "at": e.at,
            "guards": e.guards,
            "outcome": e.outcome,
        }
        for e in entries
        if e.kind == "transition"
    ]


def run_detail(run: RunRecord, entries: list[Entry], as_json: bool) -> None:
    data = run_json(run)
    data["transitions"] = _transitions(entries)
    data["refusals"] = [
        {
            "seq": e.seq,
            "from": e.from_state,
            "event": e.event,
            "to": e.to_state,
            "at": e.at,
            "guards": e.guards,
        }
        for e in entries
        if e.kind == "blocked"
    ]
    data["definition_digest"] = run.definition_digest
    data["policy_digest"] = run.policy_digest
    if as_json:
        emit_json(data)
        return
    run_summary(run, False)
    for t in data["transitions"]:
        typer.echo(f"  {t['seq']:>3}  {t['from']} --{t['event']}--> {t['to']}  {t['at']}")


def timeline(run: RunRecord, entries: list[Entry], as_json: bool) -> None:
    if as_json:
        emit_json(
            {
                "run_id": run.run_id,
                "entries": [
                    {
                        "seq": e.seq,
                        "kind": e.kind,
                        "from": e.from_state,
                        "event": e.event,
                        "to": e.to_state,
                        "guards": e.guards,
                        "outcome": e.outcome,
                        "started_at": e.started_at,
                        "at": e.at,
                    }
                    for e in entries
                ],
            }
        )
        return
    typer.echo(f"timeline of {run.run_id} ({run.flow})")
    for e in entries:
        if e.kind == "start":
            line = f"start at {e.to_state}"
        elif e.kind == "transition":
            line = f"{e.from_state} --{e.event}--> {e.to_state}"
        elif e.kind == "blocked":
            line = f"{e.from_state} --{e.event}--x refused"
        else:
            line = f"{e.event} at {e.from_state}"
        typer.echo(f"  {e.at}  {e.seq:>3}  {line}" + (f"  ({e.outcome})" if e.outcome else ""))
        for g in e.guards:
            mark = "pass" if g.get("passed") else "REFUSED"
            why = f": {g['reason']}" if g.get("reason") and not g.get("passed") else ""
            typer.echo(f"             guard {g['guard']}: {mark}{why}")


def recap(body: dict[str, Any], as_json: bool) -> None:
    """A recap (already redacted): headline, bullets, commands, what it covers."""
    if as_json:
        emit_json(body)
        return
    for line in recap_lines(body):
        typer.echo(line)


def flows_table(entries: list[FlowEntry], as_json: bool) -> None:
    if as_json:
        emit_json(
            {
                "flows": [
                    {
                        "name": e.name,
                        "origin": e.origin,
                        "file": e.display,
                        "overrides_builtin": e.overrides_builtin,
                    }
                    for e in entries
                ]
            }
        )
        return
    if not entries:
        typer.echo("no flows are available yet")
        return
    for e in entries:
        extra = " (overrides the shipped flow)" if e.overrides_builtin else ""
        typer.echo(f"{e.name:<20} {e.origin:<8} {e.display}{extra}")


def dry_run(report: DryRunReport, as_json: bool) -> None:
    if as_json:
        emit_json(report.to_json())
        return
    typer.echo(f"dry run of {report.flow} (nothing was written):")
    for hop in report.path:
        line = f"  {hop['state']} [{hop['kind']}]"
        if "skipped" in hop:
            line += f" skipped: {hop['skipped']}"
        if "event" in hop:
            line += f" --{hop['event']}-->"
        typer.echo(line)
        for g in hop.get("guards", []):
            typer.echo(f"      guard {g['guard']}: {'pass' if g['passed'] else 'REFUSED'}")
    ends = {
        "final": "reached a final state",
        "wait": "stopped at a wait (needs input)",
        "blocked": f"blocked: {report.blocked_reason}",
        "failed": "a step failed",
        "loop": "stopped: the flow loops",
    }
    typer.echo(f"  → {ends[report.ended]}")
    if report.skipped:
        typer.echo(f"  skipped (would change files or state): {', '.join(report.skipped)}")
