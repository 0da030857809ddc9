"""The ``vibflow`` command line: the root app, its global options, and the one
place errors become messages and exit statuses.

Each command module owns its commands (``run_cmd``: run, step, resume, recap,
demo; ``restore_cmd``: undo and checkpoint restore; ``runs_cmd``,
``flows_cmd``, ``audit_cmd``, ``memory_cmd`` (memory and hooks),
``checkpoint_cmd``, ``recover_cmd``, ...); this module mounts them by name
(:data:`COMMANDS`, built only when a command line reaches them), and nothing
imports it back. Exit statuses: 0 ok (a run left waiting is ok), 1
failure, 2 bad input (click's usage errors too), 3 refused by a guard or busy,
130 interrupted, 141 the reader of our output went away (as for any tool
killed by SIGPIPE, git included). A traceback is printed only with ``--debug``.
Help is drawn with plain metavars (``helpstyle``) for every command alike.
"""

from __future__ import annotations

import dataclasses
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import cast

import typer

from vibflow.cli import context
from vibflow.cli.context import CliState, RegistryHook
from vibflow.cli.helpstyle import plain_help
from vibflow.cli.mounting import mounted_group
from vibflow.cli.plain import EXIT_INTERRUPTED, EXIT_PIPE_CLOSED, detach_stdout
from vibflow.cli.visible_text import guard
from vibflow.engine.errors import ErrorCode, Outcome, VibflowError

#: Every command under ``vibflow``, in the order ``--help`` lists them, and where it
#: lives ("module:attribute": a command function or a typer sub-app). A command line
#: imports and builds only the command it names; a new command is one more line.
COMMANDS: dict[str, str] = {
    "run": "vibflow.cli.run_cmd:run",
    "step": "vibflow.cli.run_cmd:step",
    "resume": "vibflow.cli.run_cmd:resume",
    "demo": "vibflow.cli.run_cmd:demo",
    "undo": "vibflow.cli.restore_cmd:undo",
    "rewind": "vibflow.cli.rewind_cmd:rewind",
    "handoff": "vibflow.cli.handoff_cmd:handoff",
    "recap": "vibflow.cli.recap_cmd:app",
    "runs": "vibflow.cli.runs_cmd:app",
    "flows": "vibflow.cli.flows_cmd:app",
    "audit": "vibflow.cli.audit_cmd:app",
    "memory": "vibflow.cli.memory_cmd:memory_app",
    "hooks": "vibflow.cli.memory_cmd:hooks_app",
    "checkpoint": "vibflow.cli.checkpoint_cmd:app",
    "recover": "vibflow.cli.recover_cmd:app",
    "triggers": "vibflow.cli.triggers_cmd:app",
    "policy": "vibflow.cli.policy_cmd:app",
    "agent": "vibflow.cli.agent_cmd:app",
    "grant": "vibflow.cli.grants_cmd:grant",
    "revoke": "vibflow.cli.grants_cmd:revoke",
    "grants": "vibflow.cli.grants_cmd:grants",
    "mcp": "vibflow.cli.mcp_cmd:app",
}

#: The root's typer settings, which the commands mounted under it are built with too.
_SETTINGS = {"add_completion": False, "pretty_exceptions_enable": False, "rich_markup_mode": None}

app = typer.Typer(
    name="vibflow",
    help="Guided, audited recovery and project memory for coding with AI agents.",
    no_args_is_help=True,
    cls=mounted_group(COMMANDS, _SETTINGS),
    **_SETTINGS,  # type: ignore[arg-type]
)


@app.callback()
def _main(
    ctx: typer.Context,
    debug: bool = typer.Option(False, "--debug", help="Show tracebacks for errors."),
    project: Path | None = typer.Option(
        None,
        "--project",
        "-C",
        metavar="DIR",
        help="Run as if started in this folder.",
        show_default=False,
    ),
) -> None:
    ctx.obj = dataclasses.replace(context.state_of(ctx), debug=debug, project=project)


def run_cli(argv: Sequence[str], registry_hook: RegistryHook | None = None) -> int:
    """Run one command line; return its exit status (never raises, never exits)."""
    guard()  # none of what a command prints may drive the terminal (visible_text.py)
    try:
        return _dispatch(list(argv), CliState(registry_hook=registry_hook))
    except BrokenPipeError:
        # `vibflow runs list | head`: the reader has what it wanted. Say nothing,
        # and point stdout at the null device so the interpreter's last flush of
        # what is still buffered does not fail on the closed pipe either.
        detach_stdout()
        return EXIT_PIPE_CLOSED


def _dispatch(argv: list[str], state: CliState) -> int:
    command = typer.main.get_command(app)
    plain_help(command, recurse=False)  # each command is dressed when it is built
    root: typer.Context | None = None
    try:
        # Not click's standalone mode: that would print and exit on its own and
        # turn Ctrl-C into a silent status; every outcome is decided below.
        made = command.make_context("vibflow", argv, obj=state)
        # typer hands its callbacks click's Context typed as typer.Context (a
        # subclass that adds nothing); the boundary reads it the same way.
        root = cast("typer.Context", made)
        with made:
            command.invoke(made)
    except typer.Exit as exc:  # a command's own status (a blocked run, a broken audit, --help)
        return exc.exit_code
    except typer.TyperException as exc:  # a usage error: click's message, status 2
        _show_usage_error(exc)
        return exc.exit_code
    except (KeyboardInterrupt, typer.Abort):  # Ctrl-C, also at a prompt
        typer.echo("interrupted", err=True)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        raise  # run_cli's: also when the error report itself meets the closed pipe
    except SystemExit as exc:  # something below exited on its own
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except VibflowError as exc:
        _report(exc, root, exc)
        return int(exc.code.outcome)
    except Exception as exc:  # noqa: BLE001 - the last line of defence against tracebacks
        err = VibflowError(
            ErrorCode.INTERNAL,
            f"vibflow hit an internal error ({type(exc).__name__})",
            hint="Run again with --debug for details, and please report it.",
        )
        _report(err, root, exc)
        return int(Outcome.FAILURE)
    return 0


def _show_usage_error(exc: typer.TyperException) -> None:
    show = getattr(exc, "show", None)  # click's exceptions print their usage line and hint
    if callable(show):
        show()
    else:
        typer.echo(f"Error: {exc.format_message()}", err=True)


def _report(err: VibflowError, root: typer.Context | None, cause: BaseException) -> None:
    """The one-line message on stderr (and the JSON error object on stdout with --json)."""
    state = context.state_of(root) if root is not None else CliState()
    if state.debug:
        traceback.print_exception(cause, file=sys.stderr)
    if root is not None and context.wants_json(root):
        from vibflow.cli.output import emit_json

        emit_json({"error": err.to_json()})
    typer.echo(f"vibflow: {err.render()}", err=True)
