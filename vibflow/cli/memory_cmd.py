"""``vibflow memory ...`` and ``vibflow hooks ...``: wiring to the memory service."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import typer

from vibflow.cli.context import JSON_OPT, paths_here, project_for
from vibflow.cli.output import emit_json
from vibflow.engine.errors import ErrorCode, VibflowError

if TYPE_CHECKING:
    from pydantic import BaseModel

    from vibflow.steps.hooks.post_commit import HookChange
    from vibflow.steps.memory.models import MemoryState
    from vibflow.steps.memory.service import WriteResult

memory_app = typer.Typer(help="Show and edit the project's memory.", no_args_is_help=True)
hooks_app = typer.Typer(help="Install or remove vibflow's git hooks.", no_args_is_help=True)

# The values the memory service accepts (it types them as these literals).
_RESULTS: tuple[Literal["pass", "fail"], ...] = ("pass", "fail")
_RISK_KINDS: tuple[Literal["warning", "skipped_check", "assumption", "redaction_note"], ...] = (
    "warning",
    "skipped_check",
    "assumption",
    "redaction_note",
)

YES_OPT = typer.Option(False, "--yes", "-y", help="Confirm the change without a prompt.")
WRITER_OPT = typer.Option(
    "cli",
    "--writer",
    metavar="ID",
    help="Who writes: `cli` (default), `agent.NAME` or `mcp.NAME` — a change by another "
    "writer within the conflict window is refused, not overwritten.",
)
OVERWRITE_OPT = typer.Option(
    False, "--overwrite", help="Replace a value another writer set moments ago."
)


def _writer(value: str) -> str:
    """``value`` if it names a writer memory records (``hook`` and ``import`` are
    vibflow's own capture, not a person or an agent speaking)."""
    import re

    if value == "cli" or re.fullmatch(r"(agent\.[a-z0-9_-]{1,40}|mcp\.[a-z_]{1,40})", value):
        return value
    raise VibflowError(
        ErrorCode.BAD_INPUT,
        f"--writer is `cli`, `agent.NAME` or `mcp.NAME` (lowercase), not {value[:60]!r}",
    )


def _confirm(yes: bool, question: str, *texts: str) -> bool:
    """Whether the user confirms; never asks about blank text, which the memory service
    refuses whatever the answer."""
    if yes:
        return True
    if sys.stdin.isatty() and all(t.strip() for t in texts):
        return typer.confirm(question, default=False)
    return False


def _done(
    result: WriteResult,
    what: str,
    as_json: bool,
    *,
    field: str,
    entry: Callable[[MemoryState], BaseModel | None] = lambda _state: None,
    **extra: Any,
) -> None:
    """Say what changed: one line (warnings on stderr), or the write's JSON object."""
    warnings = [w for w in (result.warning, *result.notices) if w]
    if as_json:
        written = entry(result.state)
        emit_json(
            {
                "ok": True,
                "field": field,
                "message": what,
                "entry": written.model_dump(mode="json") if written is not None else None,
                **extra,
                "redaction": dict(result.redaction),
                "warnings": warnings,
            }
        )
        return
    for warning in warnings:
        typer.echo(f"warning: {warning}", err=True)
    hits = sum(result.redaction.values()) if result.redaction else 0
    note = f" ({hits} sensitive value(s) redacted before saving)" if hits else ""
    typer.echo(f"{what}{note}")


@memory_app.command("show")
def memory_show(ctx: typer.Context, as_json: bool = JSON_OPT) -> None:
    """The project's memory, with what is stale and why."""
    project = project_for(ctx)
    view = project.memory.read()
    if view.warning:
        typer.echo(f"warning: {view.warning}", err=True)
    if as_json:
        data = view.state.model_dump(mode="json")
        data["freshness"] = view.freshness.to_json()
        data["read_only"] = view.read_only
        data["warning"] = view.warning
        emit_json(data)
        return
    from vibflow.cli import memory_render
    from vibflow.cli.nudges import print_nudges

    typer.echo(memory_render.render(view), nl=False)
    print_nudges(project, "memory_show", typer.echo)


@memory_app.command("review")
def memory_review(ctx: typer.Context, as_json: bool = JSON_OPT) -> None:
    """Walk what memory proposes, one by one: accept, edit, dismiss or snooze.

    At a terminal each proposal is asked in turn; otherwise (and with --json)
    the run waits on the first one and prints the `vibflow step RUN ...`
    commands that answer it.
    """
    from vibflow.cli.run_cmd import start

    start(ctx, "memory_review", as_json)


@memory_app.command("intent")
def memory_intent(
    ctx: typer.Context,
    text: str = typer.Argument(..., metavar="TEXT", help="What you are working on, in words."),
    yes: bool = YES_OPT,
    overwrite: bool = OVERWRITE_OPT,
    writer: str = WRITER_OPT,
    as_json: bool = JSON_OPT,
) -> None:
    """Set what you are working on now (marks earlier verification stale)."""
    ok = _confirm(yes, f"Set the active intent to: {text!r}?", text)
    _done(
        project_for(ctx).memory.set_intent(
            text, writer=_writer(writer), confirmed=ok, overwrite=overwrite
        ),
        "active intent updated; earlier verification is now marked stale",
        as_json,
        field="active_intent",
        entry=lambda state: state.active_intent,
    )


@memory_app.command("decide")
def memory_decide(
    ctx: typer.Context,
    text: str = typer.Argument(..., metavar="TEXT", help="The decision, in words."),
    replaces: str | None = typer.Option(
        None,
        "--replaces",
        metavar="DECISION",
        help="The id of a decision this one replaces (it is archived, not deleted).",
    ),
    yes: bool = YES_OPT,
    writer: str = WRITER_OPT,
    as_json: bool = JSON_OPT,
) -> None:
    """Record a decision (explicit decisions only)."""
    ok = _confirm(yes, f"Record the decision: {text!r}?", text)
    _done(
        project_for(ctx).memory.decide(
            text, writer=_writer(writer), confirmed=ok, replaces=replaces
        ),
        "decision recorded",
        as_json,
        field="decisions",
        entry=lambda state: state.decisions[-1],
    )


@memory_app.command("relevant")
def memory_relevant(
    ctx: typer.Context,
    path: str = typer.Argument(
        ..., metavar="PATH", help="A file in this project, relative to where you are."
    ),
    why: str | None = typer.Argument(
        None, metavar="WHY", help="Why it matters to your intent (not with --remove)."
    ),
    remove: bool = typer.Option(
        False, "--remove", help="Take PATH off the relevant files instead."
    ),
    yes: bool = YES_OPT,
    overwrite: bool = OVERWRITE_OPT,
    writer: str = WRITER_OPT,
    as_json: bool = JSON_OPT,
) -> None:
    """Mark PATH as explicitly relevant, and say WHY (never reported as drift); or
    take it off the list with --remove. PATH is relative to where you run this."""
    project = project_for(ctx)
    memory = project.memory
    (path,) = paths_here(ctx, project.root, [path])
    if remove:
        if why is not None:
            raise VibflowError(
                ErrorCode.BAD_INPUT,
                "--remove takes only the PATH to take off the list, not a reason",
                hint=f"Run `vibflow memory relevant --remove {path}`.",
            )
        ok = _confirm(yes, f"Remove {path} from the relevant files?")
        result = memory.forget_relevant(path, writer=_writer(writer), confirmed=ok)
        _done(
            result,
            f"{result.path} is no longer a relevant file",
            as_json,
            field="relevant_files",
            removed=result.path,
        )
        return
    if why is None:
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"say why {path} is relevant",
            hint=f'Run `vibflow memory relevant {path} "WHY" --yes`.',
        )
    ok = _confirm(yes, f"Mark {path} as relevant?", why)
    result = memory.relevant(path, why, writer=_writer(writer), confirmed=ok, overwrite=overwrite)
    _done(
        result,
        f"relevant file recorded: {result.path}",
        as_json,
        field="relevant_files",
        entry=lambda state: state.relevant_files[-1],
    )


@memory_app.command("next")
def memory_next(
    ctx: typer.Context,
    text: str = typer.Argument(..., metavar="TEXT", help="The next action, in words."),
    yes: bool = YES_OPT,
    overwrite: bool = OVERWRITE_OPT,
    writer: str = WRITER_OPT,
    as_json: bool = JSON_OPT,
) -> None:
    """Set the next action for whoever picks this up."""
    ok = _confirm(yes, f"Set the next action to: {text!r}?", text)
    _done(
        project_for(ctx).memory.set_next(
            text, writer=_writer(writer), confirmed=ok, overwrite=overwrite
        ),
        "next action updated",
        as_json,
        field="next_action",
        entry=lambda state: state.next_action,
    )


@memory_app.command("verify")
def memory_verify(
    ctx: typer.Context,
    command: str = typer.Argument(..., metavar="COMMAND", help="The check you ran."),
    result: str = typer.Option(..., "--result", metavar="pass|fail", help="How it went."),
    files: list[str] | None = typer.Option(
        None,
        "--files",
        metavar="PATH",
        help="A file this check covers; repeat for more (--files a.py --files b.py).",
    ),
    writer: str = WRITER_OPT,
    as_json: bool = JSON_OPT,
) -> None:
    """Record that COMMAND was run, its result, and the files it covers (each
    relative to where you run this)."""
    checked = next((r for r in _RESULTS if r == result), None)
    if checked is None:
        raise VibflowError(ErrorCode.BAD_INPUT, "--result must be pass or fail")
    project = project_for(ctx)
    _done(
        project.memory.verify(
            command,
            checked,
            files=paths_here(ctx, project.root, files or []),
            writer=_writer(writer),
        ),
        "verification recorded"
        + ("" if files else " (no --files given: it will show as scope unknown)"),
        as_json,
        field="verification",
        entry=lambda state: state.verification[-1],
    )


@memory_app.command("risk")
def memory_risk(
    ctx: typer.Context,
    text: str = typer.Argument(..., metavar="TEXT", help="The risk, in words."),
    kind: str = typer.Option(
        "warning",
        "--kind",
        metavar="KIND",
        help="warning, skipped_check, assumption or redaction_note.",
    ),
    writer: str = WRITER_OPT,
    as_json: bool = JSON_OPT,
) -> None:
    """Record an unresolved risk, skipped check or assumption."""
    checked = next((k for k in _RISK_KINDS if k == kind), None)
    if checked is None:
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"unknown risk kind '{kind}'; use one of {', '.join(_RISK_KINDS)}",
        )
    _done(
        project_for(ctx).memory.risk(text, kind=checked, writer=_writer(writer)),
        "risk recorded",
        as_json,
        field="risks",
        entry=lambda state: state.risks[-1],
    )


@memory_app.command("import")
def memory_import(
    ctx: typer.Context,
    path: Path = typer.Argument(..., metavar="FILE", help="The work_memory.json to import."),
    yes: bool = YES_OPT,
    as_json: bool = JSON_OPT,
) -> None:
    """Import a memory file from VibeLign (its work_memory.json)."""
    from vibflow.steps.memory.reading import read_legacy

    raw = read_legacy(path)
    ok = _confirm(yes, f"Import {path.name} into this project's memory?")
    _done(
        project_for(ctx).memory.import_legacy(raw, confirmed=ok),
        f"imported {path.name}",
        as_json,
        field="import",
    )


@memory_app.command("schema")
def memory_schema() -> None:
    """Print the JSON Schema of .vibflow/memory.json."""
    from vibflow.steps.memory.models import memory_json_schema

    # A document for editors, not a --json answer: always indented, always ASCII.
    typer.echo(json.dumps(memory_json_schema(), indent=2))


@memory_app.command("observe-commit", hidden=True)
def memory_observe_commit(ctx: typer.Context) -> None:
    """Record HEAD as observed context (run by the post-commit hook)."""
    project = project_for(ctx)
    head = project.memory.facts.head()
    if head:
        project.memory.observe("commit", {"sha": head}, writer="hook")


def _hook_done(change: HookChange, message: str, as_json: bool) -> None:
    if as_json:
        emit_json(
            {
                "ok": True,
                "hook": "post-commit",
                "changed": change.installed,
                "chained": change.chained,
                "path": change.path_display,
                "message": message,
            }
        )
        return
    typer.echo(message)


@hooks_app.command("install")
def hooks_install(ctx: typer.Context, as_json: bool = JSON_OPT) -> None:
    """Add the post-commit hook that records commits as observed context."""
    from vibflow.steps.hooks.post_commit import install

    change = install(project_for(ctx).root)
    if not change.installed:
        message = "the vibflow post-commit hook is already installed"
    elif change.chained:
        message = "installed; your existing post-commit hook still runs first"
    else:
        message = "installed the post-commit hook"
    _hook_done(change, message, as_json)


@hooks_app.command("uninstall")
def hooks_uninstall(ctx: typer.Context, as_json: bool = JSON_OPT) -> None:
    """Remove vibflow's post-commit hook (and restore a chained one)."""
    from vibflow.steps.hooks.post_commit import uninstall

    change = uninstall(project_for(ctx).root)
    message = (
        "removed the vibflow post-commit hook"
        if change.installed
        else "no vibflow post-commit hook was installed"
    )
    _hook_done(change, message, as_json)
