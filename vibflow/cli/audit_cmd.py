"""``vibflow audit ...``: check the count-only audit log."""

from __future__ import annotations

import typer

from vibflow.cli import output
from vibflow.cli.context import JSON_OPT, project_for
from vibflow.engine.errors import Outcome

app = typer.Typer(help="Check the count-only audit log.", no_args_is_help=True)


@app.command("verify")
def audit_verify(
    ctx: typer.Context,
    as_json: bool = JSON_OPT,
    quarantine: bool = typer.Option(
        False,
        "--quarantine",
        help="Copy a redacted record of corrupt rows to .vibflow/recovery/audit_quarantine.jsonl.",
    ),
) -> None:
    """Check the audit log's sequence numbers and hash chain."""
    project = project_for(ctx)
    target = project.state_dir / "recovery" / "audit_quarantine.jsonl" if quarantine else None
    report = project.audit.verify(quarantine=target)
    if as_json:
        output.emit_json(report.to_json())
    elif report.ok:
        anchored = (
            f", ending at sequence {report.anchored_sequence} as the journal recorded"
            if report.anchored_sequence is not None
            else ""
        )
        typer.echo(f"audit ok: {report.rows} rows, sequence and hash chain intact{anchored}")
    else:
        typer.echo(f"audit BROKEN at sequence {report.first_bad_sequence}: {report.problem}")
        for problem in report.problems[1:]:
            typer.echo(f"  also: {problem}")
    if not report.ok:
        raise typer.Exit(int(Outcome.FAILURE))
