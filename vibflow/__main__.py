"""``python -m vibflow`` and the ``vibflow`` console script."""

from __future__ import annotations

import atexit
import gc
import os
import sys

#: The collector's young-generation threshold while a command runs (CPython's
#: default: 700 allocations).
COMMAND_GC_THRESHOLD = 100_000


def _in_utf8_mode() -> None:
    """Run again in Python's UTF-8 mode when the locale names files in another encoding.

    Under ``LC_ALL=C`` with ``PYTHONUTF8=0`` (or a latin-1 locale) Python encodes
    file names with ASCII (or latin-1): a name git lists as ``café.py`` cannot
    even be stat'ed, and every command that meets one ends in an internal error.
    git itself names files as bytes, which UTF-8 mode (``-X utf8``, with
    surrogateescape) round-trips whatever they are. ``exec`` keeps the process,
    its streams and its pid (an agent's hook or MCP client sees one process).
    """
    if os.name != "posix" or sys.flags.utf8_mode:
        return
    if sys.getfilesystemencoding().replace("-", "").lower() == "utf8":
        return
    # The same interpreter and command line: nothing here comes from outside.
    os.execv(sys.executable, [sys.orig_argv[0], "-X", "utf8", *sys.orig_argv[1:]])  # noqa: S606


def main() -> None:
    _in_utf8_mode()
    # A command loads ~400 modules: ~60,000 objects (classes, functions, schemas)
    # that live until it exits. At the default threshold the collector walks them
    # ~90 times while they load, ~5 % of a small `recover --preview`, and finds
    # nothing. Raised, it still collects cycles, once per 100,000 allocations (a
    # bounded few MB of young objects); the MCP server, which runs for hours, puts
    # the default back once it has loaded (vibflow/mcp/serve.py).
    gc.set_threshold(COMMAND_GC_THRESHOLD, *gc.get_threshold()[1:])
    argv = sys.argv[1:]
    if argv[:2] == ["agent", "hook"]:
        # An agent waits on this one: it runs without typer and the flow engine
        # (vibflow/agent_hook.py says why), and always exits 0.
        from vibflow.agent_hook import main as hook_main

        code = hook_main(argv[2:])
    else:
        # The hot read commands run without typer when the line is one the fast
        # path knows exactly (vibflow/cli/fastpath.py); every other line, typer.
        from vibflow.cli import fastpath

        fast = fastpath.run(argv)
        if fast is not None:
            code = fast
        else:
            from vibflow.cli.app import run_cli

            code = run_cli(argv)
    # The command is over: its files are closed, the journal and audit rows
    # committed. What remains is the interpreter tearing down ~1,000 modules'
    # objects one by one (~40 ms, a tenth of `recover --explain`), which
    # nothing needs. The exit hooks still run (logging's flush, filelock's
    # release) and the standard streams are flushed; then the process ends.
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            code = code or 1  # e.g. a closed pipe: the output did not arrive
    os._exit(code)


if __name__ == "__main__":
    main()
