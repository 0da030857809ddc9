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
"""

from __future__ import annotations

import os
import signal
from collections.abc import Mapping
from dataclasses import dataclass

from vibflow.engine.errors import ErrorCode, VibflowError

ENV = "VIBFLOW_CRASH_AT"


@dataclass(frozen=True)
class CrashPlan:
    point: str | None = None  # "transition" | "item" | "retain"
    count: int = 0

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> CrashPlan:
        spec = env.get(ENV, "").strip()
        if not spec:
            return cls()
        point, _, number = spec.partition(":")
        if point not in ("transition", "item", "retain") or not number.isdigit() or int(number) < 1:
            raise VibflowError(
                ErrorCode.BAD_INPUT,
                f"{ENV} must look like 'transition:N', 'item:K' or 'retain:K' with N, K ≥ 1",
            )
        return cls(point, int(number))

    def after_transition(self, seq: int) -> None:
        if self.point == "transition" and seq == self.count:
            _die()

    def after_item(self, done_in_process: int) -> None:
        if self.point == "item" and done_in_process == self.count:
            _die()

    def at_retain_step(self, step: int) -> None:
        if self.point == "retain" and step == self.count:
            _die()


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)
