"""The audit quarantine: redacted records of corrupt audit rows.

``.vibflow/recovery/audit_quarantine.jsonl`` keeps, for each corrupt row a
check found, where it was (line), how long it was, its SHA-256 and why it is
corrupt — never its bytes, which may be anything a hand or a bug put there
(a secret, a path). A row already recorded is not recorded again, so checking
a damaged log twice does not double the quarantine. Records age out with the
log's retention (:meth:`Quarantine.retain`); a crash while trimming leaves the
old file or the new one (an atomic replace).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from vibflow.engine.atomicfile import atomic_write
from vibflow.engine.clock import stamp


class Quarantine:
    def __init__(self, path: Path) -> None:
        self.path = path

    def records(self) -> list[dict[str, Any]]:
        if not self.path.exists():
            return []
        out: list[dict[str, Any]] = []
        for line in self.path.read_bytes().splitlines():
            try:
                item = json.loads(line)
            except ValueError:
                continue  # a torn record of our own: dropped at the next trim
            if isinstance(item, dict):
                out.append(item)
        return out

    def add(self, bad: Iterable[dict[str, Any]], now: datetime) -> int:
        """Record the corrupt rows not recorded yet; how many were new."""
        known = {(r.get("line"), r.get("sha256")) for r in self.records()}
        fresh = [b for b in bad if (b["line"], b["sha256"]) not in known]
        if not fresh:
            return 0
        self.path.parent.mkdir(parents=True, exist_ok=True)
        at = stamp(now)
        with self.path.open("a", encoding="utf-8", newline="\n") as fh:
            for item in fresh:
                fh.write(json.dumps({"quarantined_at": at, **item}) + "\n")
        return len(fresh)

    def expired(self, now: datetime, days: int) -> int:
        """How many records are older than ``days``."""
        return len(self.records()) - len(self._kept(now, days))

    def retain(self, now: datetime, days: int) -> int:
        """Drop records older than ``days``; how many were dropped."""
        records = self.records()
        kept = self._kept(now, days)
        if len(kept) == len(records):
            return 0
        text = "".join(json.dumps(r) + "\n" for r in kept)
        atomic_write(self.path, text)
        return len(records) - len(kept)

    def _kept(self, now: datetime, days: int) -> list[dict[str, Any]]:
        cutoff = stamp(now - timedelta(days=days))
        return [r for r in self.records() if str(r.get("quarantined_at", "")) >= cutoff]
