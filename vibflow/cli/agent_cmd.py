"""``vibflow agent ...``: wire vibflow into an agent's own hooks, see what is
wired and recorded, and wrap any other agent in one recorded turn.

``install`` / ``uninstall`` edit the agent's project settings file
(:mod:`vibflow.steps.agents.settings`); ``status`` reads the settings files,
the agent records and the hook problem log; ``run`` takes a checkpoint before
and after a command and records it as one session of one turn; ``hook`` is
what the installed hooks call (``vibflow/__main__.py`` normally sends it to
:mod:`vibflow.agent_hook` before this module is even imported).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import typer

from vibflow.cli.context import JSON_OPT, project_for
from vibflow.cli.output import emit_json
from vibflow.engine.errors import ErrorCode, VibflowError

app = typer.Typer(
    help="Agent sessions: vibflow in the agent's own hooks (a checkpoint before every turn).",
    no_args_is_help=True,
)

AGENT_ARG = typer.Argument(..., metavar="AGENT", help="claude-code or gemini.")
LOCAL_OPT = typer.Option(
    False,
    "--local",
    help="Claude Code only: .claude/settings.local.json (yours alone, not committed) "
    "instead of .claude/settings.json.",
)


def _settings(ctx: typer.Context, agent: str, local: bool) -> Any:
    from vibflow.steps.agents.settings import AgentSettings

    project = project_for(ctx)
    if local and agent != "claude-code":
        raise VibflowError(ErrorCode.BAD_INPUT, "--local is for claude-code only")
    return project, AgentSettings(project.root, project.state_dir, agent, local=local)


@app.command("install")
def install(
    ctx: typer.Context, agent: str = AGENT_ARG, local: bool = LOCAL_OPT, as_json: bool = JSON_OPT
) -> None:
    """Add vibflow's hooks to the agent's project settings (keeps every other setting)."""
    project, settings = _settings(ctx, agent, local)
    # The agent's own limit sits above ours: our hook always stops first, and says why.
    change = settings.install(project.agents_policy.hook_timeout_seconds + 5)
    on_path = shutil.which("vibflow") is not None
    if as_json:
        emit_json({**change.__dict__, "agent": agent, "vibflow_on_path": on_path})
        return
    if change.changed:
        typer.echo(
            f"{change.file}: added vibflow's hooks for {settings.spec.display}: "
            + ", ".join(change.events)
        )
    else:
        typer.echo(f"{change.file}: vibflow's hooks are already there; nothing changed")
    typer.echo("Every prompt now gets a checkpoint first; `vibflow rewind` lists the turns.")
    if not on_path:
        typer.echo(
            "warning: `vibflow` is not on PATH here, and the hooks run `vibflow agent hook ...`; "
            "install vibflow on PATH (pipx install vibflow), or the agent reports a failing hook",
            err=True,
        )


@app.command("uninstall")
def uninstall(
    ctx: typer.Context, agent: str = AGENT_ARG, local: bool = LOCAL_OPT, as_json: bool = JSON_OPT
) -> None:
    """Take vibflow's hooks out again (the file as it was, your own hooks kept)."""
    _, settings = _settings(ctx, agent, local)
    change = settings.uninstall()
    if as_json:
        emit_json({**change.__dict__, "agent": agent})
        return
    if change.changed:
        typer.echo(f"{change.file}: removed vibflow's hooks ({', '.join(change.events)})")
    else:
        typer.echo(f"{change.file}: no vibflow hooks there; nothing changed")


@app.command("status")
def status(ctx: typer.Context, as_json: bool = JSON_OPT) -> None:
    """Which agents have vibflow's hooks, the last turn recorded, recent hook problems."""
    from vibflow.cli.agent_view import gather, render

    found = gather(project_for(ctx))
    if as_json:
        emit_json(found)
        return
    for line in render(found):
        typer.echo(line)


_NAME = re.compile(r"[^a-z0-9_-]+")


@app.command(
    "run",
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
)
def run(
    ctx: typer.Context,
    command: list[str] = typer.Argument(..., metavar="-- CMD...", help="The agent's command line."),
    agent: str | None = typer.Option(
        None, "--agent", help="The name to record (default: the command's name)."
    ),
    as_json: bool = typer.Option(
        False,
        "--json",
        help="After the command, print one JSON object: the agent, the turn, the exit status.",
    ),
) -> None:
    """Run CMD as one recorded agent turn: a checkpoint before and after it.

    For agents without hooks vibflow knows: `vibflow rewind` can then put back
    the tree as it was before the command. The command's exit status is passed through.
    """
    from vibflow.agent_hook import run_wrapped

    project = project_for(ctx)
    name = agent or _NAME.sub("-", Path(command[0]).name.lower()).strip("-_") or "agent"

    def launch() -> int:
        try:
            return subprocess.run(command, check=False).returncode
        except FileNotFoundError:
            typer.echo(f"vibflow: {command[0][:80]}: command not found", err=True)
            return 127
        except KeyboardInterrupt:
            return 130

    code, recorded = run_wrapped(project.root, name[:40], launch)
    sys.stdout.flush()
    if as_json:
        emit_json({"agent": name[:40], "turn": recorded, "exit_status": code})
    else:
        typer.echo(
            f"vibflow: recorded as {name} turn {recorded}; `vibflow rewind` lists it", err=True
        )
    raise typer.Exit(code)


@app.command("hook", hidden=True)
def hook(
    agent: str = typer.Argument(..., metavar="AGENT"),
    event: str | None = typer.Argument(None, metavar="EVENT"),
) -> None:
    """What the installed hooks run: read the hook's JSON on stdin, record it, exit 0."""
    from vibflow.agent_hook import main

    raise typer.Exit(main([agent] + ([event] if event else [])))
