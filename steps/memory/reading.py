"""Reading a JSON document that anyone — a user, an agent, a broken sync tool —
may have replaced with anything.

``.vibflow/memory.json`` (and a legacy file given to ``memory import``) is
read with three bounds, so no file can hang, exhaust or crash the reader:

* *kind*: the path is looked at with ``lstat`` before it is opened; only a
  regular file is opened, with ``O_NOFOLLOW | O_NONBLOCK``, and the descriptor
  is checked to be that same regular file. A symbolic link (to ``/dev/zero``,
  say), a folder, a FIFO, a socket or a device is never opened or followed.
* *size*: at most ``max_bytes`` are read; a longer file is refused unparsed.
* *depth*: JSON nested deeper than ``max_depth`` is refused (the parser's own
  ``RecursionError`` included), so nothing after it — validation, a later
  save — ever recurses that far.

Each refusal is an :class:`Unreadable` naming what is wrong in plain words
and whether the path is a regular file (which the store may move aside as a
backup) or something else (which it leaves exactly where it is).
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.sourcefile import file_kind

MAX_BYTES = 8 * 1024 * 1024  # memory is capped far below this (spec §14)
MAX_DEPTH = 64  # memory itself nests 4 deep; legacy unknown fields a little more

_OPEN = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)


class Unreadable(Exception):
    """``reason`` is plain language ("it is a folder"); ``regular`` says whether the
    path is a regular file (so moving it aside backs it up)."""

    def __init__(self, reason: str, *, regular: bool) -> None:
        super().__init__(reason)
        self.reason = reason
        self.regular = regular


def read_bytes(path: Path, *, max_bytes: int = MAX_BYTES) -> bytes:
    """The bytes of the regular file at ``path`` (``FileNotFoundError`` when there is
    none), or :class:`Unreadable`."""
    st = os.lstat(path)
    if not stat.S_ISREG(st.st_mode):
        raise Unreadable(f"it is {file_kind(st.st_mode)}, not a regular file", regular=False)
    if st.st_size > max_bytes:
        raise Unreadable(_too_large(max_bytes), regular=True)
    try:
        fd = os.open(path, _OPEN)
    except FileNotFoundError:
        raise
    except OSError as exc:
        # Swapped for a link or a special file since the lstat, or no permission.
        raise Unreadable(f"it could not be opened ({exc.strerror})", regular=False) from None
    try:
        now = os.fstat(fd)
        if not stat.S_ISREG(now.st_mode) or (now.st_dev, now.st_ino) != (st.st_dev, st.st_ino):
            raise Unreadable("it changed while it was being read", regular=False)
        chunks: list[bytes] = []
        left = max_bytes + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as exc:
        raise Unreadable(f"it could not be read ({exc.strerror})", regular=True) from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > max_bytes:
        raise Unreadable(_too_large(max_bytes), regular=True)
    return data


def parse_object(raw: bytes, *, max_depth: int = MAX_DEPTH, bom: bool = False) -> dict[str, Any]:
    """``raw`` as a JSON object, or :class:`Unreadable` (``regular=True``). ``bom``
    accepts a leading UTF-8 byte-order mark (a legacy file from a Windows editor)."""
    if raw.startswith(b"\xef\xbb\xbf"):
        if not bom:
            raise Unreadable("it starts with a byte-order mark", regular=True)
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Unreadable("it is not UTF-8 text", regular=True) from None
    try:
        data = json.loads(text)
    except RecursionError:
        # The parser recursed as deep as Python lets it: far past max_depth.
        raise Unreadable(_too_deep(max_depth), regular=True) from None
    except ValueError:
        raise Unreadable("it is not valid JSON", regular=True) from None
    if nesting_depth(data) > max_depth:
        raise Unreadable(_too_deep(max_depth), regular=True)
    if not isinstance(data, dict):
        raise Unreadable("it is not a JSON object", regular=True)
    return data


def read_legacy(path: Path) -> dict[str, Any]:
    """A legacy memory file given to ``memory import``, read with the same bounds
    (a byte-order mark allowed); anything else is bad input naming the file."""
    try:
        return parse_object(read_bytes(path), bom=True)
    except Unreadable as exc:
        problem = exc.reason
    except OSError as exc:
        problem = f"it could not be read ({exc.strerror or 'unknown error'})"
    raise VibflowError(
        ErrorCode.BAD_INPUT,
        f"{path.name} cannot be imported: {problem}",
        hint="Give the path of a legacy work_memory.json file.",
    )


def nesting_depth(value: Any) -> int:
    """How deeply a parsed JSON value nests (a scalar is 0); walked with a stack of
    its own, so no depth can exhaust Python's."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children: Any = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        depth += 1
        deepest = max(deepest, depth)
        stack.extend((child, depth) for child in children)
    return deepest


def _too_deep(max_depth: int) -> str:
    return f"it is nested more than {max_depth} levels deep"


def _too_large(max_bytes: int) -> str:
    return f"it is larger than {max_bytes // (1024 * 1024)} MB"
