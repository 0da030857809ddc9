"""``vibflow recap``: the project's recap (stored, with an id), a run's or any
recap by id, the list of recaps, editing one, and the recap's JSON Schema.

``vibflow recap`` writes and shows the project recap; ``vibflow recap RUN`` or
``vibflow recap rcp_…`` shows that one (``show`` is implied); ``list``,
``show ID``, ``edit ID`` and ``schema`` are subcommands. Every recap shown
has passed the redaction contract.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from typer.core import TyperGroup

from vibflow.cli import output
from vibflow.cli.context import JSON_OPT, project_for
from vibflow.engine.errors import ErrorCode, VibflowError

if TYPE_CHECKING:
    from vibflow.wiring import Project


class _RecapGroup(TyperGroup):
    """``recap RUN`` and ``recap rcp_…`` mean ``recap show …``."""

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        if args and args[0] not in self.commands and not args[0].startswith("-"):
            args = ["show", *args]
        return super().resolve_command(ctx, args)


app = typer.Typer(
    cls=_RecapGroup,
    invoke_without_command=True,
    help="The project's recap (or a run's): what happened and how to pick it up.",
)


def _commands() -> Any:
    from vibflow.cli.read_bodies import run_commands_of

    return run_commands_of


@app.callback()
def recap_project(ctx: typer.Context, as_json: bool = JSON_OPT) -> None:
    """Write and show the project recap: intent, next action, what happened since
    the last recap, what waits (with the command for each), stale checks."""
    if ctx.invoked_subcommand is not None:
        return
    from vibflow.cli import read_bodies
    from vibflow.cli.command_invocation import CommandInvocation

    read_bodies.recap_project(CommandInvocation(ctx), as_json=as_json)


def _find(project: Project, ref: str) -> dict[str, Any]:
    """A recap by id, or the latest recap of a run."""
    if ref.startswith("rcp_"):
        body = project.journal.get_recap(ref)
        if body is None:
            raise VibflowError(
                ErrorCode.RECAP_NOT_FOUND,
                f"there is no recap '{ref}'",
                hint="`vibflow recap list` lists them.",
            )
        return body
    runner = project.runner
    run = runner.refresh(runner.get(ref))
    body = project.journal.get_recap(run.recap_id) if run.recap_id else None
    return body if body is not None else runner.write_recap(run)


@app.command("show")
def recap_show(
    ctx: typer.Context,
    ref: str = typer.Argument(..., metavar="RUN|ID", help="A run, or a recap id (rcp_…)."),
    as_json: bool = JSON_OPT,
) -> None:
    """Show a run's latest recap, or any recap by its id."""
    from vibflow import recap_wiring

    project = project_for(ctx)
    output.recap(recap_wiring.show(project, _find(project, ref)), as_json)


@app.command("list")
def recap_list(
    ctx: typer.Context,
    kind: str | None = typer.Option(
        None, "--kind", metavar="KIND", help="Only `project`, `run` or `session` recaps."
    ),
    limit: int = typer.Option(20, "--limit", metavar="N", help="At most N (newest first)."),
    as_json: bool = JSON_OPT,
) -> None:
    """The stored recaps, newest first."""
    from vibflow import recap_wiring

    if kind not in (None, "project", "run", "session"):
        raise VibflowError(ErrorCode.BAD_INPUT, "--kind is project, run or session")
    if not 1 <= limit <= 1000:
        raise VibflowError(ErrorCode.BAD_INPUT, "--limit is 1 to 1000")
    project = project_for(ctx)
    rows = [
        {k: b.get(k) for k in ("id", "kind", "subject_id", "generated_at", "generator", "headline")}
        for b in (
            recap_wiring.show(project, body) for body in project.journal.recaps(kind, limit=limit)
        )
    ]
    if as_json:
        output.emit_json({"recaps": rows})
        return
    if not rows:
        typer.echo("No recaps yet: `vibflow recap` writes the project's.")
    for r in rows:
        mark = " (edited)" if r["generator"] == "user_edited" else ""
        when = str(r["generated_at"])[:16]
        typer.echo(f"{r['id']}  {when}Z  {r['kind']!s:<7} {r['headline']}{mark}")


@app.command("edit")
def recap_edit(
    ctx: typer.Context,
    recap_id: str = typer.Argument(..., metavar="ID", help="The recap to edit (rcp_…)."),
    headline: str | None = typer.Option(
        None, "--headline", metavar="TEXT", help="A new one-line headline (≤ 80 characters)."
    ),
    bullets: list[str] | None = typer.Option(
        None, "--bullet", metavar="TEXT", help="Replace the bullets; repeat, 3 to 7 of them."
    ),
    as_json: bool = JSON_OPT,
) -> None:
    """Edit a recap's headline or bullets; it is kept as `generator: user_edited`.
    Without options, opens it in $EDITOR (headline on the first line, one bullet per
    line after it)."""
    from vibflow import recap_wiring

    project = project_for(ctx)
    if not recap_id.startswith("rcp_"):
        raise VibflowError(ErrorCode.BAD_INPUT, "give a recap id (rcp_…): `vibflow recap list`")
    body = _find(project, recap_id)
    if headline is None and not bullets:
        edited = _in_editor("\n".join([body["headline"], *body["bullets"]]) + "\n")
        if edited is None:
            typer.echo("Not changed.")
            return
        lines = [line.strip() for line in edited.splitlines() if line.strip()]
        headline, bullets = (lines[0] if lines else ""), lines[1:]
    saved = recap_wiring.edit(project, body, headline=headline, bullets=bullets or None)
    output.recap(saved, as_json)


def _in_editor(text: str) -> str | None:
    """``text`` as edited in $VISUAL / $EDITOR (None: unchanged or not saved)."""
    import os
    import shlex
    import subprocess
    import sys
    import tempfile

    if not sys.stdin.isatty():
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            "no terminal to open an editor in",
            hint="Give the new text with --headline TEXT and --bullet TEXT (3 to 7).",
        )
    editor = shlex.split(os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi")
    with tempfile.TemporaryDirectory(prefix="vibflow-recap-") as folder:
        path = Path(folder) / "recap.txt"
        path.write_text(text, "utf-8")
        try:
            done = subprocess.run([*editor, str(path)], check=False)
        except OSError as exc:
            raise VibflowError(
                ErrorCode.BAD_INPUT, f"the editor {editor[0]!r} could not be started ({exc})"
            ) from None
        edited = path.read_text("utf-8")
    return None if done.returncode != 0 or edited == text else edited


@app.command("schema")
def recap_schema() -> None:
    """Print the JSON Schema every `vibflow recap ... --json` follows."""
    from vibflow.engine.recap import recap_json_schema

    output.emit_json(recap_json_schema())
