"""Fault injection for crash tests: really kill the process at a named point.

``VIBFLOW_CRASH_AT=transition:N`` sends SIGKILL to this process right after
the run's N-th journal entry is committed (its audit row may still be in the
unflushed batch: the next process to touch the run re-derives it);
``VIBFLOW_CRASH_AT=item:K`` right after the K-th item of a per-item step is
recorded in this process; ``VIBFLOW_CRASH_AT=retain:K`` at the K-th step of an
audit retention (1: its rollover summary is written, 2: the log is rewritten
without the compacted rows). SIGKILL (not an exception) so no ``finally`` block,
atexit hook or buffered write gets a chance to tidy up: the journal has to
cope with exactly what a real crash leaves behind.

``VIBFLOW_SLOW_ITEM=SECONDS`` makes every item of a per-item step cost at least
that long, paid when the step records it (:meth:`CrashPlan.slow`; a batch of
items at its flush, so outside any lock the step holds while it writes files):
what a test needs to meet a restore in the middle — a second apply told busy,
with the first one's real progress — without tens of thousands of files.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Mapping
from dataclasses import dataclass

from vibflow.engine.errors import ErrorCode, VibflowError

ENV = "VIBFLOW_CRASH_AT"
SLOW_ENV = "VIBFLOW_SLOW_ITEM"


@dataclass(frozen=True)
class CrashPlan:
    point: str | None = None  # "transition" | "item" | "retain"
    count: int = 0
    item_seconds: float = 0.0  # the least time each item takes (VIBFLOW_SLOW_ITEM)

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> CrashPlan:
        slow = _seconds(env.get(SLOW_ENV, "").strip())
        spec = env.get(ENV, "").strip()
        if not spec:
            return cls(item_seconds=slow)
        point, _, number = spec.partition(":")
        if point not in ("transition", "item", "retain") or not number.isdigit() or int(number) < 1:
            raise VibflowError(
                ErrorCode.BAD_INPUT,
                f"{ENV} must look like 'transition:N', 'item:K' or 'retain:K' with N, K ≥ 1",
            )
        return cls(point, int(number), slow)

    def after_transition(self, seq: int) -> None:
        if self.point == "transition" and seq == self.count:
            _die()

    def after_item(self, done_in_process: int) -> None:
        if self.point == "item" and done_in_process == self.count:
            _die()

    def slow(self, items: int) -> None:
        """The cost of ``items`` recorded items under ``VIBFLOW_SLOW_ITEM`` (none without)."""
        if self.item_seconds and items > 0:
            time.sleep(self.item_seconds * items)

    def at_retain_step(self, step: int) -> None:
        if self.point == "retain" and step == self.count:
            _die()


def _seconds(text: str) -> float:
    if not text:
        return 0.0
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= 60:
        raise VibflowError(ErrorCode.BAD_INPUT, f"{SLOW_ENV} must be a number of seconds, 0 to 60")
    return seconds


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)
