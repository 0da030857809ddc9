"""Proposals the user dismissed or snoozed in a memory review:
``.vibflow/recovery/review_marks.json`` — proposal keys and times only (no
memory text), outside ``memory.json`` (which stays the project's truth).

A dismissed proposal does not come back; a snoozed one returns after
:data:`SNOOZE_HOURS`. A damaged file is started afresh: losing it only
means a proposal may be asked again.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

from vibflow.engine.atomicfile import atomic_write
from vibflow.engine.clock import parse_stamp, stamp
from vibflow.steps.memory.reading import Unreadable, parse_object, read_bytes

FILE = "review_marks.json"
SNOOZE_HOURS = 24
KEEP = 2000


class ReviewMarks:
    def __init__(self, folder: Path) -> None:
        self.path = folder / FILE

    def _load(self) -> dict[str, dict[str, str]]:
        try:
            raw = parse_object(read_bytes(self.path))
        except (FileNotFoundError, Unreadable, OSError):
            return {"dismissed": {}, "snoozed": {}}
        out: dict[str, dict[str, str]] = {}
        for part in ("dismissed", "snoozed"):
            value = raw.get(part)
            out[part] = (
                {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, str)}
                if isinstance(value, dict)
                else {}
            )
        return out

    def skipped(self, now: datetime) -> set[str]:
        """Keys not to propose now: every dismissed one, and snoozes not yet over."""
        data = self._load()
        live = {k for k, until in data["snoozed"].items() if (t := parse_stamp(until)) and t > now}
        return set(data["dismissed"]) | live

    def _save(self, data: dict[str, dict[str, str]]) -> None:
        for part in data.values():
            while len(part) > KEEP:
                part.pop(next(iter(part)))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(self.path, json.dumps(data, indent=1, sort_keys=True) + "\n")

    def dismiss(self, key: str, now: datetime) -> None:
        data = self._load()
        data["dismissed"][key] = stamp(now)
        data["snoozed"].pop(key, None)
        self._save(data)

    def snooze(self, key: str, now: datetime) -> None:
        data = self._load()
        data["snoozed"][key] = stamp(now + timedelta(hours=SNOOZE_HOURS))
        self._save(data)
