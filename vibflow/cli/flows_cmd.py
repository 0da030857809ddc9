"""``vibflow flows ...``: list, draw, validate flow definitions and print their schema.

These work outside a project too (only the shipped flows are listed then).
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from vibflow.cli import output
from vibflow.cli.context import JSON_OPT, catalog_for, project_for, registry_for, run_bare
from vibflow.engine.errors import ErrorCode, Outcome, VibflowError

app = typer.Typer(
    help="List, draw and validate flow definitions. Alone, `vibflow flows` lists them "
    "(as `vibflow flows list`).",
    invoke_without_command=True,
)


@app.callback()
def _bare(ctx: typer.Context) -> None:
    # `vibflow flows` alone: the list (context.run_bare).
    run_bare(ctx, "list")


@app.command("list")
def flows_list(ctx: typer.Context, as_json: bool = JSON_OPT) -> None:
    """The flows you can run here (shipped and this project's own)."""
    output.flows_table(catalog_for(ctx).entries(), as_json)


@app.command("show")
def flows_show(
    ctx: typer.Context,
    name: str = typer.Argument(..., metavar="NAME", help="A flow (see `vibflow flows list`)."),
    fmt: str = typer.Option("text", "--format", metavar="text|mermaid", help="How to draw it."),
    run_id: str | None = typer.Option(
        None, "--run", metavar="RUN", help="Mark the path this run took (draws mermaid)."
    ),
    as_json: bool = JSON_OPT,
) -> None:
    """Describe or draw a flow."""
    from vibflow.engine import render

    if fmt not in ("text", "mermaid"):
        raise VibflowError(ErrorCode.BAD_INPUT, f"unknown format '{fmt}'; use text or mermaid")
    if run_id is not None:
        project = project_for(ctx)
        run_rec = project.runner.get(run_id)
        if run_rec.flow != name:
            raise VibflowError(
                ErrorCode.BAD_INPUT,
                f"run {run_rec.run_id} is a run of flow '{run_rec.flow}', not '{name}'",
                hint=f"Run `vibflow flows show {run_rec.flow} --run {run_rec.run_id}`.",
            )
        defn = project.runner.definition_of(run_rec)
        visited = [e.to_state for e in project.journal.entries(run_id) if e.to_state]
        drawn = render.mermaid(defn, visited=visited, current=run_rec.state)
        run_part = {
            "run_id": run_rec.run_id,
            "status": run_rec.status,
            "state": run_rec.state,
            "visited": visited,
        }
        origin, file, fmt = run_rec.origin, None, "mermaid"
    else:
        loaded = catalog_for(ctx).load(name)
        defn = loaded.definition
        drawn = render.mermaid(defn) if fmt == "mermaid" else render.text(defn)
        run_part, origin, file = None, loaded.origin, loaded.display
    if not as_json:
        typer.echo(drawn, nl=False)
        return
    output.emit_json(
        {
            "flow": defn.flow,
            "version": defn.version,
            "origin": origin,
            "file": file,
            "definition": defn.model_dump(mode="json", exclude_defaults=True),
            "format": fmt,
            "rendered": drawn,
            "run": run_part,
        }
    )


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
