"""A typer command's :class:`~vibflow.cli.invocation.Invocation`.

The bodies shared with the fast path (``recover_run``) print and answer
``--json`` through an invocation; under typer that is ``typer.echo``,
``output.emit_json`` (which adds the warnings kept in the command's context)
and ``context.project_for``. Its own module: it needs both ``context`` and
``output``, and ``output`` already reads ``context``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import typer

from vibflow.cli.context import project_for
from vibflow.cli.output import emit_json

if TYPE_CHECKING:
    from vibflow.wiring import Project


@dataclass(frozen=True)
class CommandInvocation:
    """The project, echo and ``--json`` answer of the typer command ``ctx`` runs."""

    ctx: typer.Context

    def open_project(self, *, early_listing: bool = False) -> Project:
        return project_for(self.ctx, early_listing=early_listing)

    def echo(self, message: str = "", *, nl: bool = True, err: bool = False) -> None:
        typer.echo(message, nl=nl, err=err)

    def emit_json(self, data: Any) -> None:
        emit_json(data)
