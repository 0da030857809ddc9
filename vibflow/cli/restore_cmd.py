"""``vibflow checkpoint restore`` and ``vibflow undo``: runs of the ``restore`` and
``undo`` flows.

Both go the recover flow's guarded way (preview, safety checkpoint,
confirmation, lock, apply); the commands only check their arguments, start
the run, say what it would write and delete, and — with ``--confirm TEXT`` —
send the confirmation at once. Without it, the run waits at ``confirm`` (asked
on a terminal, or continued with the ``vibflow step`` command it prints).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import typer

from vibflow.cli.context import JSON_OPT, paths_to_restore, project_for
from vibflow.cli.run_cmd import finish_run
from vibflow.cli.visible_text import one_line

if TYPE_CHECKING:
    from vibflow.engine.journal import RunRecord
    from vibflow.wiring import Project

SHOWN = 10  # paths per list in the text preview

CONFIRM_OPT = typer.Option(
    None,
    "--confirm",
    metavar="TEXT",
    help="The confirmation text (APPLY and the checkpoint id the preview shows), "
    "to restore without being asked.",
)


def checkpoint_restore(
    ctx: typer.Context,
    checkpoint_id: str = typer.Argument(
        ..., metavar="CKPT", help="The checkpoint to restore from."
    ),
    paths: list[str] | None = typer.Argument(
        None,
        metavar="PATH",
        help="Files or folders to restore, relative to where you are (default: every file "
        "that differs). A file the checkpoint does not hold is deleted — it is listed "
        "before you confirm.",
    ),
    confirm: str | None = CONFIRM_OPT,
    as_json: bool = JSON_OPT,
) -> None:
    """Restore files from checkpoint CKPT, after a preview and a safety checkpoint."""
    from vibflow.steps.recovery.restore_steps import checkpoint_source, named_paths

    project = project_for(ctx)
    services = project.recovery_services
    meta = checkpoint_source(services, checkpoint_id)  # bad input before a run
    paths = paths_to_restore(ctx, project.root, list(paths or []))
    if paths:
        named_paths(services, meta, paths)
    inputs: dict[str, Any] = {"checkpoint": checkpoint_id, "paths": paths}
    run_restore_flow(project, "restore", inputs, confirm, as_json)


def undo(
    ctx: typer.Context,
    run_id: str | None = typer.Argument(
        None, metavar="RUN", help="The restore run to undo (default: the latest one)."
    ),
    confirm: str | None = CONFIRM_OPT,
    as_json: bool = JSON_OPT,
) -> None:
    """Undo a finished restore: put back the files it changed, as they were before it.

    The undo is a restore too (its own safety checkpoint, confirmation and lock),
    so `vibflow undo` again undoes the undo.
    """
    from vibflow.steps.recovery.restore_steps import undo_point, undo_target

    project = project_for(ctx)
    services = project.recovery_services
    target = undo_target(services.jobs, run_id)  # bad input before a run
    undo_point(services, target)
    run_restore_flow(project, "undo", {"run": target.run_id}, confirm, as_json)


def run_restore_flow(
    project: Project, flow: str, inputs: Mapping[str, Any], confirm: str | None, as_json: bool
) -> None:
    """Start ``flow`` (restore, undo or rewind), show its preview, confirm when told."""
    runner = project.runner
    result: RunRecord = runner.start(project.catalog.load(flow), inputs)
    if not as_json:
        for line in preview_lines(_public(result)):
            typer.echo(line)
    if confirm is not None and (result.status, result.state) == ("waiting", "confirm"):
        result = runner.send(result.run_id, "confirm", {"confirmation": confirm})
    finish_run(project, result, as_json)


def _public(run: RunRecord) -> Mapping[str, Any]:
    public = run.context.get("public")
    return public if isinstance(public, dict) else {}


def preview_lines(public: Mapping[str, Any]) -> list[str]:
    """What the restore would write and delete (the first few of each)."""
    shown = public.get("restore")
    if not isinstance(shown, dict):
        return []
    out = [f"{shown.get('label', 'restore')}:"]
    mine = _yours(shown) + _left_out(shown)
    if shown.get("nothing"):
        return [*out, f"  {shown['nothing']}", *mine]
    for key, verb in (("writes", "write"), ("deletes", "delete")):
        names = shown.get(key) or []
        total = int(shown.get(f"{key}_total") or 0)
        out.append(f"  would {verb} {total} file(s)" + (":" if names else ""))
        out += [f"    {one_line(name)}" for name in names[:SHOWN]]
        if total > min(len(names), SHOWN):
            out.append(f"    … and {total - min(len(names), SHOWN)} more (--json lists more)")
    return out + mine


def _left_out(shown: Mapping[str, Any]) -> list[str]:
    """Files that differ but whose names no restore can write: left as they are."""
    items = shown.get("left_out") or []
    total = int(shown.get("left_out_total") or 0)
    if not total:
        return []
    out = [f"  left as they are: {total} file(s) whose names vibflow cannot restore:"]
    out += [f"    {one_line(i['path'])}  {one_line(i['why'])}" for i in items[:SHOWN]]
    if total > min(len(items), SHOWN):
        out.append(f"    … and {total - min(len(items), SHOWN)} more (--json lists more)")
    return out


def _yours(shown: Mapping[str, Any]) -> list[str]:
    """A rewind's files the user edited after the turn: left alone, or overwritten."""
    out: list[str] = []
    for key, text in (
        (
            "yours_kept",
            "left as they are — you changed them after the turn (name them as PATH, or "
            "add --include-mine, to restore them too)",
        ),
        ("yours_overwritten", "YOUR OWN EDITS after the turn that this overwrites"),
    ):
        names = shown.get(key) or []
        total = int(shown.get(f"{key}_total") or 0)
        if total:
            out.append(f"  {total} file(s) {text}:")
            out += [f"    {one_line(name)}" for name in names[:SHOWN]]
            if total > min(len(names), SHOWN):
                out.append(f"    … and {total - min(len(names), SHOWN)} more (--json lists more)")
    return out
