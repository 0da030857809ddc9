"""Printing without typer: a line to stdout or stderr, and the ``--json`` encoder.

The hot read commands (``recover --preview``/``--explain``) run from
``vibflow.cli.fastpath`` without importing typer, so what they print must not
need it either. :func:`echo` writes text exactly as ``typer.echo`` (click's
``echo``) does on POSIX for a ``str``: a newline unless ``nl=False``, ANSI
escape sequences removed when the stream is not a terminal, then a flush. It
does not do click's stream repairs (an ASCII-only stream re-wrapped, the
Windows console); the fast path checks for those cases and leaves them to
typer (:func:`streams_are_plain`).
"""

from __future__ import annotations

import codecs
import os
import re
import sys
from typing import Any, TextIO

EXIT_INTERRUPTED = 130  # 128 + SIGINT
EXIT_PIPE_CLOSED = 141  # 128 + SIGPIPE

#: click's pattern of an ANSI escape sequence (``click._compat._ansi_re``), compiled
#: on first use (``re``'s cache): a command that prints nothing never pays for it.
_ANSI = r"\033\[[;?0-9]*[a-zA-Z]"


def streams_are_plain() -> bool:
    """Whether :func:`echo` prints byte for byte what click's echo would: POSIX, and
    both standard streams real text streams whose encoding is not ASCII (click
    re-wraps an ASCII stream in UTF-8 with replacement)."""
    if sys.platform.startswith("win"):
        return False
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None)
        if stream is None or not encoding or not hasattr(stream, "buffer"):
            return False
        try:
            if codecs.lookup(encoding).name == "ascii":
                return False
        except LookupError:
            return False
    return True


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except Exception:  # noqa: BLE001 - click's isatty swallows any failure alike
        return False


def echo(message: str = "", *, nl: bool = True, err: bool = False) -> None:
    """One message on stdout (stderr with ``err``), then flushed."""
    stream = sys.stderr if err else sys.stdout
    out = message + "\n" if nl else message
    if not out:
        stream.flush()
        return
    if not _is_tty(stream):
        out = re.sub(_ANSI, "", out)
    stream.write(out)
    stream.flush()


def dumps(data: Any) -> str:
    """``--json`` output: indented for a person at a terminal, one line for a program.

    The indenting encoder is pure Python (a 100,000-file plan took ~30 ms to
    indent and 4x less on one line), and programs parse either form alike.
    Text stays readable where the output's encoding can carry it.
    """
    import json  # only a command that answers in JSON needs the encoder

    indent = 2 if sys.stdout.isatty() else None
    text = json.dumps(data, indent=indent, ensure_ascii=False)
    try:
        text.encode(sys.stdout.encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):
        # A file name that is not UTF-8 reaches here as lone surrogates, and a
        # stream may not be UTF-8 at all (a Windows pipe is cp1252): escape
        # everything that is not ASCII, which any stream carries.
        text = json.dumps(data, indent=indent)
    return text


def emit_json(data: Any, warnings: list[str]) -> None:
    """Print one ``--json`` answer, with the command's warnings riding along as
    ``"warnings"`` (as ``vibflow.cli.output.emit_json`` does under typer)."""
    if warnings and isinstance(data, dict) and "warnings" not in data:
        data = {**data, "warnings": list(warnings)}
    echo(dumps(data))


def detach_stdout() -> None:
    """Point stdout at the null device: the reader went away (``vibflow ... | head``),
    and the interpreter's last flush of what is still buffered must not fail too."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no real stdout to redirect (an embedding host)
        pass
