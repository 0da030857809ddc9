"""``vibflow checkpoint ...``: wiring to the checkpoint store."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import typer

from vibflow.cli.context import JSON_OPT, project_for
from vibflow.cli.output import emit_json

if TYPE_CHECKING:
    from vibflow.steps.checkpoints.models import CheckpointMeta

app = typer.Typer(help="Snapshots of your working tree.", no_args_is_help=True)


def _progress() -> Callable[[str], None] | None:
    """Say what a slow checkpoint is doing (on a terminal, after a moment)."""
    started = time.monotonic()
    if not sys.stderr.isatty():
        return None

    def show(what: str) -> None:
        if time.monotonic() - started > 0.3:
            typer.echo(f"checkpoint: {what}…", err=True)

    return show


def _meta_json(meta: CheckpointMeta) -> dict[str, Any]:
    return meta.model_dump(mode="json")


@app.command("create")
def checkpoint_create(
    ctx: typer.Context,
    message: str = typer.Option("", "--message", "-m", help="What this checkpoint is for."),
    as_json: bool = JSON_OPT,
) -> None:
    """Snapshot tracked changes and untracked files (ignored files never)."""
    meta = project_for(ctx).checkpoints.create(message, progress=_progress())
    if as_json:
        emit_json(_meta_json(meta))
        return
    verb = "nothing changed since" if meta.reused else "created"
    typer.echo(f"{verb} checkpoint {meta.checkpoint_id} ({meta.file_count} files)")
    for s in meta.skipped:
        typer.echo(f"  skipped {s.path}: {s.reason.replace('_', ' ')}")


@app.command("list")
def checkpoint_list(ctx: typer.Context, as_json: bool = JSON_OPT) -> None:
    """All checkpoints, oldest first, and the space only they keep alive."""
    store = project_for(ctx).checkpoints
    metas = store.all()
    size = store.size_bytes() if metas else 0
    if as_json:
        emit_json({"checkpoints": [_meta_json(m) for m in metas], "store_bytes": size})
        return
    if not metas:
        typer.echo('no checkpoints yet — `vibflow checkpoint create -m "before the agent"`')
    for m in metas:
        typer.echo(f"{m.checkpoint_id}  {m.created_at}  {m.reason:<10} {m.message}")
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
    if as_json:
        emit_json(_meta_json(meta))
        return
    for key, value in _meta_json(meta).items():
        typer.echo(f"{key}: {value}")


@app.command("diff")
def checkpoint_diff(
    ctx: typer.Context,
    a: str = typer.Argument(..., metavar="A"),
    b: str | None = typer.Argument(None, metavar="[B]", help="Default: the working tree."),
    as_json: bool = JSON_OPT,
) -> None:
    """What changed from checkpoint A to B (or to the working tree)."""
    changes = project_for(ctx).checkpoints.diff(a, b)
    if as_json:
        emit_json(
            {
                "from": a,
                "to": b or "working_tree",
                "changes": [c.model_dump(mode="json") for c in changes],
            }
        )
        return
    if not changes:
        typer.echo("no changes")
    for c in changes:
        counts = "binary" if c.binary else f"+{c.added_lines or 0} -{c.deleted_lines or 0}"
        old = f" (from {c.old_path})" if c.old_path else ""
        typer.echo(f"{c.status:<9} {c.path}{old}  {counts}")
