"""Reading a hand-edited flow or policy file as the hostile input it may be.

A path named like a YAML file can be anything: a named pipe (reading it waits
forever for a writer), a link to ``/dev/zero`` (it never ends), a folder, or
a file of gigabytes. :func:`read_source` opens without blocking, checks the
open descriptor is a regular file, and reads at most :data:`MAX_SOURCE_BYTES`;
anything else is a located :class:`VibflowError` (bad input, exit 2).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from vibflow.engine.errors import ErrorCode, SourceLocation, VibflowError

#: The largest flow or policy file read: the shipped ones are under 2 KB, and
#: the round-trip parser (pure Python, for positions) needs about a second
#: per 100 KB, so the cap also bounds how long a load can take.
MAX_SOURCE_BYTES = 64 * 1024


def read_source(path: Path, display: str, *, code: ErrorCode = ErrorCode.YAML_SYNTAX) -> str:
    """The text of a hand-edited YAML file, read defensively.

    Opened without blocking (a FIFO would wait forever for a writer) and
    checked on the open descriptor to be a regular file; read up to
    :data:`MAX_SOURCE_BYTES` and no further (``/dev/zero`` never ends).
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise VibflowError(
            code,
            f"cannot read {display} ({exc.strerror or type(exc).__name__})",
            hint="Check that the file exists and is readable.",
        ) from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise VibflowError(
                code,
                f"{display} is {file_kind(info.st_mode)}, not a regular file",
                hint="Replace it with a plain YAML file.",
            )
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_SOURCE_BYTES:
            chunk = os.read(fd, MAX_SOURCE_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise VibflowError(code, f"cannot read {display} ({exc.strerror})") from exc
    finally:
        os.close(fd)
    if size > MAX_SOURCE_BYTES:
        raise too_big(display, code)
    try:
        return b"".join(chunks).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise VibflowError(
            code,
            f"{display} is not UTF-8 text",
            hint="Save the file as UTF-8.",
            location=SourceLocation(display, *_position_bytes(b"".join(chunks), exc.start)),
        ) from exc


def _position_bytes(raw: bytes, offset: int) -> tuple[int, int]:
    before = raw[:offset]
    return before.count(b"\n") + 1, offset - (before.rfind(b"\n") + 1) + 1


def file_kind(mode: int) -> str:
    """What a file that is not a regular one is, in words."""
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def too_big(display: str, code: ErrorCode) -> VibflowError:
    return VibflowError(
        code,
        f"{display} is larger than {MAX_SOURCE_BYTES // 1024} KiB, too large for a flow "
        "or policy file",
        hint="Keep it to the settings you change.",
        location=SourceLocation(display, 1, 1),
    )
