"""The drift-accuracy circuit breaker (spec §14/§15).

Users confirm or reject drift labels (`vibflow recover feedback`). Over the
rolling window of the last 20 labels, accuracy below 80 % turns drift
labelling off (``degraded``): plans fall back to diff-aware mode with a
visible marker, and recovery keeps working. Labels are stored count-only
(plan id, correct or not, when) — never the paths.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

WINDOW = 20


def _key(plan_id: str, path: str) -> str:
    """A stable label key that does not store the path itself."""
    return hashlib.sha256(f"{plan_id}\0{path}".encode("utf-8", "surrogateescape")).hexdigest()[:24]


THRESHOLD = 0.8
MIN_SAMPLE = 5  # fewer labels than this say nothing yet


@dataclass(frozen=True)
class BreakerState:
    state: Literal["active", "degraded"]
    accuracy: float | None
    labels: int


def evaluate(labels: Sequence[bool]) -> BreakerState:
    window = list(labels)[-WINDOW:]
    if len(window) < MIN_SAMPLE:
        return BreakerState("active", None, len(window))
    accuracy = sum(window) / len(window)
    return BreakerState("degraded" if accuracy < THRESHOLD else "active", accuracy, len(window))


class LabelStore:
    def __init__(self, path: Path) -> None:
        self.path = path

    def labels(self) -> list[bool]:
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return []
        out: list[bool] = []
        for line in lines:
            try:
                out.append(bool(json.loads(line)["correct"]))
            except (ValueError, KeyError, TypeError):
                continue
        return out

    def record(self, plan_id: str, verdicts: Sequence[tuple[str, bool]], at: str) -> BreakerState:
        """Record one label per (plan, path); labelling the same path of the same
        plan again replaces nothing and counts nothing (no stuffing the window)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        seen = self._keys()
        with self.path.open("a", encoding="utf-8", newline="\n") as fh:
            for path, ok in verdicts:
                key = _key(plan_id, path)
                if key in seen:
                    continue
                seen.add(key)
                fh.write(
                    json.dumps({"plan_id": plan_id, "key": key, "correct": ok, "at": at}) + "\n"
                )
        return self.state()

    def _keys(self) -> set[str]:
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return set()
        keys: set[str] = set()
        for line in lines:
            try:
                keys.add(str(json.loads(line)["key"]))
            except (ValueError, KeyError, TypeError):
                continue
        return keys

    def state(self) -> BreakerState:
        return evaluate(self.labels())
