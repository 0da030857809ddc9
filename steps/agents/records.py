"""Where agent sessions and turns are kept: ``.vibflow/agents.db``, a small
SQLite file the agents domain owns.

Why its own file and not a table in the run journal (``runs.db``): the engine
knows nothing of agents, and the journal's health check rightly treats a
schema vibflow's engine never wrote as damage — a table added there by the
domain would make every journal open second-guess itself. A separate file
also keeps the hook's path short: a turn-start hook opens one small database
and never the journal, its audit chain or the flow models. The DESIGN's
"the journal records both" holds in spirit: the records are SQLite, written
in ``BEGIN IMMEDIATE`` transactions (WAL, so ``vibflow rewind`` reads while a
hook writes), and a damaged file is set aside and a fresh one started, the
way the journal does it — a hook must never fail the agent over its records.

Only facts are stored: the agent's name, its session id (reduced to a safe
shape), turn numbers and times, checkpoint ids, and the project-relative
paths the agent's tools reported (through the path contract) with the tool's
name. Never a prompt, never file content. Standard library only (the hook
imports this module).
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

from vibflow.steps.agents.sessions import (
    Session,
    Touched,
    Turn,
    agent_name,
    new_id,
    now_iso,
    safe_session_id,
)

# The values live in .sessions; they are named here too, where callers open the records.
__all__ = [
    "AgentRecords",
    "RecordsDamaged",
    "Session",
    "Touched",
    "Turn",
    "agent_name",
    "new_id",
    "now_iso",
    "safe_session_id",
]

SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY,
  agent TEXT NOT NULL,
  agent_session TEXT NOT NULL,
  started_at TEXT NOT NULL,
  last_seen TEXT NOT NULL,
  ended_at TEXT,
  UNIQUE (agent, agent_session)
);
CREATE TABLE IF NOT EXISTS turns (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(id),
  number INTEGER NOT NULL,
  started_at TEXT NOT NULL,
  ended_at TEXT,
  ended_by TEXT,
  start_checkpoint TEXT,
  end_checkpoint TEXT,
  note TEXT,
  observed INTEGER NOT NULL DEFAULT 0,
  UNIQUE (session_id, number)
);
CREATE TABLE IF NOT EXISTS touched (
  turn_id TEXT NOT NULL REFERENCES turns(id),
  path TEXT NOT NULL,
  tool TEXT NOT NULL,
  at TEXT NOT NULL,
  PRIMARY KEY (turn_id, path, tool)
);
CREATE TABLE IF NOT EXISTS rejected (
  turn_id TEXT NOT NULL REFERENCES turns(id),
  rule TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (turn_id, rule)
);
CREATE INDEX IF NOT EXISTS turns_by_start ON turns (started_at);
"""
_TABLES = frozenset({"sessions", "turns", "touched", "rejected"})


class RecordsDamaged(Exception):
    """The file is not a database this module wrote (it has been set aside)."""


_TURN_COLUMNS = (
    "id, session_id, number, started_at, ended_at, ended_by, start_checkpoint, "
    "end_checkpoint, note, observed"
)


def _turn(row: Sequence[object]) -> Turn:
    return Turn(
        id=str(row[0]),
        session_id=str(row[1]),
        number=int(str(row[2])),
        started_at=str(row[3]),
        ended_at=None if row[4] is None else str(row[4]),
        ended_by=None if row[5] is None else str(row[5]),
        start_checkpoint=None if row[6] is None else str(row[6]),
        end_checkpoint=None if row[7] is None else str(row[7]),
        note=None if row[8] is None else str(row[8]),
        observed=bool(row[9]),
    )


def _session(row: Sequence[object]) -> Session:
    return Session(
        id=str(row[0]),
        agent=str(row[1]),
        agent_session=str(row[2]),
        started_at=str(row[3]),
        last_seen=str(row[4]),
        ended_at=None if row[5] is None else str(row[5]),
    )


class AgentRecords:
    """The sessions and turns of one project (``<state>/agents.db``)."""

    def __init__(
        self,
        path: Path,
        *,
        busy_seconds: float = 5.0,
        on_recovered: Callable[[str], None] | None = None,
    ) -> None:
        self.path = path
        self._busy = busy_seconds
        self._on_recovered = on_recovered
        self._db: sqlite3.Connection | None = None

    # -- opening ----------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(str(self.path), timeout=self._busy, isolation_level=None)
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            tables = {
                r[0]
                for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall()
            }
            if (tables and not tables <= _TABLES) or version > SCHEMA_VERSION:
                raise RecordsDamaged("it holds tables or a version vibflow never wrote")
            if version < SCHEMA_VERSION or tables != _TABLES:
                db.execute("PRAGMA journal_mode=WAL")
                db.executescript(SCHEMA)
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            db.execute("PRAGMA synchronous=NORMAL")
        except BaseException:
            db.close()
            raise
        return db

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            try:
                self._db = self._connect()
            except (sqlite3.DatabaseError, RecordsDamaged) as exc:
                if isinstance(exc, sqlite3.OperationalError) and _busy(exc):
                    raise
                self._set_aside(exc)
                self._db = self._connect()
        return self._db

    def _set_aside(self, exc: Exception) -> None:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.damaged-{stamp}-{os.getpid()}")
        for suffix in ("", "-wal", "-shm"):
            src = Path(str(self.path) + suffix)
            if src.exists():
                src.rename(Path(str(aside) + suffix))
        if self._on_recovered is not None:
            self._on_recovered(
                f"the agent records ({self.path.name}) could not be read "
                f"({type(exc).__name__}); the file was set aside as {aside.name} and a "
                "fresh one started"
            )

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        db = self.db
        deadline = time.monotonic() + self._busy
        while True:
            try:
                db.execute("BEGIN IMMEDIATE")
                break
            except sqlite3.OperationalError as exc:
                if not _busy(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    # -- writing ----------------------------------------------------------------

    def session(self, agent: str, agent_session: str, at: str) -> Session:
        """The session (created on first sight), its last-seen time moved to ``at``."""
        with self._write() as db:
            row = db.execute(
                "SELECT id, agent, agent_session, started_at, last_seen, ended_at FROM sessions "
                "WHERE agent = ? AND agent_session = ?",
                (agent, agent_session),
            ).fetchone()
            if row is None:
                sid = new_id("ses")
                db.execute(
                    "INSERT INTO sessions VALUES (?, ?, ?, ?, ?, NULL)",
                    (sid, agent, agent_session, at, at),
                )
                return Session(sid, agent, agent_session, at, at, None)
            db.execute(
                "UPDATE sessions SET last_seen = ?, ended_at = NULL WHERE id = ?", (at, row[0])
            )
            return _session(row)

    def start_turn(
        self, session_id: str, at: str, checkpoint: str | None, note: str | None
    ) -> Turn:
        with self._write() as db:
            (last,) = db.execute(
                "SELECT COALESCE(MAX(number), 0) FROM turns WHERE session_id = ?", (session_id,)
            ).fetchone()
            turn = Turn(
                new_id("trn"),
                session_id,
                int(last) + 1,
                at,
                None,
                None,
                checkpoint,
                None,
                note,
                False,
            )
            db.execute(
                f"INSERT INTO turns ({_TURN_COLUMNS}) "  # noqa: S608 - a constant column list
                "VALUES (?, ?, ?, ?, NULL, NULL, ?, NULL, ?, 0)",
                (turn.id, session_id, turn.number, at, checkpoint, note),
            )
            return turn

    def end_turn(
        self, turn_id: str, at: str, checkpoint: str | None, ended_by: str, note: str | None = None
    ) -> None:
        with self._write() as db:
            db.execute(
                "UPDATE turns SET ended_at = ?, end_checkpoint = ?, ended_by = ?, "
                "note = COALESCE(note || '; ' || ?, note, ?) WHERE id = ? AND ended_at IS NULL",
                (at, checkpoint, ended_by, note, note, turn_id),
            )

    def touch(self, turn_id: str, files: Iterable[Touched], at: str) -> None:
        rows = [(turn_id, f.path, f.tool, at) for f in files]
        if not rows:
            return
        with self._write() as db:
            db.executemany("INSERT OR IGNORE INTO touched VALUES (?, ?, ?, ?)", rows)

    def reject(self, turn_id: str, rules: dict[str, int]) -> None:
        if not rules:
            return
        with self._write() as db:
            for rule, count in rules.items():
                db.execute(
                    "INSERT INTO rejected VALUES (?, ?, ?) ON CONFLICT (turn_id, rule) "
                    "DO UPDATE SET count = count + excluded.count",
                    (turn_id, rule, count),
                )

    def mark_observed(self, turn_id: str) -> None:
        with self._write() as db:
            db.execute("UPDATE turns SET observed = 1 WHERE id = ?", (turn_id,))

    def end_session(self, session_id: str, at: str) -> None:
        with self._write() as db:
            db.execute(
                "UPDATE sessions SET ended_at = ?, last_seen = ? WHERE id = ?", (at, at, session_id)
            )

    # -- reading ----------------------------------------------------------------

    def open_turn(self, session_id: str) -> Turn | None:
        row = self.db.execute(
            f"SELECT {_TURN_COLUMNS} FROM turns WHERE session_id = ? AND ended_at IS NULL "  # noqa: S608 - a constant column list
            "ORDER BY number DESC LIMIT 1",
            (session_id,),
        ).fetchone()
        return None if row is None else _turn(row)

    def sessions(self, limit: int = 20) -> list[Session]:
        """The most recently active sessions first."""
        rows = self.db.execute(
            "SELECT id, agent, agent_session, started_at, last_seen, ended_at FROM sessions "
            "ORDER BY last_seen DESC LIMIT ?",
            (limit,),
        ).fetchall()
        return [_session(r) for r in rows]

    def find_session(self, wanted: str) -> Session | None:
        """A session by vibflow's id (``ses_…``) or the agent's own id (or a prefix of it)."""
        rows = self.db.execute(
            "SELECT id, agent, agent_session, started_at, last_seen, ended_at FROM sessions "
            "WHERE id = ? OR agent_session = ? OR substr(agent_session, 1, ?) = ? "
            "ORDER BY last_seen DESC",
            (wanted, wanted, len(wanted), wanted),
        ).fetchall()
        return _session(rows[0]) if len(rows) == 1 or (rows and rows[0][0] == wanted) else None

    def get_session(self, session_id: str) -> Session | None:
        row = self.db.execute(
            "SELECT id, agent, agent_session, started_at, last_seen, ended_at FROM sessions "
            "WHERE id = ?",
            (session_id,),
        ).fetchone()
        return None if row is None else _session(row)

    def turns(self, session_id: str) -> list[Turn]:
        rows = self.db.execute(
            f"SELECT {_TURN_COLUMNS} FROM turns WHERE session_id = ? ORDER BY number",  # noqa: S608 - a constant column list
            (session_id,),
        ).fetchall()
        return [_turn(r) for r in rows]

    def get_turn(self, turn_id: str) -> Turn | None:
        row = self.db.execute(
            f"SELECT {_TURN_COLUMNS} FROM turns WHERE id = ?",  # noqa: S608 - constant columns
            (turn_id,),
        ).fetchone()
        return None if row is None else _turn(row)

    def last_turn(self) -> Turn | None:
        row = self.db.execute(
            f"SELECT {_TURN_COLUMNS} FROM turns ORDER BY started_at DESC LIMIT 1"  # noqa: S608 - a constant column list
        ).fetchone()
        return None if row is None else _turn(row)

    def recent_turns(self, limit: int, since: str | None = None) -> list[Turn]:
        """The newest ``limit`` turns (of every session) started after ``since``, newest first."""
        rows = self.db.execute(
            f"SELECT {_TURN_COLUMNS} FROM turns WHERE started_at > ? "  # noqa: S608 - a constant column list
            "ORDER BY started_at DESC LIMIT ?",
            (since or "", limit),
        ).fetchall()
        return [_turn(r) for r in rows]

    def unobserved(self, limit: int = 100) -> list[tuple[Turn, str]]:
        """Ended turns whose files memory has not taken yet (oldest first), each with
        its agent's name: what a deferred observation still has to hand over."""
        rows = self.db.execute(
            f"SELECT {_TURN_COLUMNS}, "  # noqa: S608 - a constant column list
            "(SELECT agent FROM sessions WHERE sessions.id = turns.session_id) "
            "FROM turns WHERE observed = 0 AND ended_at IS NOT NULL ORDER BY ended_at LIMIT ?",
            (limit,),
        ).fetchall()
        return [(_turn(r[:10]), str(r[10])) for r in rows]

    def touched(self, turn_id: str) -> list[Touched]:
        rows = self.db.execute(
            "SELECT DISTINCT path, tool FROM touched WHERE turn_id = ? ORDER BY at, path",
            (turn_id,),
        ).fetchall()
        return [Touched(str(p), str(t)) for p, t in rows]

    def files(self, turn_id: str) -> list[str]:
        """The paths the turn's tools reported, in the order first reported."""
        return list(dict.fromkeys(t.path for t in self.touched(turn_id)))

    def rejected(self, turn_id: str) -> dict[str, int]:
        rows = self.db.execute(
            "SELECT rule, count FROM rejected WHERE turn_id = ?", (turn_id,)
        ).fetchall()
        return {str(r): int(c) for r, c in rows}

    def count_turns(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM turns").fetchone()[0])

    def pinned_checkpoints(
        self, *, keep_sessions: int, keep_days: int, max_turns: int, now: datetime
    ) -> set[str]:
        """Checkpoint ids the kept turns name: every turn of the last ``keep_sessions``
        sessions and of the last ``keep_days`` days, at most the newest ``max_turns``."""
        cutoff = (now - timedelta(days=keep_days)).isoformat().replace("+00:00", "Z")
        rows = self.db.execute(
            "SELECT start_checkpoint, end_checkpoint FROM turns WHERE session_id IN "
            "(SELECT id FROM sessions ORDER BY last_seen DESC LIMIT ?) OR started_at >= ? "
            "ORDER BY started_at DESC LIMIT ?",
            (keep_sessions, cutoff, max_turns),
        ).fetchall()
        return {str(c) for row in rows for c in row if c}

    def prune(self, *, keep_sessions: int, keep_days: int, now: datetime) -> int:
        """Forget the turns nothing can use any more; the number of turns forgotten.

        A turn is forgotten when it ended, memory has taken its files, it started
        more than ``keep_days`` days ago and its session is not one of the newest
        ``keep_sessions`` — the records would otherwise grow with every turn for
        the life of the project. Sessions left without turns go with them once
        they are as old. Callers pass a ``keep_days`` at least the checkpoints'
        own, so a turn that can still be rewound is never forgotten.
        """
        cutoff = (now - timedelta(days=keep_days)).isoformat().replace("+00:00", "Z")
        old = (
            "SELECT id FROM turns WHERE ended_at IS NOT NULL AND observed = 1 "
            "AND started_at < ? AND session_id NOT IN "
            "(SELECT id FROM sessions ORDER BY last_seen DESC LIMIT ?)"
        )
        with self._write() as db:
            for table in ("touched", "rejected"):
                db.execute(
                    f"DELETE FROM {table} WHERE turn_id IN ({old})",  # noqa: S608 - constant names
                    (cutoff, keep_sessions),
                )
            gone = db.execute(f"DELETE FROM turns WHERE id IN ({old})", (cutoff, keep_sessions))  # noqa: S608 - constant query
            db.execute(
                "DELETE FROM sessions WHERE last_seen < ? AND id NOT IN "
                "(SELECT DISTINCT session_id FROM turns)",
                (cutoff,),
            )
            return int(gone.rowcount)


def _busy(exc: sqlite3.OperationalError) -> bool:
    name = getattr(exc, "sqlite_errorname", "") or ""
    return name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED"))
