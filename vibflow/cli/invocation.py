"""What a command body needs from the front door that runs it, without typer.

A hot read command (``recover --preview``/``--explain``) has one body and two
front doors: typer (``recover_cmd``, every spelling, ``--help``, usage errors)
and the fast path (``fastpath``, the common spellings only, ~100 M fewer
instructions per run since typer and its option adapters are never imported).
The body asks its :class:`Invocation` for the project, prints through it and
answers ``--json`` through it; each front door supplies its own, so both print
the same bytes. Opening the project (and writing the idle-gap recap) is shared
here so the two cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from vibflow.engine.errors import VibflowError

if TYPE_CHECKING:
    from vibflow.engine.registry import Registry
    from vibflow.wiring import Project


class Invocation(Protocol):
    """The project, stdout/stderr and the ``--json`` answer of one command line."""

    def open_project(self, *, early_listing: bool = False) -> Project: ...

    def echo(self, message: str = "", *, nl: bool = True, err: bool = False) -> None: ...

    def emit_json(self, data: Any) -> None: ...


def open_project(
    folder: Path | None,
    registry_hook: Callable[[Registry], None] | None,
    warn: Callable[[str], None],
    *,
    early_listing: bool = False,
) -> Project:
    """The project the command runs in (``folder`` or the working directory), with
    the recap of the last session written first when an idle gap calls for one.
    ``early_listing``: start git's listings of the changes (a preview's first and
    longest wait) before loading the rest of vibflow, for the project's advisor."""
    from vibflow.steps.workspace.root import find_root

    root = find_root(folder or Path.cwd())
    early = None
    if early_listing:
        from vibflow.steps.recovery.early_listing import start_early

        early = start_early(root)
    # Loaded only now: ~0.1 s of imports that git's listings run beside.
    from vibflow.wiring import Project

    project = Project(root, registry_hook, early_listing=early)
    project.warn = warn
    recap_idle_gap(project)
    return project


def recap_idle_gap(project: Project) -> None:
    """After an idle gap, the project recap of the work before it, written once
    (two file stats decide; the recap is only built when one is due). Never
    stops the command: a recap that cannot be written is a warning."""
    import time

    from vibflow import recap_wiring

    try:
        minutes = project.engine_policy.recap_idle_minutes
    except VibflowError:
        return  # a broken policy: the command itself says so
    try:
        if not minutes or not recap_wiring.idle_gap_due(project, minutes, time.time()):
            return
        recap_wiring.write_project_recap(project, recap_wiring.generic_commands, reason="idle gap")
    except VibflowError as exc:
        project.warn(f"the recap of the last session could not be written ({exc.message})")
