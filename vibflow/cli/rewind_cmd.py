"""``vibflow rewind``: the recent agent turns, and going back to before one.

Without TURN it lists the turns of the latest (or ``--session``) agent session:
when each started, the files the agent's tools reported, the files that
changed during the turn that no tool reported (shell edits), and the files
that changed after it while no turn ran (your own edits). With TURN it starts
the ``rewind`` flow — the restore flow's guarded way (preview, safety
checkpoint, ``APPLY <checkpoint>``, lock, apply; ``vibflow undo`` undoes it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from vibflow.cli.context import JSON_OPT, paths_to_restore, project_for
from vibflow.cli.output import emit_json
from vibflow.cli.restore_cmd import CONFIRM_OPT, run_restore_flow
from vibflow.cli.visible_text import one_line
from vibflow.engine.errors import ErrorCode, VibflowError

if TYPE_CHECKING:
    from vibflow.steps.agents.ledger import TurnView
    from vibflow.steps.agents.records import AgentRecords, Session
    from vibflow.wiring import Project

SHOWN = 6


def rewind(
    ctx: typer.Context,
    turn: str | None = typer.Argument(
        None,
        metavar="[TURN]",
        help="The turn to go back to before: its number in the session "
        "(as `vibflow rewind` lists it) or its id (trn_…). Without it: list the turns.",
    ),
    paths: list[str] | None = typer.Argument(
        None,
        metavar="PATH",
        help="Only these files, relative to where you are (default: every file that differs).",
    ),
    session: str | None = typer.Option(
        None, "--session", metavar="ID", help="The agent session (default: the latest one)."
    ),
    include_mine: bool = typer.Option(
        False,
        "--include-mine",
        help="Also put back files you edited yourself after the turn (listed before you confirm).",
    ),
    confirm: str | None = CONFIRM_OPT,
    as_json: bool = JSON_OPT,
) -> None:
    """List recent agent turns, or put the tree back to before TURN (guarded, undoable)."""
    project = project_for(ctx)
    records = project.agent_records
    from vibflow.agent_wiring import find_session

    chosen = find_session(records, session)
    if turn is None:
        _list(project, chosen, as_json)
        return
    turn_id = _turn_id(records, chosen, turn)
    from vibflow.steps.agents.rewind_steps import plan_rewind

    services = project.recovery_services
    plan = plan_rewind(services, records, turn_id)  # bad input before a run
    paths = paths_to_restore(ctx, project.root, list(paths or []))
    if paths:
        from vibflow.steps.recovery.restore_steps import checkpoint_source, named_paths

        named_paths(services, checkpoint_source(services, plan.checkpoint), paths)
    inputs: dict[str, Any] = {
        "turn": turn_id,
        "paths": paths,
        "include_mine": include_mine,
    }
    run_restore_flow(project, "rewind", inputs, confirm, as_json)


def _turn_id(records: AgentRecords, session: Session | None, wanted: str) -> str:
    if wanted.startswith("trn_"):
        return wanted
    if session is None:
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            "no agent turn is recorded yet, so there is nothing to rewind",
            hint="`vibflow agent install claude-code` records a checkpoint before every prompt.",
        )
    if not wanted.isdigit():
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"'{wanted[:40]}' is not a turn: give its number (as `vibflow rewind` lists it) "
            "or its id",
        )
    for t in records.turns(session.id):
        if t.number == int(wanted):
            return t.id
    raise VibflowError(
        ErrorCode.BAD_INPUT,
        f"session {session.agent_session[:12]} has no turn {wanted}",
        hint="`vibflow rewind` lists its turns.",
    )


def _list(project: Project, session: Session | None, as_json: bool) -> None:
    from vibflow.agent_wiring import rewind_listing, turn_json

    views, sessions = rewind_listing(project, session)
    if as_json:
        emit_json(
            {
                "session": None if session is None else session.__dict__,
                "turns": [turn_json(v) for v in views],
                "sessions": [s.__dict__ for s in sessions],
            }
        )
        return
    if session is None:
        typer.echo(
            "No agent turn is recorded yet. `vibflow agent install claude-code` (or gemini) "
            "takes a checkpoint before every prompt; `vibflow agent run -- CMD` wraps any other."
        )
        return
    typer.echo(
        f"{session.agent} session {session.agent_session[:12]} — {len(views)} turn(s), "
        f"last active {session.last_seen[:19].replace('T', ' ')}Z"
    )
    for v in views:
        typer.echo("")
        for line in _turn_lines(v):
            typer.echo(line)
    rewindable = [v.turn.number for v in views if v.turn.start_checkpoint]
    if rewindable:
        typer.echo("")
        typer.echo(
            f"`vibflow rewind N` puts the tree back to before turn N (e.g. {rewindable[-1]}); "
            "files you edited after it are kept unless you name them."
        )
    if len(sessions) > 1:
        others = ", ".join(f"{s.agent} {s.agent_session[:12]}" for s in sessions[1:4])
        typer.echo(f"Other sessions (--session ID): {others}")


def _names(paths: list[str]) -> str:
    shown = ", ".join(one_line(p) for p in paths[:SHOWN])
    return shown + (f", … and {len(paths) - SHOWN} more" if len(paths) > SHOWN else "")


def _turn_lines(v: TurnView) -> list[str]:
    t = v.turn
    when = t.started_at[11:19] + "Z"
    head = f"turn {t.number}  {t.started_at[:10]} {when}"
    if t.ended_at is None:
        head += "  (still running)"
    elif v.end_unsure:
        head += "  (the agent never said it ended)"
    if not t.start_checkpoint:
        head += f"  — cannot be rewound: {t.note or 'no checkpoint before it'}"
    out = [head]
    out.append(
        f"  the agent's tools reported {len(v.reported)} file(s)"
        + (f": {_names(v.reported)}" if v.reported else "")
    )
    if v.changed is None:
        if t.ended_at is not None:
            out.append("  what else changed during it is unknown (a checkpoint is missing)")
    elif v.unreported:
        out.append(
            f"  changed outside what the tools reported (shell edits): {_names(v.unreported)}"
        )
    if v.after:
        out.append(f"  changed after it, while no turn ran (yours): {_names(v.after)}")
    return out
