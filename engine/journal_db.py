"""Opening the run journal's SQLite file, its write transactions, and telling
damage from a busy or failing disk: the connection-level part of
:class:`~vibflow.engine.journal.Journal`."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.journal_health import (
    CONTENDED,
    UNREADABLE,
    schema_differs,
    sqlite_code,
)
from vibflow.engine.journal_schema import AUDIT_SCHEMA, SCHEMA, SCHEMA_VERSION


def is_damage(path: Path, exc: sqlite3.DatabaseError | UnicodeDecodeError) -> bool:
    """Whether ``exc`` means the file is damaged (then it is set aside), as
    opposed to a busy, full or failing disk (then the command fails)."""
    if isinstance(exc, UnicodeDecodeError):
        # A name in a damaged schema that is not UTF-8 even breaks the
        # error message SQLite reports it in.
        return True
    code = sqlite_code(exc)
    if code in UNREADABLE:
        return True
    if not code:
        # Stored text that is not UTF-8 (Python cannot decode it): vibflow
        # only ever writes str, so only outside damage puts such bytes there.
        return isinstance(exc, sqlite3.OperationalError)
    # "no such table/column": a query of ours meets a schema it never wrote.
    return code == "SQLITE_ERROR" and schema_differs(path, SCHEMA + AUDIT_SCHEMA)


@contextmanager
def immediate(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """A write transaction (``BEGIN IMMEDIATE``), waiting a little while another
    process holds the lock; rolled back if the body raises."""
    for attempt in range(50):
        try:
            db.execute("BEGIN IMMEDIATE")
            break
        except sqlite3.OperationalError as exc:
            if sqlite_code(exc) not in CONTENDED:
                raise
            time.sleep(min(0.01 * (attempt + 1), 0.2))
    else:
        raise VibflowError(
            ErrorCode.BUSY,
            "the run journal is busy (another vibflow process holds it)",
            hint="Try again in a moment.",
        )
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def connect(path: Path, synchronous: str) -> sqlite3.Connection:
    """The journal at ``path``, its schema created or completed (WAL, the chosen
    ``synchronous``); a file from a newer vibflow is left byte-identical."""
    db = sqlite3.connect(path, isolation_level=None, timeout=30.0, check_same_thread=False)
    try:
        # Read the version before anything that writes (WAL changes the
        # header): a journal from a newer vibflow must stay byte-identical.
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise VibflowError(
                ErrorCode.STORE_ERROR,
                f"the run journal was written by a newer vibflow (schema {version}, this one "
                f"knows {SCHEMA_VERSION})",
                hint="Upgrade vibflow; the journal was left untouched.",
            )
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(f"PRAGMA synchronous={'FULL' if synchronous == 'FULL' else 'NORMAL'}")
        if version == 0:
            with immediate(db):
                if db.execute("PRAGMA user_version").fetchone()[0] == 0:
                    for stmt in filter(str.strip, SCHEMA.split(";")):
                        db.execute(stmt)
                    db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        has_anchor = db.execute(
            "SELECT count(*) FROM sqlite_master WHERE name='audit_gaps'"
        ).fetchone()[0]
        if not has_anchor:
            with immediate(db):
                for stmt in filter(str.strip, AUDIT_SCHEMA.split(";")):
                    db.execute(stmt)
        # Touch a table so a corrupt file fails here, not mid-run.
        db.execute("SELECT count(*) FROM runs").fetchone()
    except BaseException:
        db.close()
        raise
    return db
