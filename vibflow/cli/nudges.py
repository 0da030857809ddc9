"""The one-line nudges printed by commands a user already runs.

``recap``, ``recover --explain`` and ``memory show`` end with the triggers
that fire now (at most a few lines, each with the command that acts on it);
agent hooks and MCP call :meth:`vibflow.wiring.Project.triggers`'
``nudges(source)`` the same way. A nudge never blocks: if nudges cannot be
worked out (a damaged state file, git missing), the command goes on without.
A message or command a project wrote itself passes the redaction contract.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from vibflow.engine.errors import VibflowError

if TYPE_CHECKING:
    from vibflow.wiring import Project


def nudge_lines(project: Project, source: str) -> list[str]:
    """The nudges to show now from ``source`` (recording each first showing)."""
    try:
        found = project.triggers.nudges(source)
    except (VibflowError, OSError):
        return []
    if not found:
        return []
    shipped = project.policy.defaults_raw().get("triggers", {}).get("rules", {})
    lines: list[str] = []
    for nudge in found:
        line = nudge.line()
        default = shipped.get(nudge.id, {})
        if (default.get("message"), default.get("command")) != (nudge.message, nudge.command):
            line, _ = project.redact_text(line)
        lines.append(line)
    return lines


def print_nudges(project: Project, source: str) -> None:
    """Print the nudges (text output only: a ``--json`` answer keeps its shape)."""
    lines = nudge_lines(project, source)
    if lines:
        typer.echo("")
    for line in lines:
        typer.echo(line)
