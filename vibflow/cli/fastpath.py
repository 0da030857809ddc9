"""The hot read commands without typer: ``recover``, ``runs list``, ``triggers check``, ``handoff``.

A fresh ``vibflow recover --preview --json`` is mostly imports; typer, its
bundled click and the pydantic adapters it builds for each option are ~100 M
instructions of it (a quarter of a small repository's preview over VibeLign's).
``vibflow/__main__.py`` offers every command line here first. A line this
module recognises in full runs the same body as the typer command
(``recover_run``, ``read_bodies``), prints through a click-compatible ``plain.echo`` and ends
at the same error boundary as ``app._dispatch``: same stdout, stderr and exit
status (``tests/cli/test_fastpath.py`` compares both front doors byte for
byte). Anything else — ``--help``, a subcommand, an option spelled another
way, a typo, a stream click would repair — returns ``None`` and typer runs the
line as before, so usage errors and help keep their one source.

Recognised: ``[--debug] [-C DIR | --project DIR | --project=DIR]...`` then

* ``recover`` with any of ``--explain``, ``--preview``, ``--all``, ``--json``;
* ``runs list`` with ``--json``, ``--status S``, ``--limit N`` (1 to 1,000), and
  ``runs`` alone (typer's ``runs`` group runs its list then, ``context.run_bare``);
* ``triggers check`` with ``--json``;
* ``handoff`` with ``--json``, ``--for agent|human``, ``--budget N``, ``--out FILE``;
* ``mcp serve`` with ``--client NAME`` and ``--rescan-rate R`` (0 to 1): an agent
  starts it at every session;

an option's value given as the next word or after ``=`` (the last one given
wins, as in click). ``recap`` is not here yet: its body is being reworked.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

# Only what reading the line needs is imported up front: a line left to typer
# (``--help``, every other command) pays for this module and nothing more.
if TYPE_CHECKING:
    from vibflow.engine.errors import VibflowError
    from vibflow.wiring import Project


def _plain_value(value: str) -> bool:
    # An empty value or one that looks like an option: typer's own reading decides.
    return bool(value) and not value.startswith("-")


def _digits(value: str) -> bool:
    return value.isascii() and value.isdigit()


def _limit(value: str) -> bool:
    return _digits(value) and 1 <= int(value) <= 1000


def _share(value: str) -> bool:
    # A plain decimal from 0 to 1; anything else (typer's range error too) is typer's.
    try:
        return value.isascii() and 0.0 <= float(value) <= 1.0 and value.strip() == value
    except ValueError:
        return False


#: Each command the fast path runs: its words, its flags, and its options that
#: take a value with the check a value must pass (else typer reads the line).
_COMMANDS: dict[tuple[str, ...], tuple[frozenset[str], dict[str, Callable[[str], bool]]]] = {
    ("recover",): (frozenset({"--explain", "--preview", "--all", "--json"}), {}),
    ("runs", "list"): (frozenset({"--json"}), {"--status": _plain_value, "--limit": _limit}),
    # After `runs list`: the first entry whose words start the line is the one read.
    ("runs",): (frozenset(), {}),  # `vibflow runs` alone is `vibflow runs list`
    ("triggers", "check"): (frozenset({"--json"}), {}),
    ("recap",): (frozenset({"--json"}), {}),
    ("mcp", "serve"): (frozenset(), {"--client": _plain_value, "--rescan-rate": _share}),
    ("handoff",): (
        frozenset({"--json"}),
        {"--for": {"agent", "human"}.__contains__, "--budget": _digits, "--out": _plain_value},
    ),
}


class FastLine:
    """A command line the fast path runs: the global options, the command's
    words, its flags and its options' values.

    A plain class, not a dataclass: every command line (``--help`` too) loads
    this module, and generating a dataclass's methods costs more than reading
    the line."""

    __slots__ = ("command", "debug", "flags", "options", "project")

    def __init__(
        self,
        debug: bool,
        project: Path | None,
        command: tuple[str, ...],
        flags: frozenset[str],
        options: dict[str, str],
    ) -> None:
        self.debug, self.project, self.command = debug, project, command
        self.flags, self.options = flags, options

    def _key(self) -> tuple[object, ...]:
        return (self.debug, self.project, self.command, self.flags, self.options)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FastLine):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"FastLine{self._key()!r}"


def parse(argv: Sequence[str]) -> FastLine | None:
    """The line, if it is one the fast path runs exactly as typer would; else None."""
    debug, project, i = False, None, 0
    while i < len(argv) and argv[i].startswith("-"):
        arg = argv[i]
        if arg == "--debug":
            debug, i = True, i + 1
        elif arg in ("-C", "--project") and i + 1 < len(argv) and _plain_value(argv[i + 1]):
            project, i = Path(argv[i + 1]), i + 2
        elif arg.startswith("--project=") and _plain_value(arg[len("--project=") :]):
            project, i = Path(arg[len("--project=") :]), i + 1
        else:
            return None
    words = next((w for w in _COMMANDS if tuple(argv[i : i + len(w)]) == w), None)
    if words is None:
        return None
    known_flags, known_options = _COMMANDS[words]
    rest = list(argv[i + len(words) :])
    flags: set[str] = set()
    options: dict[str, str] = {}
    while rest:
        arg = rest.pop(0)
        name, eq, value = arg.partition("=")
        if not eq and arg in known_flags:
            flags.add(arg)
            continue
        if name not in known_options:
            return None
        if not eq:
            if not rest:
                return None
            value = rest.pop(0)
        if not known_options[name](value):
            return None
        options[name] = value
    return FastLine(debug, project, words, frozenset(flags), options)


class FastInvocation:
    """The fast path's :class:`~vibflow.cli.invocation.Invocation`."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.warnings: list[str] = []

    def open_project(self, *, early_listing: bool = False) -> Project:
        from vibflow.cli.invocation import open_project

        return open_project(self.folder, None, self._warn, early_listing=early_listing)

    def _warn(self, message: str) -> None:
        from vibflow.cli import plain

        # On stderr at once, and kept for the command's --json answer (as project_for).
        self.warnings.append(message)
        plain.echo(f"vibflow: warning: {message}", err=True)

    def echo(self, message: str = "", *, nl: bool = True, err: bool = False) -> None:
        from vibflow.cli import plain

        plain.echo(message, nl=nl, err=err)

    def emit_json(self, data: Any) -> None:
        from vibflow.cli import plain

        plain.emit_json(data, self.warnings)


def run(argv: Sequence[str]) -> int | None:
    """Run the line if the fast path knows it; its exit status, or None for typer."""
    line = parse(argv)
    if line is None:
        return None
    from vibflow.cli import plain
    from vibflow.cli.visible_text import guard

    guard()  # as run_cli does: nothing printed may drive the terminal (visible_text.py)
    if not plain.streams_are_plain():
        return None
    # pydantic looks for plugins among the installed packages' entry points
    # when it builds the first model (~15 M instructions); vibflow uses none.
    # PYDANTIC_DISABLE_PLUGINS is pydantic's documented switch; a value the
    # user set is kept, and git, the only child of these commands, ignores it.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    try:
        return _boundary(line)
    except BrokenPipeError:
        plain.detach_stdout()
        return plain.EXIT_PIPE_CLOSED


def _boundary(line: FastLine) -> int:
    """``app._dispatch``'s error boundary for a body that has no typer context."""
    from vibflow.cli import plain
    from vibflow.engine.errors import ErrorCode, Outcome, VibflowError

    as_json = "--json" in line.flags
    try:
        _run_body(line, FastInvocation(line.project), as_json)
    except KeyboardInterrupt:
        plain.echo("interrupted", err=True)
        return plain.EXIT_INTERRUPTED
    except BrokenPipeError:
        raise  # run's: also when the error report itself meets the closed pipe
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except VibflowError as exc:
        _report(exc, line.debug, as_json, exc)
        return int(exc.code.outcome)
    except Exception as exc:  # noqa: BLE001 - the last line of defence against tracebacks
        err = VibflowError(
            ErrorCode.INTERNAL,
            f"vibflow hit an internal error ({type(exc).__name__})",
            hint="Run again with --debug for details, and please report it.",
        )
        _report(err, line.debug, as_json, exc)
        return int(Outcome.FAILURE)
    return 0


def _run_body(line: FastLine, inv: FastInvocation, as_json: bool) -> None:
    """The command's body: the one its typer command runs, with the same arguments."""
    if line.command == ("recover",):
        from vibflow.cli.recover_run import run_recover

        run_recover(
            inv,
            explain="--explain" in line.flags,
            preview="--preview" in line.flags,
            show_all="--all" in line.flags,
            as_json=as_json,
        )
        return
    opts = line.options
    if line.command == ("mcp", "serve"):
        from vibflow.mcp.serve import serve

        rate = opts.get("--rescan-rate")
        client = opts.get("--client", "mcp")
        serve(line.project, client, None if rate is None else float(rate), debug=line.debug)
        return
    from vibflow.cli import read_bodies

    if line.command in (("runs", "list"), ("runs",)):
        limit = int(opts.get("--limit", "20"))
        read_bodies.runs_list(inv, status=opts.get("--status"), limit=limit, as_json=as_json)
    elif line.command == ("triggers", "check"):
        read_bodies.triggers_check(inv, as_json=as_json)
    elif line.command == ("recap",):
        read_bodies.recap_project(inv, as_json=as_json)
    else:
        budget = opts.get("--budget")
        out = opts.get("--out")
        read_bodies.handoff(
            inv,
            audience="agent" if opts.get("--for") == "agent" else "human",
            budget=int(budget) if budget is not None else None,
            out=Path(out) if out is not None else None,
            as_json=as_json,
        )


def _report(err: VibflowError, debug: bool, as_json: bool, cause: BaseException) -> None:
    # As app._report. Its JSON error carries no "warnings": under typer the
    # command's context (which holds them) has closed by the time it prints.
    import traceback

    from vibflow.cli import plain

    if debug:
        traceback.print_exception(cause, file=sys.stderr)
    if as_json:
        plain.emit_json({"error": err.to_json()}, [])
    plain.echo(f"vibflow: {err.render()}", err=True)
