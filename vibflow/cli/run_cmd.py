"""The top-level flow commands: ``run``, ``step``, ``resume``, ``recap`` and ``demo``.

They start and advance runs through the project's runner and render the
result; on a terminal a run that waits asks for the event and its inputs.
``app`` mounts them at the root (its ``COMMANDS`` table).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from vibflow.cli import output, run_commands
from vibflow.cli.context import INPUT_OPT, JSON_OPT, project_for, state_of
from vibflow.engine.errors import ErrorCode, Outcome, VibflowError

if TYPE_CHECKING:
    from vibflow.engine.journal import RunRecord
    from vibflow.wiring import Project

ALL_OPT = typer.Option(
    False,
    "--all",
    help="At a terminal, list every file when a run explains or asks (not the first few).",
)


def run(
    ctx: typer.Context,
    flow: str = typer.Argument(
        ...,
        metavar="FLOW",
        help="A flow (see `vibflow flows list`; `vibflow flows show FLOW` lists the inputs "
        "it takes at its start).",
    ),
    inputs: list[str] | None = INPUT_OPT,
    as_json: bool = JSON_OPT,
    dry_run: bool = typer.Option(
        False,
        "--dry-run",
        help="Walk the flow without writing: evaluate guards, run read-only "
        "steps, skip (and list) steps that change anything.",
    ),
    show_all: bool = ALL_OPT,
) -> None:
    """Start a run of FLOW and advance it until it waits, blocks, fails or ends."""
    from vibflow.engine.inputs import coerce

    project = project_for(ctx)
    loaded = project.catalog.load(flow)
    # Like `step` at a wait: only what the flow declares for its start, typed.
    pairs = coerce(
        loaded.definition.inputs,
        _pairs(ctx, project.root, inputs),
        where=f"flow '{loaded.name}'",
        hint="Inputs for a wait go with the event that answers it: "
        "`vibflow step RUN EVENT --input KEY=VALUE`.",
    )
    if dry_run:
        project.dry_running = True
        report = project.dry_runner.dry_run(loaded, pairs)
        output.dry_run(report, as_json)
        return
    result = project.runner.start(loaded, pairs)
    _finish(project, result, as_json, show_all=show_all)


def start(ctx: typer.Context, flow: str, as_json: bool) -> None:
    """Start a run of ``flow`` with no inputs and render it (guided at a terminal):
    the shortcut commands (`vibflow memory review`) are this."""
    project = project_for(ctx)
    _finish(project, project.runner.start(project.catalog.load(flow), {}), as_json)


def step(
    ctx: typer.Context,
    run_id: str = typer.Argument(
        ..., metavar="RUN", help="The run, as `vibflow runs list` shows it."
    ),
    event: str = typer.Argument(
        ...,
        metavar="EVENT",
        help="The event to send: `vibflow runs show RUN` names those its wait takes, "
        "`vibflow flows show FLOW` their inputs.",
    ),
    inputs: list[str] | None = INPUT_OPT,
    as_json: bool = JSON_OPT,
    show_all: bool = ALL_OPT,
) -> None:
    """Send EVENT (with typed inputs) to a waiting run, then advance it.

    A list input repeats its key once per value (one value may also hold
    several, comma-separated, or a JSON array for names with a comma), e.g. a
    recover restore of only some files:
    --input option=OPTION_ID --input paths=a.py --input paths=src/b.py
    """
    from vibflow.engine.kinds import FINISHED

    project = project_for(ctx)
    target = project.runner.get(run_id)
    if target.status in FINISHED:
        # Sending to a run that is over is a mistake in the command, not a refusal.
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"run {target.run_id} has already finished ({target.status}); "
            f"there is nothing to send '{event}' to",
            hint=f"`vibflow runs show {target.run_id}` shows what happened; "
            f"`vibflow run {target.flow}` starts a new run.",
        )
    result = project.runner.send(run_id, event, _pairs(ctx, project.root, inputs))
    _finish(project, result, as_json, show_all=show_all)


def _pairs(ctx: typer.Context, root: Path, inputs: list[str] | None) -> dict[str, str | list[str]]:
    """``--input KEY=VALUE`` options as a dict (a repeated key collects a list).

    ``paths`` is the file input of every flow that restores files; typed here it is
    held to the restore rules and read in the folder you are in, as every other
    project path on the command line is (``context.paths_to_restore``). One value
    may name several (comma-separated, or a JSON array of names taken as written),
    so each piece is placed.
    """
    from vibflow.cli.context import paths_to_restore
    from vibflow.engine.inputs import list_items, parse_pairs

    pairs = parse_pairs(inputs or [])
    raw = pairs.get("paths")
    if isinstance(raw, list):
        pairs["paths"] = paths_to_restore(ctx, root, raw)
    elif raw is not None and raw.strip():
        pieces = list_items(raw)
        placed = paths_to_restore(ctx, root, pieces)
        # A comma-separated value keeps its shape (a flow may take it as one string).
        pairs["paths"] = placed if raw.lstrip().startswith("[") else ",".join(placed)
    return pairs


def resume(
    ctx: typer.Context,
    run_id: str | None = typer.Argument(
        None, metavar="RUN", help="The run to continue (default: the latest unfinished one)."
    ),
    from_recap: str | None = typer.Option(
        None, "--from-recap", metavar="ID", help="Resume the run a recap's hint names."
    ),
    fork: bool = typer.Option(
        False,
        "--fork",
        help="With --from-recap: start a new run from "
        "the recap's point instead of continuing the old one.",
    ),
    yes: bool = typer.Option(
        False, "--yes", "-y", help="With a project recap: resume its open runs without asking."
    ),
    rerun_step: bool = typer.Option(
        False,
        "--rerun-step",
        help="Re-run an interrupted step that is not known to be safe to repeat.",
    ),
    as_json: bool = JSON_OPT,
    show_all: bool = ALL_OPT,
) -> None:
    """Continue an interrupted, blocked or waiting run from its last state."""
    project = project_for(ctx)
    runner = project.runner
    if from_recap is not None:
        body = project.journal.get_recap(from_recap)
        if body is None:
            raise VibflowError(
                ErrorCode.RECAP_NOT_FOUND,
                f"there is no recap '{from_recap}'",
                hint="`vibflow recap list` lists them.",
            )
        if body.get("kind") == "project":
            if fork:
                raise VibflowError(
                    ErrorCode.BAD_INPUT, "--fork takes a run's recap, not the project's"
                )
            _resume_listed(project, body, yes=yes, as_json=as_json, show_all=show_all)
            return
        hint = body.get("resume_hint")
        if fork:
            if hint:
                # An unfinished run: from the recorded state, the steps before it
                # taken from the journal.
                result = runner.fork(hint["run_id"], hint["state"])
            else:
                # A finished run: again from its start against the tree as it is
                # now, so the plan is recomputed and nothing done is offered again.
                result = runner.fork_fresh(str(body.get("subject_id")))
            _finish(project, result, as_json, show_all=show_all)
            return
        if not hint:
            raise VibflowError(
                ErrorCode.RUN_FINISHED,
                f"recap {from_recap} describes a finished run; there is nothing to resume",
                hint=f"`vibflow resume --from-recap {from_recap} --fork` starts it again "
                "against the tree as it is now.",
            )
        run_id = hint["run_id"]
    elif fork:
        raise VibflowError(ErrorCode.BAD_INPUT, "--fork needs --from-recap ID")
    target = runner.pick(run_id)
    changes = _definition_changes(project, target)
    if target.status == "waiting":
        _finish(project, target, as_json, changes=changes, show_all=show_all)
        return
    if target.status == "blocked" and _asking(as_json) and _at_a_wait(project, target):
        # A person at a terminal is asked the wait again: re-sending the refused
        # answer (what resuming does for a script) cannot help a wrong confirmation.
        _finish(project, target, as_json, changes=changes, show_all=show_all, ask_blocked=True)
        return
    result = runner.resume(target.run_id, rerun_step=rerun_step or _confirm_rerun(project, target))
    _finish(project, result, as_json, changes=changes, show_all=show_all)


def _resume_listed(
    project: Project, body: dict[str, Any], *, yes: bool, as_json: bool, show_all: bool
) -> None:
    """A project recap's open runs, one by one, each after a yes; or nothing to do."""
    from vibflow.engine.kinds import FINISHED

    runner = project.runner
    runner.refresh_all()
    listed = [r for r in body.get("open_runs") or [] if isinstance(r, dict)]
    still = [runner.get(r["run_id"]) for r in listed]
    still = [r for r in still if r.status not in FINISHED]
    if not still:
        if as_json:
            output.emit_json({"resumed": [], "message": "nothing to resume"})
        else:
            typer.echo(f"Nothing to resume: the runs recap {body['id']} listed have all ended.")
        return
    asking = not yes and sys.stdin.isatty() and not as_json
    if not yes and not asking:
        if as_json:
            output.emit_json({"resumed": [], "would_resume": [r.run_id for r in still]})
        else:
            for r in still:
                typer.echo(f"{r.flow} run {r.run_id} is {r.status} at '{r.state}'")
            typer.echo(f"Add --yes to resume these {len(still)} run(s) one by one.")
        return
    for run in still:
        if asking and not typer.confirm(
            f"Resume {run.flow} run {run.run_id} ({run.status} at '{run.state}')?", default=True
        ):
            continue
        if run.status == "waiting":
            _finish(project, run, as_json, show_all=show_all)
        else:
            _finish(project, runner.resume(run.run_id), as_json, show_all=show_all)


def _definition_changes(project: Project, run: RunRecord) -> dict[str, list[str]] | None:
    """How the flow file differs from the copy the run executes (None if same)."""
    from vibflow.engine.defdiff import diff

    try:
        current = project.catalog.load(run.flow).definition
    except VibflowError:
        return None
    if current.digest() == run.definition_digest:
        return None
    changes = diff(run_commands.stored_definition(run), current)
    return None if changes.empty else changes.to_json()


def _confirm_rerun(project: Project, run: RunRecord) -> bool:
    """On a terminal, ask before repeating a step not known to be safe to repeat."""
    if run.status != "interrupted" or not sys.stdin.isatty():
        return False
    defn = project.runner.definition_of(run)
    state = defn.states[run.state]
    if not state.step or project.registry.get_step(state.step).safe_to_rerun:
        return False
    return typer.confirm(
        f"Step '{state.step}' was interrupted and may have partly run. Run it again?",
        default=False,
    )


def _compact_answer(
    project: Project, run_id: str, event: str, values: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    """A long file subset picked at the terminal is saved beside the run and sent by
    its id: the run's context (and its inputs) stay small whatever the subset."""
    from vibflow.steps.recovery.plans import INLINE_PATHS_BYTES

    paths = values.get("paths")
    if isinstance(paths, list) and len(json.dumps(paths).encode("utf-8")) > INLINE_PATHS_BYTES:
        rest = {k: v for k, v in values.items() if k != "paths"}
        return event, {**rest, "selection": project.run_plans.save_selection(run_id, paths)}
    return event, values


def _asking(as_json: bool) -> bool:
    """Whether a person is asked: stdin and stdout both terminals, no ``--json``."""
    return not as_json and sys.stdin.isatty() and sys.stdout.isatty()


def _at_a_wait(project: Project, run: RunRecord) -> bool:
    return project.runner.definition_of(run).states[run.state].wait is not None


def _finish(
    project: Project,
    result: RunRecord,
    as_json: bool,
    *,
    changes: dict[str, list[str]] | None = None,
    show_all: bool = False,
    ask_blocked: bool = False,
) -> None:
    """Render a run, prompting at waits on a terminal; exit by its status.

    Only a person at a terminal is asked (stdin and stdout both terminals, no
    ``--json``); scripts and agents get the run as it stands and its commands.
    ``ask_blocked``: a run blocked at its wait (``resume`` at a terminal) is asked
    once too; refused again, it ends blocked as any refusal does.
    """
    from vibflow.cli.views import Refused

    runner = project.runner
    refused: Refused | None = None
    while _asking(as_json) and (
        result.status == "waiting" or (ask_blocked and result.status == "blocked")
    ):
        ask_blocked = False
        output.run_summary(result, False, changes=changes, prompting=True)
        try:
            answer = output.prompt_wait(
                runner.definition_of(result),
                result,
                stored=project.run_plans.load(result.run_id),
                show_all=show_all,
            )
        except Refused as exc:  # wrong answers: nothing was sent, the run still waits
            refused, answer = exc, None
        if answer is None:
            break
        event, values = _compact_answer(project, result.run_id, *answer)
        try:
            result = runner.send(result.run_id, event, values)
        except VibflowError as exc:
            # Refused before anything was recorded (e.g. a file subset too large
            # for the run's context): the person at the terminal answers again
            # instead of losing the walk-through. Anything else ends as before.
            now = runner.get(result.run_id)
            if (now.status, now.state) != (result.status, result.state):
                raise
            typer.echo(f"vibflow: {exc.message}; nothing was sent, the run still waits")
            result = now
        changes = None
    output.run_summary(result, as_json, changes=changes)
    if refused is not None:
        raise refused  # after the run as it stands: its message, exit 3
    code = {"blocked": Outcome.REFUSED, "failed": Outcome.FAILURE, "aborted": Outcome.FAILURE}.get(
        result.status
    )
    if code is not None:
        raise typer.Exit(int(code))


#: Render a run (prompting at its waits on a terminal) and exit by its status: for
#: the commands elsewhere that start runs of their own flows (restore, undo).
finish_run = _finish


def demo(
    ctx: typer.Context,
    directory: Path | None = typer.Option(
        None,
        "--dir",
        metavar="DIR",
        help="Build the scratch project in DIR (new or empty) and keep it there.",
    ),
    keep: bool = typer.Option(
        False,
        "--keep",
        help="Keep the scratch project (in a temp folder) to try the printed commands; "
        "without it the project is removed when the demo ends.",
    ),
    as_json: bool = JSON_OPT,
) -> None:
    """A scratch repo with a simulated AI drift, stepped through the recover flow."""
    from vibflow import demo as demo_mod

    with demo_mod.scratch(directory, keep=keep) as place:
        result = demo_mod.build(place.root, state_of(ctx).registry_hook)
        if as_json:
            output.emit_json(
                {
                    "project": str(result.root),
                    "kept": place.kept,
                    "run_id": result.run.run_id,
                    "checkpoint_id": result.checkpoint_id,
                    "plan": result.plan,
                }
            )
            return
        typer.echo(demo_mod.render(result, kept=place.kept), nl=False)
