"""``vibflow checkpoint ...``: wiring to the checkpoint store."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import typer

from vibflow.cli import restore_cmd
from vibflow.cli.context import JSON_OPT, project_for, run_bare
from vibflow.cli.output import emit_json
from vibflow.cli.visible_text import one_line
from vibflow.engine.errors import ErrorCode, VibflowError

if TYPE_CHECKING:
    from vibflow.steps.checkpoints.models import CheckpointMeta

app = typer.Typer(
    help="Snapshots of your working tree. Alone, `vibflow checkpoint` lists them (as "
    "`vibflow checkpoint list`).",
    invoke_without_command=True,
)


@app.callback()
def _bare(ctx: typer.Context) -> None:
    # `vibflow checkpoint` alone: the list (context.run_bare).
    run_bare(ctx, "list")


def _progress() -> Callable[[str], None] | None:
    """Say what a slow checkpoint is doing (on a terminal, after a moment)."""
    started = time.monotonic()
    if not sys.stderr.isatty():
        return None

    def show(what: str) -> None:
        if time.monotonic() - started > 0.3:
            typer.echo(f"checkpoint: {what}…", err=True)

    return show


def _shown(ctx: typer.Context, metas: list[CheckpointMeta]) -> list[dict[str, Any]]:
    """The metadata as shown: message and left-out paths redacted."""
    from vibflow.steps.checkpoints.report import shown_metas

    return shown_metas(metas, project_for(ctx).root)


def _echo_skipped(meta: CheckpointMeta, shown: dict[str, Any]) -> None:
    """One line per file left out: its (redacted) path and why, never its content."""
    for s, safe in zip(meta.skipped, shown["skipped"], strict=True):
        typer.echo(f"  skipped {one_line(safe['path'])}: {s.why}")


@app.command("create")
def checkpoint_create(
    ctx: typer.Context,
    message: str = typer.Option("", "--message", "-m", help="What this checkpoint is for."),
    as_json: bool = JSON_OPT,
) -> None:
    """Snapshot tracked changes and untracked files (ignored files never)."""
    meta = project_for(ctx).checkpoints.create(message, progress=_progress())
    (shown,) = _shown(ctx, [meta])
    if as_json:
        emit_json(shown)
        return
    verb = "nothing changed since" if meta.reused else "created"
    typer.echo(f"{verb} checkpoint {meta.checkpoint_id} ({meta.file_count} files)")
    _echo_skipped(meta, shown)
    if meta.unscanned_count:
        typer.echo(
            f"  {meta.unscanned_count} new untracked file(s) stored without a secret scan "
            "(over recovery.checkpoints.secrets.scan_budget_mb); the next checkpoints scan them"
        )


REASONS = ("manual", "sandwich", "flow_stage", "agent_turn")


@app.command("list")
def checkpoint_list(
    ctx: typer.Context,
    reason: list[str] | None = typer.Option(
        None,
        "--reason",
        metavar="REASON",
        help="Only checkpoints taken for this reason (repeat for several): "
        + ", ".join(REASONS)
        + ".",
    ),
    no_turns: bool = typer.Option(
        False, "--no-turns", help="Leave out the checkpoints taken at agent turns."
    ),
    as_json: bool = JSON_OPT,
) -> None:
    """All checkpoints, oldest first, and the space only they keep alive."""
    from vibflow.steps.checkpoints.report import left_out_summary

    for r in reason or []:
        if r not in REASONS:
            raise VibflowError(
                ErrorCode.BAD_INPUT,
                f"'{r[:40]}' is not a checkpoint reason",
                hint=f"One of: {', '.join(REASONS)}.",
            )
    store = project_for(ctx).checkpoints
    metas = [
        m
        for m in store.all()
        if (not reason or m.reason in reason) and not (no_turns and m.reason == "agent_turn")
    ]
    size = store.size_bytes() if metas else 0
    shown = _shown(ctx, metas)
    if as_json:
        emit_json({"checkpoints": shown, "store_bytes": size})
        return
    if not metas:
        typer.echo('no checkpoints yet — `vibflow checkpoint create -m "before the agent"`')
    for m, data in zip(metas, shown, strict=True):
        left_out = left_out_summary(m.skipped)
        tail = f"  ({left_out})" if left_out else ""
        message = one_line(str(data["message"]))
        typer.echo(f"{m.checkpoint_id}  {m.created_at}  {m.reason:<10} {message}{tail}")
    if metas:
        typer.echo(f"{len(metas)} checkpoint(s); {size / 1024:.0f} KiB kept alive only by them")


@app.command("prune")
def checkpoint_prune(
    ctx: typer.Context,
    dry_run: bool = typer.Option(False, "--dry-run", help="Only say what would be removed."),
    as_json: bool = JSON_OPT,
) -> None:
    """Apply the retention policy now (it also runs after every create)."""
    doomed = project_for(ctx).checkpoints.prune(dry_run=dry_run)
    if as_json:
        emit_json({"pruned": doomed, "dry_run": dry_run})
        return
    verb = "would remove" if dry_run else "removed"
    typer.echo(f"{verb} {len(doomed)} checkpoint(s)")
    for cid in doomed:
        typer.echo(f"  {cid}")


@app.command("show")
def checkpoint_show(ctx: typer.Context, checkpoint_id: str, as_json: bool = JSON_OPT) -> None:
    """One checkpoint's metadata."""
    meta = project_for(ctx).checkpoints.get(checkpoint_id)
    (shown,) = _shown(ctx, [meta])
    if as_json:
        emit_json(shown)
        return
    for key, value in shown.items():
        if key == "skipped":
            typer.echo(f"skipped: {len(value)} file(s) left out" + (":" if value else ""))
            _echo_skipped(meta, shown)
        else:
            typer.echo(f"{key}: {one_line(str(value))}")


@app.command("diff")
def checkpoint_diff(
    ctx: typer.Context,
    a: str = typer.Argument(..., metavar="A"),
    b: str | None = typer.Argument(None, metavar="[B]", help="Default: the working tree."),
    as_json: bool = JSON_OPT,
) -> None:
    """What changed from checkpoint A to B (or to the working tree)."""
    from vibflow.steps.checkpoints.report import shown_diff

    project = project_for(ctx)
    # File names are redacted as the recover payload's are (a secret-shaped name).
    shown = shown_diff(a, b, project.checkpoints.diff(a, b), project.root)
    if as_json:
        emit_json(shown)
        return
    if not shown["changes"]:
        typer.echo("no changes")
    for c in shown["changes"]:
        counts = "binary" if c["binary"] else f"+{c['added_lines'] or 0} -{c['deleted_lines'] or 0}"
        old = f" (from {one_line(c['old_path'])})" if c["old_path"] else ""
        typer.echo(f"{c['status']:<9} {one_line(c['path'])}{old}  {counts}")


# Restoring a checkpoint is a run, so it lives with undo (restore_cmd); it is
# listed last in this group.
app.command("restore")(restore_cmd.checkpoint_restore)
