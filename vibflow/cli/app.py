"""The ``vibflow`` command line: parse, call one service, render.

Errors are one plain sentence plus what to do next; exit codes are 0 ok
(a run left waiting is ok), 1 failure, 2 bad input, 3 refused by a guard or
busy. A traceback is printed only with ``--debug``.
"""

from __future__ import annotations

import functools
import json
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import typer

from vibflow.engine.errors import ErrorCode, Outcome, VibflowError

from . import output

F = TypeVar("F", bound=Callable[..., Any])

app = typer.Typer(
    name="vibflow",
    help="Guided, audited recovery and project memory for coding with AI agents.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
runs_app = typer.Typer(help="List and inspect runs.", no_args_is_help=True)
flows_app = typer.Typer(help="List, draw and validate flow definitions.", no_args_is_help=True)
audit_app = typer.Typer(help="Check the count-only audit log.", no_args_is_help=True)
app.add_typer(runs_app, name="runs")
app.add_typer(flows_app, name="flows")
app.add_typer(audit_app, name="audit")


class _State:
    debug = False
    project: Path | None = None
    registry_hook: Callable[..., None] | None = None


STATE = _State()

JSON_OPT = typer.Option(False, "--json", help="Print one JSON object instead of text.")
INPUT_OPT = typer.Option(None, "--input", "-i", help="KEY=VALUE input (repeatable).")


def handled(fn: F) -> F:
    """Turn errors into a message and an exit status; never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        as_json = bool(kwargs.get("as_json"))
        try:
            return fn(*args, **kwargs)
        except VibflowError as exc:
            _report(exc, as_json)
            raise typer.Exit(int(exc.code.outcome)) from None
        except KeyboardInterrupt:
            typer.echo("interrupted", err=True)
            raise typer.Exit(130) from None
        except typer.Exit:
            raise
        except Exception as exc:  # noqa: BLE001 - the last line of defence against tracebacks
            err = VibflowError(
                ErrorCode.INTERNAL,
                f"vibflow hit an internal error ({type(exc).__name__})",
                hint="Run again with --debug for details, and please report it.",
            )
            _report(err, as_json, exc)
            raise typer.Exit(int(Outcome.FAILURE)) from None

    return wrapper  # type: ignore[return-value]


def _report(err: VibflowError, as_json: bool, cause: BaseException | None = None) -> None:
    if STATE.debug:
        traceback.print_exception(cause or err, file=sys.stderr)
    if as_json:
        typer.echo(output.dumps({"error": err.to_json()}))
    typer.echo(f"vibflow: {err.render()}", err=True)


@app.callback()
def _main(
    debug: bool = typer.Option(False, "--debug", help="Show tracebacks for errors."),
    project: Path | None = typer.Option(
        None, "--project", "-C", help="Run as if started in this folder.", show_default=False
    ),
) -> None:
    STATE.debug = debug
    STATE.project = project


def _project() -> Any:
    from vibflow.wiring import Project

    start = STATE.project or Path.cwd()
    return Project.discover(start, STATE.registry_hook)


# -- runs -------------------------------------------------------------------------


@app.command()
@handled
def run(
    flow: str = typer.Argument(..., help="Flow name (see `vibflow flows list`)."),
    inputs: list[str] | None = INPUT_OPT,
    as_json: bool = JSON_OPT,
    dry_run: bool = typer.Option(
        False,
        "--dry-run",
        help="Walk the flow without writing: evaluate guards, run read-only "
        "steps, skip (and list) steps that change anything.",
    ),
) -> None:
    """Start a run of FLOW and advance it until it waits, blocks, fails or ends."""
    from vibflow.engine.inputs import parse_pairs

    project = _project()
    loaded = project.catalog.load(flow)
    pairs = parse_pairs(inputs or [])
    if dry_run:
        report = project.dry_runner.dry_run(loaded, pairs)
        output.dry_run(report, as_json)
        return
    result = project.runner.start(loaded, pairs)
    _finish(project, result, as_json)


@app.command()
@handled
def step(
    run_id: str = typer.Argument(..., metavar="RUN"),
    event: str = typer.Argument(..., help="The event to send (see the run's 'waiting for')."),
    inputs: list[str] | None = INPUT_OPT,
    as_json: bool = JSON_OPT,
) -> None:
    """Send EVENT (with typed inputs) to a waiting run, then advance it."""
    from vibflow.engine.inputs import parse_pairs

    project = _project()
    result = project.runner.send(run_id, event, parse_pairs(inputs or []))
    _finish(project, result, as_json)


@app.command()
@handled
def resume(
    run_id: str | None = typer.Argument(
        None, metavar="[RUN]", help="Default: the latest unfinished run."
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
    rerun_step: bool = typer.Option(
        False,
        "--rerun-step",
        help="Re-run an interrupted step that is not known to be safe to repeat.",
    ),
    as_json: bool = JSON_OPT,
) -> None:
    """Continue an interrupted, blocked or waiting run from its last state."""
    project = _project()
    runner = project.runner
    if from_recap is not None:
        body = project.journal.get_recap(from_recap)
        if body is None:
            raise VibflowError(
                ErrorCode.RECAP_NOT_FOUND,
                f"there is no recap '{from_recap}'",
                hint="`vibflow recap RUN` shows a run's latest recap id.",
            )
        hint = body.get("resume_hint")
        if not hint:
            raise VibflowError(
                ErrorCode.RUN_FINISHED,
                f"recap {from_recap} describes a finished run; there is nothing to resume",
            )
        if fork:
            result = runner.fork(hint["run_id"], hint["state"])
            _finish(project, result, as_json)
            return
        run_id = hint["run_id"]
    elif fork:
        raise VibflowError(ErrorCode.BAD_INPUT, "--fork needs --from-recap ID")
    target = runner.pick(run_id)
    changes = output.definition_changes(project, target)
    if target.status == "waiting":
        _finish(project, target, as_json, changes=changes)
        return
    result = runner.resume(target.run_id, rerun_step=rerun_step or _confirm_rerun(project, target))
    _finish(project, result, as_json, changes=changes)


def _confirm_rerun(project: Any, run: Any) -> bool:
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


def _finish(project: Any, result: Any, as_json: bool, *, changes: Any = None) -> None:
    """Render a run, prompting at waits on a terminal; exit by its status."""
    runner = project.runner
    while not as_json and result.status == "waiting" and sys.stdin.isatty():
        output.run_summary(result, False, changes=changes)
        answer = output.prompt_wait(runner.definition_of(result), result)
        if answer is None:
            break
        event, values = answer
        result = runner.send(result.run_id, event, values)
        changes = None
    output.run_summary(result, as_json, changes=changes)
    code = {"blocked": Outcome.REFUSED, "failed": Outcome.FAILURE, "aborted": Outcome.FAILURE}.get(
        result.status
    )
    if code is not None:
        raise typer.Exit(int(code))


@runs_app.command("list")
@handled
def runs_list(
    as_json: bool = JSON_OPT,
    status: str | None = typer.Option(None, "--status", help="Only runs with this status."),
    limit: int = typer.Option(20, "--limit", min=1, max=1000),
) -> None:
    """List recent runs, newest first."""
    project = _project()
    project.runner.refresh_all()
    runs = project.journal.runs([status] if status else None, limit=limit)
    output.runs_table(runs, as_json)


@runs_app.command("show")
@handled
def runs_show(run_id: str = typer.Argument(..., metavar="RUN"), as_json: bool = JSON_OPT) -> None:
    """Show one run with its transitions."""
    project = _project()
    run_rec = project.runner.refresh(project.runner.get(run_id))
    output.run_detail(project, run_rec, as_json)


@runs_app.command("timeline")
@handled
def runs_timeline(
    run_id: str = typer.Argument(..., metavar="RUN"), as_json: bool = JSON_OPT
) -> None:
    """Every journal entry of a run, in order, with guard results."""
    project = _project()
    run_rec = project.runner.refresh(project.runner.get(run_id))
    output.timeline(project, run_rec, as_json)


@runs_app.command("abort")
@handled
def runs_abort(run_id: str = typer.Argument(..., metavar="RUN"), as_json: bool = JSON_OPT) -> None:
    """Stop an unfinished run for good (it is kept in the journal)."""
    project = _project()
    output.run_summary(project.runner.abort(run_id), as_json)


# -- recap ------------------------------------------------------------------------


@app.command()
@handled
def recap(
    run_id: str | None = typer.Argument(None, metavar="[RUN]"),
    as_json: bool = JSON_OPT,
) -> None:
    """Show a run's latest recap, or the project's state of play."""
    project = _project()
    runner = project.runner
    if run_id is None:
        runner.refresh_all()
        output.project_recap(project, as_json)
        return
    run_rec = runner.refresh(runner.get(run_id))
    body = project.journal.get_recap(run_rec.recap_id) if run_rec.recap_id else None
    if body is None:
        body = runner.write_recap(run_rec)
    output.recap(body, as_json)


# -- flows ------------------------------------------------------------------------


def _catalog() -> Any:
    from vibflow.wiring import Project, build_registry, catalog_without_project

    try:
        return Project.discover(STATE.project or Path.cwd(), STATE.registry_hook).catalog
    except VibflowError as exc:
        if exc.code is not ErrorCode.NOT_A_PROJECT:
            raise
        return catalog_without_project(build_registry(STATE.registry_hook))


@flows_app.command("list")
@handled
def flows_list(as_json: bool = JSON_OPT) -> None:
    """The flows you can run here (shipped and this project's own)."""
    output.flows_table(_catalog(), as_json)


@flows_app.command("show")
@handled
def flows_show(
    name: str,
    fmt: str = typer.Option("text", "--format", help="text or mermaid"),
    run_id: str | None = typer.Option(
        None, "--run", metavar="RUN", help="Mark the path this run took (mermaid)."
    ),
) -> None:
    """Describe or draw a flow."""
    from vibflow.engine import render

    if fmt not in ("text", "mermaid"):
        raise VibflowError(ErrorCode.BAD_INPUT, f"unknown format '{fmt}'; use text or mermaid")
    if run_id is not None:
        project = _project()
        run_rec = project.runner.get(run_id)
        defn = project.runner.definition_of(run_rec)
        visited = [e.to_state for e in project.journal.entries(run_id) if e.to_state]
        typer.echo(render.mermaid(defn, visited=visited, current=run_rec.state), nl=False)
        return
    defn = _catalog().load(name).definition
    typer.echo(render.mermaid(defn) if fmt == "mermaid" else render.text(defn), nl=False)


@flows_app.command("validate")
@handled
def flows_validate(
    path: Path = typer.Argument(..., metavar="PATH"), as_json: bool = JSON_OPT
) -> None:
    """Check a flow file; list every problem with file:line:col."""
    from vibflow.engine.loader import problems_of

    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise VibflowError(ErrorCode.BAD_INPUT, f"cannot read {path.name}") from exc
    except UnicodeDecodeError as exc:
        raise VibflowError(ErrorCode.YAML_SYNTAX, f"{path.name} is not UTF-8 text") from exc
    from vibflow.wiring import build_registry

    problems = problems_of(text, str(path), build_registry(STATE.registry_hook))
    if as_json:
        typer.echo(
            output.dumps(
                {
                    "ok": not problems,
                    "problems": [
                        {"location": str(p.location), "message": p.message} for p in problems
                    ],
                },
            )
        )
    elif problems:
        for p in problems:
            typer.echo(str(p), err=True)
    else:
        typer.echo(f"{path}: ok")
    if problems:
        raise typer.Exit(int(Outcome.BAD_INPUT))


@flows_app.command("schema")
@handled
def flows_schema() -> None:
    """Print the JSON Schema of the flow YAML dialect (for editors)."""
    from vibflow.engine.definition import flow_json_schema

    typer.echo(json.dumps(flow_json_schema(), indent=2))


# -- audit ------------------------------------------------------------------------


@audit_app.command("verify")
@handled
def audit_verify(
    as_json: bool = JSON_OPT,
    quarantine: bool = typer.Option(
        False,
        "--quarantine",
        help="Copy a redacted record of corrupt rows to .vibflow/recovery/audit_quarantine.jsonl.",
    ),
) -> None:
    """Check the audit log's sequence numbers and hash chain."""
    project = _project()
    target = project.state_dir / "recovery" / "audit_quarantine.jsonl" if quarantine else None
    report = project.audit.verify(quarantine=target)
    if as_json:
        typer.echo(output.dumps(report.to_json()))
    elif report.ok:
        typer.echo(f"audit ok: {report.rows} rows, sequence and hash chain intact")
    else:
        typer.echo(f"audit BROKEN at sequence {report.first_bad_sequence}: {report.problem}")
        if len(report.problems) > 1:
            typer.echo(f"  ({len(report.problems) - 1} more problem(s))")
    if not report.ok:
        raise typer.Exit(int(Outcome.FAILURE))


@app.command()
@handled
def demo(
    directory: Path | None = typer.Option(
        None, "--dir", help="Build the scratch project here (must be new or empty)."
    ),
    as_json: bool = JSON_OPT,
) -> None:
    """A scratch repo with a simulated AI drift, stepped through the recover flow."""
    from vibflow import demo as demo_mod

    result = demo_mod.build(directory, STATE.registry_hook)
    if as_json:
        typer.echo(
            output.dumps(
                {
                    "project": str(result.root),
                    "run_id": result.run.run_id,
                    "checkpoint_id": result.checkpoint_id,
                    "plan": result.plan,
                },
            )
        )
        return
    typer.echo(demo_mod.render(result), nl=False)


def run_cli(argv: list[str], registry_hook: Callable[..., None] | None = None) -> int:
    """Entry point; returns the exit status instead of exiting."""
    import vibflow.cli.checkpoint_cmd
    import vibflow.cli.memory_cmd
    import vibflow.cli.recover_cmd  # noqa: F401 - registers `recover`

    STATE.registry_hook = registry_hook
    try:
        app(args=argv, prog_name="vibflow", standalone_mode=True)
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    return 0
