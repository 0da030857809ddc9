"""The body of ``vibflow recover [--explain | --preview] [--all] [--json]``.

Read-only: it asks the recovery advisor for a plan, records the preview (for
``--preview``), writes the count-only audit row and prints the plan. It is
typer-free because two front doors run it (``invocation`` says why): typer's
``recover`` callback and the fast path. Both hand it an
:class:`~vibflow.cli.invocation.Invocation`, so the output is the same bytes.
"""

from __future__ import annotations

from vibflow.cli.invocation import Invocation
from vibflow.engine.errors import ErrorCode, VibflowError


def run_recover(
    inv: Invocation, *, explain: bool, preview: bool, show_all: bool, as_json: bool
) -> None:
    """Explain (default) or preview recovery; never modifies a file."""
    if explain and preview:
        raise VibflowError(ErrorCode.BAD_INPUT, "choose one of --explain and --preview")
    from vibflow.steps.recovery.interrupted import interrupted_restores

    project = inv.open_project(early_listing=True)
    advisor = project.recovery
    advice = advisor.advise()
    if preview:
        advisor.record_preview(advice)
    from vibflow.cli import recover_render

    render = recover_render.preview if preview else recover_render.explain
    text = None if as_json else render(advice.payload, show_all)
    project.audit.append(
        "recovery_preview" if preview else "recovery_explain",
        result="ok",
        **advice.audit_facts(),
        **_stale_facts(advice.plan.intent, advice.plan.intent_stale, text),
    )
    # A restore a crash left half-done comes first: resuming it is the way on.
    stopped = interrupted_restores(project.journal, lambda: project.recovery_services.jobs)
    if as_json or text is None:
        inv.emit_json({**advice.payload, "interrupted_restores": stopped})
        return
    for run in stopped:
        inv.echo(
            f"An interrupted restore exists: run {run['run_id']} ({run['flow']}) stopped "
            f"part-way through {run['files_total']} file(s). Resume it with "
            f"`{run['resume_command']}` (files edited since are asked about again).\n"
        )
    inv.echo(text, nl=False)
    from vibflow.cli.nudges import print_nudges

    print_nudges(project, "recover", inv.echo)


def _stale_facts(intent: str | None, stale: bool, text: str | None) -> dict[str, bool]:
    """For a text that showed the intent: whether it was stale, and whether the
    text said so — read back from what the user gets (the stale-intent P0 count)."""
    if not intent or text is None:
        return {}
    line = next((ln for ln in text.splitlines() if ln.startswith("Your intent:")), None)
    if line is None:
        return {}
    return {"intent_stale": stale, "stale_labelled": "[STALE]" in line}
