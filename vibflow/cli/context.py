"""What one ``vibflow`` invocation knows, and the helpers every command module shares.

The root callback puts a frozen :class:`CliState` (``--debug``, ``--project``
and the registry hook a test harness passes to ``run_cli``) in ``ctx.obj``;
commands read it through :func:`project_for` / :func:`catalog_for`, the only
places that build a project. Nothing here is a module global, so two
invocations in one process (tests) cannot leak into each other.

Imports go one way: ``app`` imports the command modules, the command modules
import this one, and this one imports neither. Everything heavier than typer
and the error types is imported where it is used, to keep cold start low.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from vibflow.engine.errors import ErrorCode, VibflowError

if TYPE_CHECKING:
    from vibflow.engine.catalog import FlowCatalog
    from vibflow.engine.registry import Registry
    from vibflow.wiring import Project

RegistryHook = Callable[["Registry"], None]

#: ``ctx.meta`` key under which the ``--json`` option notes itself (see :func:`_note_json`).
JSON_META_KEY = "vibflow.json"
#: ``ctx.meta`` key of the warnings said during a command (``--json`` output carries them).
WARNINGS_META_KEY = "vibflow.warnings"


@dataclass(frozen=True)
class CliState:
    """Per-invocation settings: the global options and the test harness's registry hook."""

    debug: bool = False
    project: Path | None = None
    registry_hook: RegistryHook | None = None


def state_of(ctx: typer.Context) -> CliState:
    """The invocation's state (defaults when the app runs without ``run_cli``)."""
    found = ctx.find_object(CliState)
    return found if found is not None else CliState()


def wants_json(ctx: typer.Context) -> bool:
    """Whether the command being run was given ``--json``."""
    return bool(ctx.meta.get(JSON_META_KEY, False))


def _note_json(ctx: typer.Context, value: bool) -> bool:
    # The exception boundary in run_cli never sees a command's parameters, but
    # it shares the context chain's meta: it answers an error in JSON from here.
    ctx.meta[JSON_META_KEY] = value
    return value


JSON_OPT = typer.Option(
    False, "--json", help="Print one JSON object instead of text.", callback=_note_json
)
INPUT_OPT = typer.Option(
    None,
    "--input",
    "-i",
    metavar="KEY=VALUE",
    help="An input; repeat the option for each one (-i option=ID -i paths=a.py). "
    "A list input takes one item per repeat (-i paths=a.py -i paths=b.py) or several "
    "comma-separated in one value, or a JSON array (-i 'paths=[\"a,b.py\"]') taken as "
    "written. Paths are relative to where you are.",
)


def current_warnings() -> list[str]:
    """The warnings said so far by the command being run (empty outside one)."""
    try:
        # typer's bundled click keeps the running command's context; it is not
        # re-exported, and without it JSON answers simply carry no warnings.
        from typer._click.globals import get_current_context
    except ImportError:  # pragma: no cover - a typer that bundles no click
        return []
    ctx = get_current_context(silent=True)
    found = ctx.meta.get(WARNINGS_META_KEY) if ctx is not None else None
    return list(found) if isinstance(found, list) else []


def registry_for(ctx: typer.Context) -> Registry:
    """The step and guard registry, with the invocation's extra registrations."""
    from vibflow.registry_wiring import build_registry

    return build_registry(state_of(ctx).registry_hook)


def project_for(ctx: typer.Context, *, early_listing: bool = False) -> Project:
    """The project the command runs in (``--project`` or the working directory);
    ``early_listing``: see ``invocation.open_project``."""
    from vibflow.cli.invocation import open_project

    state = state_of(ctx)

    def warn(message: str) -> None:
        # On stderr at once, and kept for the command's --json answer.
        ctx.meta.setdefault(WARNINGS_META_KEY, []).append(message)
        typer.echo(f"vibflow: warning: {message}", err=True)

    return open_project(state.project, state.registry_hook, warn, early_listing=early_listing)


def run_bare(ctx: typer.Context, name: str) -> None:
    """A group named with no command runs its one obvious read, ``name`` (``vibflow
    runs`` is ``vibflow runs list``), with that command's defaults; ``--help`` still
    shows the group. Groups with no single obvious read print usage (exit 2)."""
    if ctx.invoked_subcommand is not None:
        return
    command = ctx.command.get_command(ctx, name)  # type: ignore[attr-defined]
    # Parsed from no words, as the command line `vibflow GROUP NAME` would be: its
    # defaults, its parameter callbacks, its own context under the group's.
    with command.make_context(name, [], parent=ctx) as sub:
        command.invoke(sub)


def paths_here(ctx: typer.Context, root: Path, raws: list[str]) -> list[str]:
    """Project paths typed on this command line, each read in the folder the command
    runs in — ``--project DIR`` when given ("as if started in this folder"), else the
    working directory — as git reads them (``cwd_paths``). The result still goes
    through the path contract, which refuses a path outside the project by its rule."""
    from vibflow.cli.cwd_paths import here

    return here(root, raws, state_of(ctx).project or Path.cwd())


def paths_to_restore(ctx: typer.Context, root: Path, raws: list[str]) -> list[str]:
    """:func:`paths_here` for the names a restore writes: a name the restore rules
    refuse as typed (a backslash, which placing would read as a folder separator)
    is refused before it is placed."""
    from vibflow.steps.paths.contract import restore_refusal

    for raw in raws:
        refused = restore_refusal(raw)
        if refused is not None:
            raise refused
    return paths_here(ctx, root, raws)


def catalog_for(ctx: typer.Context) -> FlowCatalog:
    """The flows available here: the project's and the shipped ones, or only the
    shipped ones outside a project."""
    from vibflow.registry_wiring import catalog_without_project

    try:
        return project_for(ctx).catalog
    except VibflowError as exc:
        if exc.code is not ErrorCode.NOT_A_PROJECT:
            raise
        return catalog_without_project(registry_for(ctx))
