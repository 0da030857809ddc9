"""``vibflow memory ...`` and ``vibflow hooks ...``: wiring to the memory service."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import typer

from vibflow.cli.context import JSON_OPT, project_for
from vibflow.cli.output import emit_json
from vibflow.engine.errors import ErrorCode, VibflowError

if TYPE_CHECKING:
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
OVERWRITE_OPT = typer.Option(
    False, "--overwrite", help="Replace a value another writer set moments ago."
)


def _confirm(yes: bool, question: str) -> bool:
    if yes:
        return True
    if sys.stdin.isatty():
        return typer.confirm(question, default=False)
    return False


def _done(result: WriteResult, what: str, as_json: bool = False) -> None:
    if result.warning:
        typer.echo(f"warning: {result.warning}", err=True)
    hits = sum(result.redaction.values()) if result.redaction else 0
    if as_json:
        emit_json({"ok": True, "changed": what, "redaction": dict(result.redaction)})
        return
    note = f" ({hits} sensitive value(s) redacted before saving)" if hits else ""
    typer.echo(f"{what}{note}")


@memory_app.command("show")
def memory_show(ctx: typer.Context, as_json: bool = JSON_OPT) -> None:
    """The project's memory, with what is stale and why."""
    view = project_for(ctx).memory.read()
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

    typer.echo(memory_render.render(view), nl=False)


@memory_app.command("intent")
def memory_intent(
    ctx: typer.Context, text: str, yes: bool = YES_OPT, overwrite: bool = OVERWRITE_OPT
) -> None:
    """Set what you are working on now (marks earlier verification stale)."""
    ok = _confirm(yes, f"Set the active intent to: {text!r}?")
    _done(
        project_for(ctx).memory.set_intent(text, confirmed=ok, overwrite=overwrite),
        "active intent updated; earlier verification is now marked stale",
    )


@memory_app.command("decide")
def memory_decide(ctx: typer.Context, text: str, yes: bool = YES_OPT) -> None:
    """Record a decision (explicit decisions only)."""
    ok = _confirm(yes, f"Record the decision: {text!r}?")
    _done(project_for(ctx).memory.decide(text, confirmed=ok), "decision recorded")


@memory_app.command("relevant")
def memory_relevant(
    ctx: typer.Context, path: str, why: str, yes: bool = YES_OPT, overwrite: bool = OVERWRITE_OPT
) -> None:
    """Mark PATH as explicitly relevant, and say WHY (never reported as drift)."""
    ok = _confirm(yes, f"Mark {path} as relevant?")
    _done(
        project_for(ctx).memory.relevant(path, why, confirmed=ok, overwrite=overwrite),
        "relevant file recorded",
    )


@memory_app.command("next")
def memory_next(
    ctx: typer.Context, text: str, yes: bool = YES_OPT, overwrite: bool = OVERWRITE_OPT
) -> None:
    """Set the next action for whoever picks this up."""
    ok = _confirm(yes, f"Set the next action to: {text!r}?")
    _done(
        project_for(ctx).memory.set_next(text, confirmed=ok, overwrite=overwrite),
        "next action updated",
    )


@memory_app.command("verify")
def memory_verify(
    ctx: typer.Context,
    command: str,
    result: str = typer.Option(..., "--result", help="pass or fail"),
    files: list[str] | None = typer.Option(None, "--files", help="Files this check covers."),
) -> None:
    """Record that COMMAND was run, its result, and the files it covers."""
    checked = next((r for r in _RESULTS if r == result), None)
    if checked is None:
        raise VibflowError(ErrorCode.BAD_INPUT, "--result must be pass or fail")
    svc = project_for(ctx).memory
    _done(
        svc.verify(command, checked, files=files or []),
        "verification recorded"
        + ("" if files else " (no --files given: it will show as scope unknown)"),
    )


@memory_app.command("risk")
def memory_risk(
    ctx: typer.Context,
    text: str,
    kind: str = typer.Option(
        "warning", "--kind", help="warning, skipped_check, assumption or redaction_note"
    ),
) -> None:
    """Record an unresolved risk, skipped check or assumption."""
    checked = next((k for k in _RISK_KINDS if k == kind), None)
    if checked is None:
        raise VibflowError(ErrorCode.BAD_INPUT, f"unknown risk kind '{kind}'")
    _done(project_for(ctx).memory.risk(text, kind=checked), "risk recorded")


@memory_app.command("import")
def memory_import(ctx: typer.Context, path: Path, yes: bool = YES_OPT) -> None:
    """Import a legacy VibeLign work_memory.json (spec Appendix A)."""
    from vibflow.steps.memory.reading import read_legacy

    raw = read_legacy(path)
    ok = _confirm(yes, f"Import {path.name} into this project's memory?")
    _done(project_for(ctx).memory.import_legacy(raw, confirmed=ok), f"imported {path.name}")


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


@hooks_app.command("install")
def hooks_install(ctx: typer.Context) -> None:
    """Add the post-commit hook that records commits as observed context."""
    from vibflow.steps.hooks.post_commit import install

    change = install(project_for(ctx).root)
    if not change.installed:
        typer.echo("the vibflow post-commit hook is already installed")
    elif change.chained:
        typer.echo("installed; your existing post-commit hook still runs first")
    else:
        typer.echo("installed the post-commit hook")


@hooks_app.command("uninstall")
def hooks_uninstall(ctx: typer.Context) -> None:
    """Remove vibflow's post-commit hook (and restore a chained one)."""
    from vibflow.steps.hooks.post_commit import uninstall

    change = uninstall(project_for(ctx).root)
    typer.echo(
        "removed the vibflow post-commit hook"
        if change.installed
        else "no vibflow post-commit hook was installed"
    )
