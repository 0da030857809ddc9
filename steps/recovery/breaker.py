"""The drift-accuracy circuit breaker (spec §14/§15).

Users confirm or reject drift labels (`vibflow recover feedback`). Over the
rolling window of the last 20 labels, accuracy below 80 % turns drift
labelling off (``degraded``): plans fall back to diff-aware mode with a
visible marker, and recovery keeps working. Labels are stored count-only
(plan id, correct or not, when) — never the paths.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

WINDOW = 20
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

    def record(self, plan_id: str, verdicts: Sequence[bool], at: str) -> BreakerState:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8", newline="\n") as fh:
            for ok in verdicts:
                fh.write(json.dumps({"plan_id": plan_id, "correct": ok, "at": at}) + "\n")
        return self.state()

    def state(self) -> BreakerState:
        return evaluate(self.labels())
