"""An anchored audit log with a movable clock, its P0 summary and its retention,
for the aggregator and retention tests."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from vibflow.engine.audit import AuditLog
from vibflow.engine.audit_policy import AuditPolicy
from vibflow.engine.audit_quarantine import Quarantine
from vibflow.engine.audit_retention import Retention
from vibflow.engine.audit_rollover import RolloverStore
from vibflow.engine.audit_summary import P0Summary, summarize
from vibflow.engine.journal import Journal

ROOT_HASH = "cd" * 32
NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
SANDWICH_ID = "ckpt_" + "a" * 32
RUN_ID = "run_" + "b" * 32


def files_state(flow: str, state: str) -> bool:
    """The shipped restore flows: ``apply`` changes files."""
    return flow in ("recover", "restore", "undo") and state == "apply"


@dataclass
class Clock:
    now: datetime = NOW

    def __call__(self) -> datetime:
        return self.now


class Audit:
    """One project's audit log, rollovers, quarantine and journal anchor."""

    def __init__(self, root: Path, policy: AuditPolicy | None = None) -> None:
        self.root = root
        self.clock = Clock()
        self.journal = Journal(root / "runs.db")
        self.store = RolloverStore(root / "recovery" / "audit_rollover")
        self.quarantine = Quarantine(root / "recovery" / "audit_quarantine.jsonl")
        self.policy = policy or AuditPolicy()
        self.log = AuditLog(
            root / "audit.jsonl",
            project_root_hash=ROOT_HASH,
            clock=self.clock,
            anchor=lambda: self.journal,
            rollovers=lambda: self.store,
        )
        self.retention = Retention(
            self.log,
            self.store,
            self.quarantine,
            self.policy,
            files_state=lambda: files_state,
            anchor=lambda: self.journal,
            clock=self.clock,
        )

    def close(self) -> None:
        self.journal.close()

    def at(self, days_ago: float) -> Audit:
        self.clock.now = NOW - timedelta(days=days_ago)
        return self

    def append(self, event: str, **facts: Any) -> None:
        self.log.append(event, **facts)

    def summary(self, days: int = 30) -> P0Summary:
        out, _ = summarize(
            self.log.rows(),
            ledger=self.store.load(),
            anchor=self.journal,
            files_state=files_state,
            window_start=NOW - timedelta(days=days),
            window_end=NOW,
        )
        return out

    def lines(self) -> list[bytes]:
        return self.log.path.read_bytes().splitlines(keepends=True)

    def rewrite(self, lines: list[bytes]) -> None:
        self.log.path.write_bytes(b"".join(lines))


def slo(summary: P0Summary, slo_id: str) -> tuple[int, int, str]:
    """``(sample_count, occurrences, result)`` of one SLO."""
    found = next(s for s in summary.slos if s.slo_id == slo_id)
    return found.sample_count, found.occurrences, found.result


def apply_move(audit: Audit, *, sandwich: bool = True, flow: str = "recover") -> None:
    """The transition into a files-changing state, as the runner writes it."""
    facts: dict[str, Any] = {
        "run_id": RUN_ID,
        "flow": flow,
        "transition_seq": 7,
        "from_state": "confirm",
        "via": "confirm",
        "to_state": "apply",
        "result": "ok",
    }
    if sandwich:
        facts["sandwich_checkpoint_id"] = SANDWICH_ID
    audit.append("transition", **facts)


def edited(line: bytes, **changes: Any) -> bytes:
    row = json.loads(line)
    row.update(changes)
    return (json.dumps(row, separators=(",", ":")) + "\n").encode()
