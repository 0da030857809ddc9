"""``vibflow audit ...``: check, summarize and roll over the count-only audit log."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from vibflow.cli import output
from vibflow.cli.context import JSON_OPT, project_for
from vibflow.engine.errors import Outcome

if TYPE_CHECKING:
    from vibflow.engine.audit_retention import RetainPlan
    from vibflow.engine.audit_summary import P0Summary

app = typer.Typer(help="Check the count-only audit log.", no_args_is_help=True)

_RESULT = {
    "pass": "pass",
    "fail": "FAIL",
    "no_samples": "no samples",
    "needs_review": "NEEDS REVIEW",
}


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
    """Check the audit log's sequence numbers and hash chain, across rollovers."""
    from vibflow import audit_wiring

    project = project_for(ctx)
    target = audit_wiring.quarantine(project).path if quarantine else None
    report = project.audit.verify(quarantine=target)
    if as_json:
        output.emit_json(report.to_json())
    elif report.ok:
        anchored = (
            f", ending at sequence {report.anchored_sequence} as the journal recorded"
            if report.anchored_sequence is not None
            else ""
        )
        rolled = (
            f" (after {report.rolled_over_rows} earlier rows rolled over into "
            f"{report.rollover_summaries} count-only summaries, which the log chains on from)"
            if report.rollover_summaries
            else ""
        )
        typer.echo(
            f"audit ok: {report.rows} rows, sequence and hash chain intact{anchored}{rolled}"
        )
    else:
        typer.echo(f"audit BROKEN at sequence {report.first_bad_sequence}: {report.problem}")
        for problem in report.problems[1:]:
            typer.echo(f"  also: {problem}")
    if not report.ok:
        raise typer.Exit(int(Outcome.FAILURE))


@app.command("summary")
def audit_summary(
    ctx: typer.Context,
    window: int | None = typer.Option(
        None,
        "--window",
        min=1,
        max=3650,
        metavar="DAYS",
        help="Summarize the last DAYS days (default: the policy's active window, 30 days).",
    ),
    as_json: bool = JSON_OPT,
) -> None:
    """Count each safety guarantee's samples and occurrences over a window (exit 1
    on any occurrence, or when the window's log needs review)."""
    from vibflow import audit_wiring

    summary = audit_wiring.summary(project_for(ctx), window)
    if as_json:
        output.emit_json(summary.to_json())
    else:
        typer.echo(_render_summary(summary), nl=False)
    if not summary.ok:
        raise typer.Exit(int(Outcome.FAILURE))


def _render_summary(summary: P0Summary) -> str:
    out = [f"P0 summary {summary.window_start[:16]}Z .. {summary.window_end[:16]}Z"]
    if summary.problems:
        out.append(f"audit log needs review: {summary.problems[0]}")
        out += [f"  also: {p}" for p in summary.problems[1:]]
    width = max(len(s.slo_id) for s in summary.slos)
    for s in summary.slos:
        out.append(
            f"  {s.slo_id:<{width}}  {_RESULT[s.result]:<12}  "
            f"{s.occurrences} occurrence(s) in {s.sample_count} sample(s)"
        )
        if s.result == "no_samples":
            out.append(f"  {'':<{width}}  (samples: {s.samples})")
    counted = f"{summary.rows_counted} rows counted"
    if summary.compacted_rows_counted:
        counted += f", plus rolled-over counts of {summary.compacted_rows_counted} rows"
    if summary.corrupt_rows:
        counted += (
            f"; {summary.corrupt_rows} corrupt row(s) skipped "
            "(recorded in .vibflow/recovery/audit_quarantine.jsonl)"
        )
    out.append(counted)
    return "\n".join(out) + "\n"


@app.command("retain")
def audit_retain(
    ctx: typer.Context,
    dry_run: bool = typer.Option(
        False, "--dry-run", help="Show what would roll over; change nothing."
    ),
    as_json: bool = JSON_OPT,
) -> None:
    """Roll old rows over into count-only summaries (the active window stays)."""
    project = project_for(ctx)
    plan = project.audit_retention.run(dry_run=dry_run)
    if as_json:
        output.emit_json({"dry_run": dry_run, **plan.to_json()})
    else:
        typer.echo(_render_retain(plan, dry_run))


def _render_retain(plan: RetainPlan, dry_run: bool) -> str:
    would = "would roll" if dry_run else "rolled"
    mb = 1024 * 1024
    size = f"{plan.bytes_before / mb:.1f} MB"
    if plan.compact_rows:
        text = (
            f"{would} over {plan.compact_rows} rows (sequence {plan.compact_first_seq}.."
            f"{plan.compact_last_seq}, stamped before {plan.compact_before[:10]}; reason: "
            f"{plan.reason}) into .vibflow/recovery/audit_rollover/; the log "
            f"{'would go' if dry_run else 'went'} from {size} to "
            f"{plan.bytes_after / mb:.1f} MB. The active P0 window from "
            f"{plan.active_window_start[:10]} is kept whole."
        )
    elif plan.leftover_rows:
        text = (
            f"{'would remove' if dry_run else 'removed'} {plan.leftover_rows} rows an "
            "interrupted rollover had already summarized"
        )
    else:
        text = (
            f"nothing to roll over: the log is {size} with no row stamped before "
            f"{plan.compact_before[:10]} (the active P0 window starts "
            f"{plan.active_window_start[:10]})"
        )
    if plan.quarantine_expired:
        text += (
            f"\n{'would drop' if dry_run else 'dropped'} {plan.quarantine_expired} "
            "quarantine record(s) past retention"
        )
    return text
