"""The ``audit`` policy section (``policies/audit.yaml``): retention and the P0 window.

The active P0 window is the stretch of the log `audit summary` reports on by
default and a rollover never compacts: the last ``p0_window_days``, or from a
release cycle's ``p0_window_start`` — never longer than
``max_active_window_days``, so a cycle nobody closes cannot keep every row for
ever. Rows older than ``retention_days`` roll over, and everything before the
active window does once the log passes ``max_bytes``.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from pydantic import BaseModel, ConfigDict, Field, model_validator

from vibflow.engine.clock import stamp

SECTION = "audit"


class AuditPolicy(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    p0_window_days: int = Field(default=30, ge=1, le=180)
    p0_window_start: date | None = None
    max_active_window_days: int = Field(default=180, ge=1, le=180)
    retention_days: int = Field(default=90, ge=1, le=180)
    max_bytes: int = Field(default=10 * 1024 * 1024, ge=64 * 1024, le=1024 * 1024 * 1024)

    @model_validator(mode="after")
    def _window_fits_the_cap(self) -> AuditPolicy:
        if self.p0_window_days > self.max_active_window_days:
            raise ValueError(
                f"p0_window_days ({self.p0_window_days}) is longer than max_active_window_days "
                f"({self.max_active_window_days})"
            )
        return self

    def rollover_due(self, size: int, first_timestamp: str | None, now: datetime) -> bool:
        """Whether a log of ``size`` bytes whose first row is stamped
        ``first_timestamp`` has rows a rollover would compact now."""
        if first_timestamp is None:
            return False
        if first_timestamp < stamp(now - timedelta(days=self.retention_days)):
            return True
        return size > self.max_bytes and first_timestamp < stamp(self.active_window_start(now))

    def active_window_start(self, now: datetime) -> datetime:
        """Where the active P0 window starts at ``now`` (never before the hard cap)."""
        cap = now - timedelta(days=self.max_active_window_days)
        if self.p0_window_start is not None:
            start = datetime.combine(self.p0_window_start, datetime.min.time(), tzinfo=UTC)
            return max(min(start, now), cap)
        return max(now - timedelta(days=self.p0_window_days), cap)
