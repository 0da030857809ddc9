"""What vibflow prints can never drive the terminal it is printed on.

Much of what a command prints comes from the work tree, and the work tree is
exactly what an agent may have changed: a file named ``a\\x1b[8m.py`` (or
``\\x1b]0;…``, ``\\x1b[2J``, a carriage return) printed raw hides the lines after
it, retitles the window or clears the screen — a drift list an agent can blank
out. Commit subjects, intent text and memory entries reach the screen the same
way. git shows such names quoted; vibflow never prints terminal controls of its
own (no colours, no cursor moves), so every one in its output is someone's data
and is shown as an escape instead:

* C0 controls but the line feed and the tab, DEL and the C1 controls (``\\x9b``
  is a one-byte escape introducer on some terminals) as ``\\uXXXX``;
* the invisible bidirectional controls, which reorder what a line seems to say
  ("Trojan Source"), as ``\\uXXXX``;
* bytes of a name that is not UTF-8 (Python's surrogate escapes) as ``\\xNN``.

``\\uXXXX`` is also a JSON string escape of the same character, so a ``--json``
answer read through :func:`guard` stays valid JSON with the same values (its
encoder already escapes the C0 controls and, when the stream cannot carry them,
the surrogates). A line feed inside a path or an intent is the renderers' to
show (:func:`one_line`): the stream cannot tell it from vibflow's own.
"""

from __future__ import annotations

import codecs
import io
import sys

from vibflow.engine.controls import one_line, visible

__all__ = ["guard", "one_line", "visible"]


#: The streams :func:`guard` replaced: dropped, each would close the buffer it
#: shares with its replacement.
_REPLACED: list[io.TextIOWrapper] = []


class _Visible(io.TextIOWrapper):
    """A standard stream whose every write goes through :func:`visible`."""

    def write(self, s: str) -> int:
        super().write(visible(s))
        return len(s)


def _carried(encoding: str, errors: str | None) -> tuple[str, str | None]:
    """The encoding and error handler the guarded stream writes with.

    An ASCII stream is one click calls misconfigured: it would write around it,
    through a UTF-8 wrapper of its own on the same buffer (and around the guard).
    It gets what click would give it, UTF-8 with replacement. Any other encoding
    that is not UTF-8 (latin-1, cp1252) shows what it cannot carry as an escape
    instead of failing the command halfway through its output."""
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        return encoding, errors
    if name == "ascii":
        return "utf-8", "replace"
    if name != "utf-8" and errors == "strict":
        return encoding, "backslashreplace"
    return encoding, errors


def guard() -> None:
    """Put :func:`visible` in front of stdout and stderr for the rest of the process
    (a stream that is not a plain text file over a byte buffer is left alone)."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if type(stream) is not io.TextIOWrapper:
            continue
        stream.flush()
        encoding, errors = _carried(stream.encoding, stream.errors)
        wrapped = _Visible(
            stream.buffer,
            encoding=encoding,
            errors=errors,
            newline="\n",
            line_buffering=stream.line_buffering,
            write_through=stream.write_through,
        )
        _REPLACED.append(stream)
        setattr(sys, name, wrapped)
