"""How the run journal tells a damaged file from a busy or failing one.

SQLite's errors are told apart by their result code (``sqlite_errorname``),
never by message text, which changes between SQLite versions. A file that is
damaged — or is not a file at all — is set aside by the journal and a fresh
one started; these checks decide that, and describe the damage for the
user (``quick_check``'s first finding). They only read.
"""

from __future__ import annotations

import sqlite3
import stat
from pathlib import Path

# SQLite result codes (primary, without the extended suffix) that mean "not a
# database we can read": the file is moved aside and a fresh journal started.
UNREADABLE = frozenset({"SQLITE_NOTADB", "SQLITE_CORRUPT"})
# ... and that mean "another connection holds the write lock": wait and retry.
CONTENDED = frozenset({"SQLITE_BUSY", "SQLITE_LOCKED"})


def sqlite_code(exc: sqlite3.Error | UnicodeDecodeError) -> str:
    """The primary result code's name, e.g. ``SQLITE_BUSY`` for ``SQLITE_BUSY_SNAPSHOT``."""
    name = getattr(exc, "sqlite_errorname", None) or ""
    return "_".join(name.split("_")[:2])


def not_a_file(path: Path) -> str | None:
    """What ``path`` is when it exists but is not a regular file (or a link to one)."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "a dangling link" if path.is_symlink() else None
    except OSError:
        return "unreadable (a link loop or no permission)"
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    return "a device or special file"


def schema_differs(path: Path, schema: str) -> bool:
    """Whether the file's schema differs from what ``schema`` (SQL) creates, or is unreadable."""
    expected = sqlite3.connect(":memory:")
    try:
        for stmt in filter(str.strip, schema.split(";")):
            expected.execute(stmt)
        want = expected.execute("SELECT name, sql FROM sqlite_master ORDER BY name").fetchall()
    finally:
        expected.close()
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5.0)
    except sqlite3.Error:
        return True
    try:
        have = con.execute("SELECT name, sql FROM sqlite_master ORDER BY name").fetchall()
    except (sqlite3.Error, UnicodeDecodeError):
        return True
    finally:
        con.close()
    return have != want


def quick_check(path: Path) -> str | None:
    """SQLite's first finding about a damaged file (read-only), or None."""
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5.0)
    except sqlite3.Error:
        return None
    try:
        row = con.execute("PRAGMA quick_check(1)").fetchone()
    except (sqlite3.Error, UnicodeDecodeError) as exc:
        return sqlite_code(exc).removeprefix("SQLITE_").lower() or "unreadable"
    finally:
        con.close()
    finding = str(row[0]) if row else "unreadable"
    if finding == "ok":
        return None
    # One line, short (the backup keeps the detail for whoever inspects it),
    # skipping SQLite's "*** in database main ***" header.
    lines = [ln for ln in finding.splitlines() if ln.strip() and not ln.startswith("***")]
    return (lines[0] if lines else finding.splitlines()[0])[:160]
