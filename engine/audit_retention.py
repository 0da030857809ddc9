"""Audit retention: roll the oldest rows into count-only summaries, crash-safely.

A retention keeps the audit log from becoming operational debt (spec §15):
rows older than ``retention_days`` — or, once the log is larger than
``max_bytes``, every row before the active P0 window — are compacted into one
:class:`~.audit_rollover.RolloverSummary` under ``.vibflow/recovery/`` and
removed from the log. Rows inside the active P0 window are never compacted
(the window is capped at ``max_active_window_days``), the newest row always
stays (an append finds the chain's tail in the log), and only a log that
verifies is touched: a damaged log is evidence, so it is left for review.

Crash-safety, in this order, under the lock every append holds:

1. the summary is written (atomic): a crash here leaves the log whole and a
   summary covering rows still in it — the log verifies (the covered rows
   still carry the hash the summary recorded), and the next retention drops
   them without writing a second summary;
2. the log is replaced by its kept rows (atomic): old log or new, never half;
3. quarantine records older than ``retention_days`` are dropped (atomic).

The journal's anchor keeps working: it names the newest row, which stays.
"""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from vibflow.engine.atomicfile import atomic_write
from vibflow.engine.audit import AuditLog
from vibflow.engine.audit_policy import AuditPolicy
from vibflow.engine.audit_quarantine import Quarantine
from vibflow.engine.audit_rollover import RolloverStore, RolloverSummary, sealed
from vibflow.engine.audit_slo import FilesStates, weigh
from vibflow.engine.audit_summary import NEEDS_REVIEW
from vibflow.engine.audit_verify import verify_lines
from vibflow.engine.clock import Clock, stamp, system_clock
from vibflow.engine.errors import ErrorCode, VibflowError

Reason = Literal["age", "size", "cap"]


@dataclass(frozen=True)
class RetainPlan:
    """What a retention would do now (``dry_run`` shows it without doing it)."""

    now: str
    active_window_start: str
    compact_before: str  # rows stamped before this are compacted
    reason: Reason
    bytes_before: int
    rows_before: int
    compact_rows: int
    compact_first_seq: int | None
    compact_last_seq: int | None
    #: Rows a crashed retention already summarized, still in the log.
    leftover_rows: int
    bytes_after: int
    quarantine_expired: int

    @property
    def changes_log(self) -> bool:
        return self.compact_rows > 0 or self.leftover_rows > 0

    def to_json(self) -> dict[str, Any]:
        return {
            "now": self.now,
            "active_window_start": self.active_window_start,
            "compact_before": self.compact_before,
            "reason": self.reason,
            "bytes_before": self.bytes_before,
            "bytes_after": self.bytes_after,
            "rows_before": self.rows_before,
            "compact_rows": self.compact_rows,
            "compact_first_seq": self.compact_first_seq,
            "compact_last_seq": self.compact_last_seq,
            "leftover_rows": self.leftover_rows,
            "quarantine_expired": self.quarantine_expired,
        }


@dataclass(frozen=True)
class _Row:
    raw: bytes
    data: dict[str, Any]


class Retention:
    """Rolls one project's audit log over (``audit retain``, and automatically)."""

    def __init__(
        self,
        log: AuditLog,
        store: RolloverStore,
        quarantine: Quarantine,
        policy: AuditPolicy,
        *,
        files_state: Callable[[], FilesStates],
        anchor: Callable[[], Any] | None = None,
        clock: Clock = system_clock,
        crash: Callable[[int], None] | None = None,
    ) -> None:
        self.log = log
        self.store = store
        self.quarantine = quarantine
        self.policy = policy
        self._files_state = files_state
        self._anchor = anchor
        self._clock = clock
        self._crash = crash or _no_crash
        self._running = False

    def run(self, *, dry_run: bool = False) -> RetainPlan:
        """Plan and, unless ``dry_run``, carry out a retention; the plan."""
        running, self._running = self._running, True
        try:
            return self._run(dry_run)
        finally:
            self._running = running

    def _run(self, dry_run: bool) -> RetainPlan:
        with self.log.locked():
            now = self._clock()
            rows, leftover = self._read()
            plan, compact = self._plan(now, rows, leftover)
            if dry_run or (not plan.changes_log and not plan.quarantine_expired):
                return plan
            if compact:
                self.store.write(self._summary(compact, plan.reason, now))
            self._crash(1)
            if plan.changes_log:
                kept = rows[leftover + len(compact) :]
                atomic_write(self.log.path, b"".join(r.raw for r in kept))
            self._crash(2)
            self.quarantine.retain(now, self.policy.retention_days)
        if compact:
            self.log.append("audit_rollover", result="ok")
        return plan

    def maybe(self, size: int) -> None:
        """The automatic rollover, after an append: when the log has rows past its
        age, or is over its size with rows before the active window. Never
        raises: a log that needs review is left for `vibflow audit retain`."""
        if self._running or not self.policy.rollover_due(
            size, self.log.first_timestamp(), self._clock()
        ):
            return
        with contextlib.suppress(VibflowError, OSError):
            self.run()

    def _read(self) -> tuple[list[_Row], int]:
        """The log's rows (refused unless it verifies), and how many of the first
        are already covered by a rollover summary."""
        lines = list(self.log.rows())
        ledger = self.store.load()
        anchor = self._anchor() if self._anchor is not None else None
        report, _ = verify_lines(lines, ledger=ledger, anchor=anchor)
        if not report.ok:
            raise VibflowError(
                ErrorCode.AUDIT_BROKEN,
                f"{NEEDS_REVIEW}: {report.problem}; a retention compacts only a log that "
                "verifies, so nothing was changed",
                hint="`vibflow audit verify` lists every problem.",
            )
        rows = [_Row(raw, json.loads(raw)) for _, raw in lines]
        leftover = sum(1 for r in rows if r.data["sequence_number"] <= ledger.covered)
        return rows, leftover

    def _plan(
        self, now: datetime, rows: list[_Row], leftover: int
    ) -> tuple[RetainPlan, list[_Row]]:
        protect = self.policy.active_window_start(now)
        by_age = now - timedelta(days=self.policy.retention_days)
        size = sum(len(r.raw) for r in rows)
        reason: Reason
        if size > self.policy.max_bytes:
            cut, reason = protect, "size"
        elif by_age <= protect:
            cut, reason = by_age, "age"
        else:
            cut = protect
            reason = (
                "cap"
                if protect <= now - timedelta(days=self.policy.max_active_window_days)
                else "age"
            )
        before = stamp(cut)
        compact: list[_Row] = []
        # The newest row always stays: an append chains on from it.
        for r in rows[leftover:-1]:
            if r.data["timestamp"] >= before:
                break
            compact.append(r)
        kept_bytes = sum(len(r.raw) for r in rows[leftover + len(compact) :])
        plan = RetainPlan(
            now=stamp(now),
            active_window_start=stamp(protect),
            compact_before=before,
            reason=reason,
            bytes_before=size,
            rows_before=len(rows),
            compact_rows=len(compact),
            compact_first_seq=compact[0].data["sequence_number"] if compact else None,
            compact_last_seq=compact[-1].data["sequence_number"] if compact else None,
            leftover_rows=leftover,
            bytes_after=kept_bytes,
            quarantine_expired=self.quarantine.expired(now, self.policy.retention_days),
        )
        return plan, compact

    def _summary(self, compact: list[_Row], reason: Reason, now: datetime) -> RolloverSummary:
        files_state = self._files_state()
        events: dict[str, Counter[str]] = {}
        days: dict[str, dict[str, list[int]]] = {}
        for r in compact:
            d = r.data
            events.setdefault(d["event"], Counter())[d.get("result") or "none"] += 1
            for slo_id, samples, occurrences in weigh(d, files_state):
                tally = days.setdefault(slo_id, {}).setdefault(d["timestamp"][:10], [0, 0])
                tally[0] += samples
                tally[1] += occurrences
        first, last = compact[0].data, compact[-1].data
        return sealed(
            {
                "schema_version": 1,
                "first_seq": first["sequence_number"],
                "last_seq": last["sequence_number"],
                "prev_hash": first["prev_hash"],
                "last_hash": last["hash"],
                "first_timestamp": first["timestamp"],
                "last_timestamp": last["timestamp"],
                "rolled_at": stamp(now),
                "reason": reason,
                "rows": len(compact),
                "events": {e: dict(sorted(c.items())) for e, c in sorted(events.items())},
                "slo_days": {
                    slo: {
                        day: {"samples": s, "occurrences": o} for day, (s, o) in sorted(v.items())
                    }
                    for slo, v in sorted(days.items())
                },
                "quarantine_dropped": self.quarantine.expired(now, self.policy.retention_days),
            }
        )


def _no_crash(step: int) -> None:
    del step
