"""``vibflow flows ...``: list, draw, validate flow definitions and print their schema.

These work outside a project too (only the shipped flows are listed then).
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from vibflow.cli import output
from vibflow.cli.context import JSON_OPT, catalog_for, project_for, registry_for
from vibflow.engine.errors import ErrorCode, Outcome, VibflowError

app = typer.Typer(help="List, draw and validate flow definitions.", no_args_is_help=True)


@app.command("list")
def flows_list(ctx: typer.Context, as_json: bool = JSON_OPT) -> None:
    """The flows you can run here (shipped and this project's own)."""
    output.flows_table(catalog_for(ctx).entries(), as_json)


@app.command("show")
def flows_show(
    ctx: typer.Context,
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
        project = project_for(ctx)
        run_rec = project.runner.get(run_id)
        defn = project.runner.definition_of(run_rec)
        visited = [e.to_state for e in project.journal.entries(run_id) if e.to_state]
        typer.echo(render.mermaid(defn, visited=visited, current=run_rec.state), nl=False)
        return
    defn = catalog_for(ctx).load(name).definition
    typer.echo(render.mermaid(defn) if fmt == "mermaid" else render.text(defn), nl=False)


@app.command("validate")
def flows_validate(
    ctx: typer.Context,
    path: Path = typer.Argument(..., metavar="PATH"),
    as_json: bool = JSON_OPT,
) -> None:
    """Check a flow file; list every problem with file:line:col."""
    from vibflow.engine.loader import problems_of
    from vibflow.engine.sourcefile import read_source

    text = read_source(path, path.name, code=ErrorCode.BAD_INPUT)
    problems = problems_of(text, str(path), registry_for(ctx))
    if as_json:
        output.emit_json(
            {
                "ok": not problems,
                "problems": [{"location": str(p.location), "message": p.message} for p in problems],
            }
        )
    elif problems:
        for p in problems:
            typer.echo(str(p), err=True)
    else:
        typer.echo(f"{path}: ok")
    if problems:
        raise typer.Exit(int(Outcome.BAD_INPUT))


@app.command("schema")
def flows_schema() -> None:
    """Print the JSON Schema of the flow YAML dialect (for editors)."""
    from vibflow.engine.definition import flow_json_schema

    # A document for editors, not a --json answer: always indented, always ASCII.
    typer.echo(json.dumps(flow_json_schema(), indent=2))
