"""The run journal: runs, their transitions, item progress and recaps in SQLite.

Every transition is *one* atomic write (``BEGIN IMMEDIATE`` … ``COMMIT``): the
journal row and the run's new state/status/context land together or not at
all. WAL mode lets the CLI, the MCP server and a git hook share the file; the
``synchronous`` level is policy (FULL by default: a committed transition
survives power loss). Writes that change a run check the expected sequence
number *and* the owner token, so a process that lost ownership of a run can
never write over the one that took it.

A file that is not a database, or one SQLite finds damaged (when it is
opened, or later by any read or write), is checked with ``quick_check``,
moved aside (never overwritten) and a fresh journal started — and the user is
told (``on_recovered``, which the front door turns into a warning on stderr
and in ``--json`` output): a journal that silently became empty would look
like "no runs yet". A journal made by a newer vibflow is refused untouched.
SQLite's errors are told apart by their result code (``sqlite_errorname``),
never by message text, which changes between SQLite versions.

:class:`Journal` implements :class:`~vibflow.engine.records.JournalStore`, the
contract the runner depends on; the in-memory
:class:`~vibflow.engine.testing.MemoryJournal` implements it for dry runs and
tests.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from vibflow.engine.clock import Clock, stamp, system_clock, utcnow
from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.journal_db import connect, immediate, is_damage
from vibflow.engine.journal_health import (
    not_a_file,
    quick_check,
    sqlite_code,
)
from vibflow.engine.kinds import FINISHED, UNFINISHED, RunStatus
from vibflow.engine.records import (
    Entry,
    JournalStore,
    Owner,
    RunRecord,
    RunUpdate,
    applied,
    encode_context,
)

# Re-exported: the front doors and steps import these from here.
__all__ = [
    "FINISHED",
    "UNFINISHED",
    "Entry",
    "Journal",
    "JournalStore",
    "Owner",
    "RunRecord",
    "RunStatus",
    "RunUpdate",
    "applied",
    "encode_context",
    "utcnow",
]


class Journal:
    """The SQLite journal of one project (``.vibflow/runs.db``)."""

    def __init__(
        self,
        path: Path,
        *,
        synchronous: str = "FULL",
        clock: Clock = system_clock,
        on_recovered: Callable[[str], None] | None = None,
    ) -> None:
        self.path = path
        self.backup: Path | None = None
        self.notice: str | None = None
        self._clock = clock
        self._on_recovered = on_recovered
        self._synchronous = "FULL" if synchronous == "FULL" else "NORMAL"
        path.parent.mkdir(parents=True, exist_ok=True)
        odd = not_a_file(path)
        if odd is not None:
            # SQLite would block on a FIFO or read a device forever: set it
            # aside like a damaged journal, untouched.
            self.backup = self._move_aside()
            self._told(f"was {odd}, not a file")
        try:
            self._db = connect(self.path, synchronous)
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            if not is_damage(self.path, exc):
                raise VibflowError(
                    ErrorCode.STORE_ERROR, f"cannot open the run journal: {exc}"
                ) from exc
            self._db = self._recover(exc)

    @property
    def display(self) -> str:
        """The journal's path as shown to users (never absolute)."""
        return f"{self.path.parent.name}/{self.path.name}"

    def _recover(self, exc: sqlite3.DatabaseError | UnicodeDecodeError) -> sqlite3.Connection:
        """Back the damaged file up, start a fresh journal, and say so."""
        not_a_db = sqlite_code(exc) == "SQLITE_NOTADB"
        finding = None if not_a_db else quick_check(self.path)
        self.backup = self._move_aside()
        db = connect(self.path, self._synchronous)
        self._told(
            f"was damaged (quick_check: {finding})"
            if finding
            else ("was not a readable database" if not_a_db else "was damaged")
        )
        return db

    def _told(self, why: str) -> None:
        assert self.backup is not None  # noqa: S101 - called right after the move
        self.notice = (
            f"the run journal {self.display} {why}; it was backed up to "
            f"{self.path.parent.name}/{self.backup.name} and a fresh journal started "
            "(runs recorded before are in the backup)"
        )
        if self._on_recovered is not None:
            self._on_recovered(self.notice)

    def _fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        """Rows of a read; a damaged journal is backed up and the read answered
        from the fresh one (which knows nothing yet)."""
        try:
            return self._db.execute(sql, args).fetchall()
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            if not is_damage(self.path, exc):
                raise VibflowError(
                    ErrorCode.STORE_ERROR, f"cannot read the run journal: {exc}"
                ) from exc
            self._db.close()
            self._db = self._recover(exc)
            return self._db.execute(sql, args).fetchall()

    def _move_aside(self) -> Path:
        when = self._clock().strftime("%Y%m%dT%H%M%S%fZ")
        backup = self.path.with_name(f"{self.path.name}.corrupt-{when}")
        self.path.rename(backup)
        for suffix in ("-wal", "-shm"):
            side = self.path.with_name(self.path.name + suffix)
            if side.exists():
                side.rename(backup.with_name(backup.name + suffix))
        return backup

    def close(self) -> None:
        self._db.close()

    def _now(self) -> str:
        return stamp(self._clock())

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        try:
            with immediate(self._db) as db:
                yield db
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            if is_damage(self.path, exc):
                # The write cannot be trusted to the damaged file, nor replayed
                # on a fresh one (the run it changes is in the backup).
                self._db.close()
                self._db = self._recover(exc)
                raise VibflowError(
                    ErrorCode.STORE_CORRUPT,
                    f"{self.notice}; the change was not recorded",
                    hint="Run the command again.",
                ) from exc
            raise VibflowError(ErrorCode.STORE_ERROR, f"run journal write failed: {exc}") from exc

    # -- runs ---------------------------------------------------------------

    def create_run(self, run: RunRecord) -> None:
        entry = Entry(run.run_id, 0, "start", None, None, run.state, at=run.created_at)
        with self.transaction() as db:
            db.execute(
                "INSERT OR IGNORE INTO definitions VALUES (?,?,?)",
                (run.definition_digest, run.flow, run.definition),
            )
            db.execute(
                "INSERT INTO runs VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                _run_row(run),
            )
            _insert_entry(db, entry, run.created_at)

    def get(self, run_id: str) -> RunRecord | None:
        rows = self._fetch(f"{_SELECT_RUN} WHERE r.run_id=?", (run_id,))
        return _run(rows[0]) if rows else None

    def runs(
        self, statuses: Sequence[str] | None = None, *, limit: int = 50, flow: str | None = None
    ) -> list[RunRecord]:
        args: list[Any] = []
        where: list[str] = []
        if statuses:
            where.append(f"status IN ({','.join('?' * len(statuses))})")
            args += list(statuses)
        if flow:
            where.append("flow=?")
            args.append(flow)
        # The newest runs are picked by their sort keys alone, then read whole:
        # sorting every run's full row (its context, the joined definition) to
        # keep `limit` of them cost ~4 ms at 1,000 runs, the pick ~1 ms. (A run's
        # definition row is written in the transaction that creates the run.)
        pick = "SELECT rowid FROM runs"
        if where:
            pick += " WHERE " + " AND ".join(where)
        pick += " ORDER BY updated_at DESC, rowid DESC LIMIT ?"
        args.append(limit)
        sql = f"{_SELECT_RUN} WHERE r.rowid IN ({pick}) ORDER BY r.updated_at DESC, r.rowid DESC"
        return [_run(r) for r in self._fetch(sql, args)]

    def advance(
        self,
        run: RunRecord,
        entry: Entry,
        update: RunUpdate,
        owner: Owner | None,
        *,
        expect_token: str | None,
        attempt_increment: bool = False,
        recap: dict[str, Any] | None = None,
    ) -> RunRecord:
        """Write one journal entry, the run's new values (and a recap), atomically.

        Fails with BUSY if the run moved on (another seq) or changed owner
        since ``run`` was read: a process that lost a run never writes to it.
        """
        now = entry.at or self._now()
        context_json = update.context_json or encode_context(update.context)
        new_owner = owner if update.keep_owner else None
        recap_id = recap["id"] if recap else None
        with self.transaction() as db:
            cur = db.execute(
                """UPDATE runs SET status=?, state=?, context=?, blocked_reason=?, pending_event=?,
                       pending_inputs=?, error=?, owner_pid=?, owner_host=?, owner_started=?,
                       owner_token=?, seq=?, attempt=attempt+?, recap_id=COALESCE(?, recap_id),
                       updated_at=?
                   WHERE run_id=? AND seq=? AND owner_token IS ?""",
                (
                    update.status,
                    update.state,
                    context_json,
                    update.blocked_reason,
                    update.pending_event,
                    json.dumps(update.pending_inputs)
                    if update.pending_inputs is not None
                    else None,
                    update.error,
                    *(_owner_cols(new_owner)),
                    entry.seq,
                    1 if attempt_increment else 0,
                    recap_id,
                    now,
                    run.run_id,
                    entry.seq - 1,
                    expect_token,
                ),
            )
            if cur.rowcount != 1:
                raise VibflowError(
                    ErrorCode.BUSY,
                    f"run {run.run_id} was changed by another process",
                    hint=f"See `vibflow runs show {run.run_id}`.",
                )
            _insert_entry(db, entry, now)
            if recap is not None:
                db.execute(
                    "INSERT INTO recaps VALUES (?,?,?,?,?)",
                    (
                        recap["id"],
                        recap["kind"],
                        recap["subject_id"],
                        recap["generated_at"],
                        json.dumps(recap, sort_keys=True),
                    ),
                )
        return applied(
            run,
            entry,
            update,
            owner=new_owner,
            updated_at=now,
            attempt_increment=attempt_increment,
            recap_id=recap_id,
        )

    def claim(
        self,
        run_id: str,
        owner: Owner,
        *,
        expect_seq: int,
        expect_token: str | None,
        attempt_increment: bool = False,
    ) -> bool:
        """Take ownership of a run if nobody else did since it was read."""
        with self.transaction() as db:
            cur = db.execute(
                """UPDATE runs SET owner_pid=?, owner_host=?, owner_started=?, owner_token=?,
                       attempt=attempt+?, updated_at=?
                   WHERE run_id=? AND seq=? AND owner_token IS ?""",
                (
                    *_owner_cols(owner),
                    1 if attempt_increment else 0,
                    self._now(),
                    run_id,
                    expect_seq,
                    expect_token,
                ),
            )
            return cur.rowcount == 1

    def release(self, run_id: str, token: str, *, audited: bool) -> None:
        """Give up ownership; with ``audited``, every entry so far has its audit row.

        Written without an fsync: losing it to a power cut only means the next
        process takes over from a dead owner and re-checks the audit, which
        is idempotent.
        """
        try:
            self._db.execute("PRAGMA synchronous=NORMAL")
            with self.transaction() as db:
                db.execute(
                    """UPDATE runs SET owner_pid=NULL, owner_host=NULL, owner_started=NULL,
                           owner_token=NULL,
                           audited_seq=CASE WHEN ? THEN seq ELSE audited_seq END
                       WHERE run_id=? AND owner_token=?""",
                    (1 if audited else 0, run_id, token),
                )
        finally:
            self._db.execute(f"PRAGMA synchronous={self._synchronous}")

    def entries(self, run_id: str) -> list[Entry]:
        rows = self._fetch("SELECT * FROM entries WHERE run_id=? ORDER BY seq", (run_id,))
        return [
            Entry(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6]), r[7], r[8], r[9])
            for r in rows
        ]

    # -- per-item progress ----------------------------------------------------

    def mark_items(self, run_id: str, state: str, keys: Iterable[str]) -> None:
        now = self._now()
        with self.transaction() as db:
            db.executemany(
                "INSERT OR IGNORE INTO items VALUES (?,?,?,?)",
                [(run_id, state, k, now) for k in keys],
            )

    def done_items(self, run_id: str, state: str) -> set[str]:
        rows = self._fetch("SELECT key FROM items WHERE run_id=? AND state=?", (run_id, state))
        return {r[0] for r in rows}

    # -- the audit log's anchor ---------------------------------------------------

    def anchor_audit(
        self, sequence: int, row_hash: str, *, gap: tuple[int, int] | None = None
    ) -> None:
        """Record the audit log's newest row (called under the audit lock, after the
        row is written). ``gap`` — ``(anchored, found)`` when the log's tail was
        found below the anchored sequence — is kept, so that rows appended after
        a truncation cannot hide it."""
        now = self._now()
        try:
            # Like release(): losing this to a power cut only weakens the check.
            self._db.execute("PRAGMA synchronous=NORMAL")
            with self.transaction() as db:
                db.execute(
                    """INSERT INTO audit_anchor VALUES (1, ?, ?, ?)
                       ON CONFLICT(id) DO UPDATE SET sequence=excluded.sequence,
                           hash=excluded.hash, at=excluded.at""",
                    (sequence, row_hash, now),
                )
                if gap is not None:
                    db.execute("INSERT INTO audit_gaps VALUES (?,?,?)", (*gap, now))
        finally:
            self._db.execute(f"PRAGMA synchronous={self._synchronous}")

    def audit_anchor(self) -> tuple[int, str] | None:
        """The audit log's newest ``(sequence, hash)`` as last recorded, if any."""
        rows = self._fetch("SELECT sequence, hash FROM audit_anchor WHERE id=1")
        return (int(rows[0][0]), str(rows[0][1])) if rows else None

    def audit_gaps(self) -> list[tuple[int, int, str]]:
        """Gaps found while appending: ``(anchored_sequence, found_sequence, detected_at)``."""
        return [
            (int(a), int(f), str(at))
            for a, f, at in self._fetch(
                "SELECT anchored_sequence, found_sequence, detected_at FROM audit_gaps "
                "ORDER BY detected_at"
            )
        ]

    # -- recaps -----------------------------------------------------------------

    def save_recap(
        self, recap_id: str, kind: str, subject_id: str, generated_at: str, body: dict[str, Any]
    ) -> None:
        with self.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO recaps VALUES (?,?,?,?,?)",
                (recap_id, kind, subject_id, generated_at, json.dumps(body, sort_keys=True)),
            )
            if kind == "run":
                db.execute("UPDATE runs SET recap_id=? WHERE run_id=?", (recap_id, subject_id))

    def get_recap(self, recap_id: str) -> dict[str, Any] | None:
        rows = self._fetch("SELECT body FROM recaps WHERE recap_id=?", (recap_id,))
        return json.loads(rows[0][0]) if rows else None

    def latest_recap(
        self, kind: str | None = None, *, subject: str | None = None
    ) -> dict[str, Any] | None:
        """The body of the recap written last (of ``kind``, or any); None: none yet."""
        found = self.recaps(kind, limit=1, subject=subject)
        return found[0] if found else None

    def recaps(
        self, kind: str | None = None, *, limit: int = 20, subject: str | None = None
    ) -> list[dict[str, Any]]:
        """Recap bodies, newest first (of ``kind``, or every kind; of ``subject``, or
        any). With a subject the index finds them; without, every recap is read."""
        if subject is not None:
            rows = self._fetch(
                "SELECT body FROM recaps WHERE subject_id=?3 AND (?1 IS NULL OR kind=?1) "
                "ORDER BY generated_at DESC, rowid DESC LIMIT ?2",
                (kind, limit, subject),
            )
        else:
            rows = self._fetch(
                "SELECT body FROM recaps WHERE (?1 IS NULL OR kind=?1) "
                "ORDER BY generated_at DESC, rowid DESC LIMIT ?2",
                (kind, limit),
            )
        return [json.loads(r[0]) for r in rows]


def _owner_cols(owner: Owner | None) -> tuple[Any, Any, Any, Any]:
    if owner is None:
        return (None, None, None, None)
    return (owner.pid, owner.host, owner.started, owner.token)


def _insert_entry(db: sqlite3.Connection, e: Entry, now: str) -> None:
    db.execute(
        "INSERT INTO entries VALUES (?,?,?,?,?,?,?,?,?,?)",
        (
            e.run_id,
            e.seq,
            e.kind,
            e.from_state,
            e.event,
            e.to_state,
            json.dumps(e.guards, separators=(",", ":")),
            e.outcome,
            e.started_at,
            e.at or now,
        ),
    )


_SELECT_RUN = """SELECT r.run_id, r.flow, r.flow_version, r.origin, r.definition_digest,
    r.policy_digest, r.status, r.state, r.context, r.blocked_reason, r.pending_event,
    r.pending_inputs, r.error, r.owner_pid, r.owner_host, r.owner_started, r.owner_token, r.seq,
    r.audited_seq, r.attempt, r.recap_id, r.parent_run, r.created_at, r.updated_at, d.body
    FROM runs AS r JOIN definitions AS d ON d.digest = r.definition_digest"""


def _run_row(r: RunRecord) -> tuple[Any, ...]:
    return (
        r.run_id, r.flow, r.flow_version, r.origin, r.definition_digest, r.policy_digest,
        r.status, r.state, json.dumps(r.context, sort_keys=True, separators=(",", ":")),
        r.blocked_reason, r.pending_event,
        json.dumps(r.pending_inputs) if r.pending_inputs is not None else None,
        r.error, *_owner_cols(r.owner), r.seq, r.audited_seq, r.attempt, r.recap_id,
        r.parent_run, r.created_at, r.updated_at,
    )  # fmt: skip


def _run(row: Sequence[Any]) -> RunRecord:
    owner = Owner(row[13], row[14], row[15], row[16]) if row[16] else None
    return RunRecord(
        run_id=row[0], flow=row[1], flow_version=row[2], origin=row[3], definition=row[24],
        definition_digest=row[4], policy_digest=row[5], status=RunStatus(row[6]), state=row[7],
        context=json.loads(row[8]), blocked_reason=row[9], pending_event=row[10],
        pending_inputs=json.loads(row[11]) if row[11] else None, error=row[12], owner=owner,
        seq=row[17], audited_seq=row[18], attempt=row[19], recap_id=row[20],
        parent_run=row[21], created_at=row[22], updated_at=row[23],
    )  # fmt: skip
