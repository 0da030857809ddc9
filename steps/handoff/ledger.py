"""Which handoffs were written and whether each had a confirmed next action:
``.vibflow/recovery/handoffs.json``, counts and times only (spec §11's
"handoff without a confirmed next_action" trigger reads it; spec §6 keeps
such telemetry out of memory.json).

A damaged file is started afresh (it is measurement, not truth); the last
:data:`KEEP` entries are kept.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from vibflow.engine.atomicfile import atomic_write
from vibflow.engine.clock import parse_stamp, stamp
from vibflow.steps.memory.reading import Unreadable, parse_object, read_bytes

FILE = "handoffs.json"
KEEP = 200


@dataclass(frozen=True)
class Written:
    at: str
    next_action: bool


class HandoffLedger:
    """The handoffs written in this project (the triggers' ``HandoffSource``)."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / FILE

    def entries(self) -> list[Written]:
        try:
            raw = parse_object(read_bytes(self.path))
        except (FileNotFoundError, Unreadable, OSError):
            return []
        out = []
        items = raw.get("handoffs")
        for item in items if isinstance(items, list) else []:
            if (
                isinstance(item, dict)
                and isinstance(item.get("at"), str)
                and isinstance(item.get("next_action"), bool)
            ):
                out.append(Written(item["at"], item["next_action"]))
        return out

    def record(self, when: datetime, *, next_action: bool) -> None:
        kept = [*self.entries()[-(KEEP - 1) :], Written(stamp(when), next_action)]
        body = {"handoffs": [{"at": w.at, "next_action": w.next_action} for w in kept]}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(self.path, json.dumps(body, indent=1) + "\n", durable=False)

    def handoff_without_next_action(self, since: datetime) -> bool | None:
        """Whether a handoff since ``since`` had no confirmed next action (None: none made)."""
        recent = [w for w in self.entries() if (t := parse_stamp(w.at)) is not None and t >= since]
        if not recent:
            return None
        return any(not w.next_action for w in recent)
