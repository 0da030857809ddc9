"""The ignored-prompt rate per trigger, derived from the audit rail (spec §6, §11).

Trigger rows in ``.vibflow/audit.jsonl`` (``trigger {id, action, source}``)
are counted per day, trigger and action into
``.vibflow/recovery/trigger_baseline.json`` — counts and trigger ids only,
never text or paths. The file remembers how far into the audit it has read,
so each refresh reads only the rows appended since (a shorter audit — rotated
or replaced — is read again from the start).

A trigger whose prompts were ignored more often than ``max_share`` of the
times they were shown over the window gets a tuning recommendation; nothing
here ever disables a trigger.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, NamedTuple

from vibflow.engine.atomicfile import atomic_write
from vibflow.engine.clock import stamp
from vibflow.steps.memory.reading import Unreadable, parse_object, read_bytes

BASELINE_FILE = "trigger_baseline.json"
MAX_BASELINE_BYTES = 4 * 1024 * 1024
_OPEN = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
_MARK = b'"trigger":'


class Rate(NamedTuple):
    trigger: str
    shown: int
    ignored: int

    @property
    def share(self) -> float:
        return self.ignored / self.shown if self.shown else 0.0


def count_rows(lines: bytes, days: dict[str, dict[str, dict[str, int]]]) -> None:
    """Add the trigger rows among audit ``lines`` to ``days`` (day → id → action → n)."""
    for line in lines.splitlines():
        if _MARK not in line:
            continue
        try:
            row = json.loads(line)
            ref = row["trigger"]
            day = str(row["timestamp"])[:10]
            trigger, action = str(ref["id"]), str(ref["action"])
        except (ValueError, KeyError, TypeError):
            continue
        per = days.setdefault(day, {}).setdefault(trigger, {})
        per[action] = per.get(action, 0) + 1


def rates(
    days: dict[str, dict[str, dict[str, int]]], now: datetime, window_days: int
) -> list[Rate]:
    """Shown and ignored counts per trigger over the last ``window_days`` days."""
    first = (now - timedelta(days=window_days - 1)).date().isoformat()
    shown: dict[str, int] = {}
    ignored: dict[str, int] = {}
    for day, per in days.items():
        if day < first:
            continue
        for trigger, actions in per.items():
            shown[trigger] = shown.get(trigger, 0) + actions.get("shown", 0)
            ignored[trigger] = ignored.get(trigger, 0) + actions.get("ignored", 0)
    return [Rate(t, shown[t], ignored.get(t, 0)) for t in sorted(shown)]


class Baseline:
    """``trigger_baseline.json``: refreshed from the audit on demand."""

    def __init__(self, folder: Path, audit: Path) -> None:
        self.path = folder / BASELINE_FILE
        self.audit = audit

    def _load(self) -> tuple[int, dict[str, Any]]:
        # Derived data read as hostile input: anything odd here is derived again.
        try:
            raw = parse_object(read_bytes(self.path, max_bytes=MAX_BASELINE_BYTES))
            return int(raw["audit_offset"]), dict(raw["days"])
        except (Unreadable, OSError, ValueError, TypeError, KeyError):
            return 0, {}

    def _audit_tail(self, offset: int) -> tuple[int, bytes]:
        """The audit's size and its bytes after ``offset`` (a regular file only:
        never a FIFO or device that would block or never end)."""
        try:
            fd = os.open(self.audit, _OPEN)
        except OSError:
            return 0, b""
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_size <= offset:
                return (st.st_size if stat.S_ISREG(st.st_mode) else 0), b""
            os.lseek(fd, offset, os.SEEK_SET)
            chunks: list[bytes] = []
            left = st.st_size - offset
            while left > 0:
                chunk = os.read(fd, min(left, 1 << 20))
                if not chunk:
                    break
                chunks.append(chunk)
                left -= len(chunk)
            return st.st_size, b"".join(chunks)
        finally:
            os.close(fd)

    def refresh(self, now: datetime, window_days: int) -> list[Rate]:
        offset, days = self._load()
        size, chunk = self._audit_tail(offset)
        if size < offset:
            offset, days = 0, {}
            size, chunk = self._audit_tail(0)
        if chunk:
            # Only whole rows: a row being appended right now is read next time.
            end = chunk.rfind(b"\n") + 1
            count_rows(chunk[:end], days)
            offset += end
        # Days past any window a policy allows are dropped: the file stays small.
        oldest = (now - timedelta(days=90)).date().isoformat()
        days = {d: v for d, v in sorted(days.items()) if d >= oldest}
        found = rates(days, now, window_days)
        data = {
            "schema_version": 1,
            "updated_at": stamp(now),
            "baseline_window_days": window_days,
            "audit_offset": offset,
            "ignored_prompt_rate_7d": {r.trigger: round(r.share, 4) for r in found}
            if window_days == 7
            else {},
            "window": {r.trigger: {"shown": r.shown, "ignored": r.ignored} for r in found},
            "days": days,
        }
        # A snapshot that cannot be written is derived again next time.
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(
                self.path, json.dumps(data, indent=1, sort_keys=True) + "\n", durable=False
            )
        return found
