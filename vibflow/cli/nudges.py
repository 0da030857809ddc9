"""The one-line nudges printed by commands a user already runs.

``recap``, ``recover --explain`` and ``memory show`` end with the triggers
that fire now (at most a few lines, each with the command that acts on it);
agent hooks and MCP call :meth:`vibflow.wiring.Project.triggers`'
``nudges(source)`` the same way. A nudge never blocks: if nudges cannot be
worked out (a damaged state file, git missing), the command goes on without.
A message or command a project wrote itself passes the redaction contract.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from vibflow.engine.errors import VibflowError

if TYPE_CHECKING:
    from vibflow.wiring import Project


def redactor(project: Project) -> Callable[[str, str, str], str]:
    """``(trigger, field, text) -> text`` that passes the redaction contract when the
    project wrote that field itself (shipped messages and commands are known-clean,
    and skipping them keeps the detectors out of most commands)."""
    shipped = project.policy.defaults_raw().get("triggers", {}).get("rules", {})

    def clean(trigger: str, field: str, text: str) -> str:
        if shipped.get(trigger, {}).get(field) == text:
            return text
        red, _ = project.redact_text(text)
        return red

    return clean


def nudge_lines(project: Project, source: str) -> list[str]:
    """The nudges to show now from ``source`` (recording each first showing)."""
    try:
        found = project.triggers.nudges(source)
    except (VibflowError, OSError):
        return []
    clean = redactor(project) if found else None
    return [
        replace(
            n, message=clean(n.id, "message", n.message), command=clean(n.id, "command", n.command)
        ).line()
        if clean
        else n.line()
        for n in found
    ]


def print_nudges(project: Project, source: str, echo: Callable[[str], None]) -> None:
    """Print the nudges with ``echo`` (text output only: a ``--json`` answer keeps
    its shape). The caller's echo: typer's, or the fast path's, which has none."""
    lines = nudge_lines(project, source)
    if lines:
        echo("")
    for line in lines:
        echo(line)
