"""In-memory stand-ins for the engine's I/O seams, shipped with the engine.

:class:`MemoryJournal` implements :class:`~vibflow.engine.records.JournalStore`
and :class:`MemoryAudit` implements :class:`~vibflow.engine.audit.AuditSink`
with the same contracts as the SQLite journal and the audit file — the
compare-and-set on ``seq`` and owner token, rows chained and validated as
count-only — but nothing touches the disk. Dry runs use them (a dry run
writes nothing), and so can tests that drive a :class:`~vibflow.engine.runner.Runner`
without a project, together with a :class:`FixedClock`. The way httpx ships
``MockTransport`` and structlog ``structlog.testing``: the fakes live beside
the real things, so they change together.
"""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from vibflow.engine.audit import GENESIS, AuditEvent, AuditLog, AuditSink, Row, chain_rows
from vibflow.engine.clock import Clock, stamp, system_clock
from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.records import Entry, JournalStore, Owner, RunRecord, RunUpdate, applied

if TYPE_CHECKING:
    from vibflow.engine.journal import Journal


class FixedClock:
    """A clock that starts at ``start`` and moves ``tick`` forward on every read."""

    def __init__(
        self,
        start: datetime = datetime(2024, 1, 1, tzinfo=UTC),
        tick: timedelta = timedelta(0),
    ) -> None:
        self.now = start
        self.tick = tick

    def __call__(self) -> datetime:
        now = self.now
        self.now = now + self.tick
        return now


def _stored(run: RunRecord) -> RunRecord:
    """A copy as a store would give it back: the JSON fields round-tripped."""
    out = copy.copy(run)
    out.context = json.loads(json.dumps(run.context))
    if run.pending_inputs is not None:
        out.pending_inputs = json.loads(json.dumps(run.pending_inputs))
    return out


class MemoryJournal:
    """A :class:`~vibflow.engine.records.JournalStore` held in this process."""

    def __init__(self, *, clock: Clock = system_clock) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._runs: dict[str, RunRecord] = {}
        self._order: dict[str, int] = {}  # creation order, the tie-break of ``runs``
        self._entries: dict[str, list[Entry]] = {}
        self._items: dict[tuple[str, str], set[str]] = {}
        self._recaps: dict[str, dict[str, Any]] = {}

    def create_run(self, run: RunRecord) -> None:
        with self._lock:
            if run.run_id in self._runs:
                raise VibflowError(
                    ErrorCode.STORE_ERROR, f"run journal write failed: {run.run_id} exists"
                )
            self._runs[run.run_id] = _stored(run)
            self._order[run.run_id] = len(self._order)
            start = Entry(run.run_id, 0, "start", None, None, run.state, at=run.created_at)
            self._entries[run.run_id] = [start]

    def get(self, run_id: str) -> RunRecord | None:
        run = self._runs.get(run_id)
        return _stored(run) if run is not None else None

    def runs(
        self, statuses: Sequence[str] | None = None, *, limit: int = 50, flow: str | None = None
    ) -> list[RunRecord]:
        found = [
            r
            for r in self._runs.values()
            if (not statuses or r.status in statuses) and (not flow or r.flow == flow)
        ]
        found.sort(key=lambda r: (r.updated_at, self._order[r.run_id]), reverse=True)
        return [_stored(r) for r in found[:limit]]

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
        now = entry.at or stamp(self._clock())
        new_owner = owner if update.keep_owner else None
        recap_id = recap["id"] if recap else None
        with self._lock:
            stored = self._runs.get(run.run_id)
            if stored is None or stored.seq != entry.seq - 1 or _token(stored) != expect_token:
                raise VibflowError(
                    ErrorCode.BUSY,
                    f"run {run.run_id} was changed by another process",
                    hint=f"See `vibflow runs show {run.run_id}`.",
                )
            written = applied(
                stored,
                entry,
                update,
                owner=new_owner,
                updated_at=now,
                attempt_increment=attempt_increment,
                recap_id=recap_id,
            )
            self._runs[run.run_id] = _stored(written)
            self._entries[run.run_id].append(entry if entry.at else _at(entry, now))
            if recap is not None:
                self._recaps[recap["id"]] = copy.deepcopy(recap)
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
        with self._lock:
            stored = self._runs.get(run_id)
            if stored is None or stored.seq != expect_seq or _token(stored) != expect_token:
                return False
            stored.owner = owner
            stored.attempt += 1 if attempt_increment else 0
            stored.updated_at = stamp(self._clock())
            return True

    def release(self, run_id: str, token: str, *, audited: bool) -> None:
        with self._lock:
            stored = self._runs.get(run_id)
            if stored is None or _token(stored) != token:
                return
            stored.owner = None
            if audited:
                stored.audited_seq = stored.seq

    def entries(self, run_id: str) -> list[Entry]:
        return list(self._entries.get(run_id, []))

    def mark_items(self, run_id: str, state: str, keys: Iterable[str]) -> None:
        with self._lock:
            self._items.setdefault((run_id, state), set()).update(keys)

    def done_items(self, run_id: str, state: str) -> set[str]:
        return set(self._items.get((run_id, state), set()))

    def save_recap(
        self, recap_id: str, kind: str, subject_id: str, generated_at: str, body: dict[str, Any]
    ) -> None:
        del generated_at  # part of the body; the SQLite journal indexes by it
        with self._lock:
            self._recaps[recap_id] = copy.deepcopy(body)
            if kind == "run" and subject_id in self._runs:
                self._runs[subject_id].recap_id = recap_id

    def get_recap(self, recap_id: str) -> dict[str, Any] | None:
        body = self._recaps.get(recap_id)
        return copy.deepcopy(body) if body is not None else None

    def close(self) -> None:
        pass


def _token(run: RunRecord) -> str | None:
    return run.owner.token if run.owner else None


def _at(entry: Entry, now: str) -> Entry:
    return Entry(
        entry.run_id,
        entry.seq,
        entry.kind,
        entry.from_state,
        entry.event,
        entry.to_state,
        entry.guards,
        entry.outcome,
        entry.started_at,
        now,
    )


class MemoryAudit:
    """An :class:`~vibflow.engine.audit.AuditSink` held in this process.

    ``rows`` are the rows as the audit file would hold them (numbered,
    hash-chained, validated as count-only).
    """

    def __init__(
        self,
        *,
        project_root_hash: str = "0" * 64,
        tool: str = "cli",
        clock: Clock = system_clock,
    ) -> None:
        self._root_hash = project_root_hash
        self._tool = tool
        self._clock = clock
        self._lock = threading.Lock()
        self.rows: list[dict[str, Any]] = []

    def append(self, event: str, **facts: Any) -> AuditEvent:
        return self.append_many([(event, facts)])[-1]

    def append_many(self, rows: list[Row]) -> list[AuditEvent]:
        with self._lock:
            return self._append(rows)

    def append_missing(self, run_id: str, rows: dict[int, Row]) -> int:
        with self._lock:
            have = self.recorded_transitions(run_id)
            missing = [rows[seq] for seq in sorted(rows) if seq not in have]
            self._append(missing)
        return len(missing)

    def recorded_transitions(self, run_id: str) -> set[int]:
        return {
            row["transition_seq"]
            for row in self.rows
            if row.get("run_id") == run_id and isinstance(row.get("transition_seq"), int)
        }

    def _append(self, rows: list[Row]) -> list[AuditEvent]:
        if not rows:
            return []
        last = self.rows[-1] if self.rows else None
        after = (last["sequence_number"], last["hash"]) if last else (0, GENESIS)
        chained = chain_rows(
            rows,
            after=after,
            timestamp=stamp(self._clock()),
            tool=self._tool,
            project_root_hash=self._root_hash,
        )
        self.rows.extend(row for row, _ in chained)
        return [event for _, event in chained]


if TYPE_CHECKING:  # mypy holds each store and sink to the contract the runner uses

    def _conforms(journal: Journal, log: AuditLog) -> tuple[list[JournalStore], list[AuditSink]]:
        return [journal, MemoryJournal()], [log, MemoryAudit()]
