"""The engine's clock: where every timestamp in the journal, the audit and recaps
comes from.

A :data:`Clock` is any ``() -> datetime`` (timezone-aware, UTC); the runner, the
journal and the audit log take one in their constructors, so a test can pin
time instead of patching a module global. Timestamps are stored as text in one
shape (:func:`stamp`): ISO 8601 with microseconds and a ``Z``, which sorts as
text in time order and matches the audit model's ``Timestamp`` pattern.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]


def system_clock() -> datetime:
    return datetime.now(UTC)


def stamp(moment: datetime) -> str:
    """``moment`` as the engine stores it: ``2024-05-01T12:00:00.000000Z``."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def utcnow() -> str:
    """The system clock's :func:`stamp`, for code that takes no clock."""
    return stamp(system_clock())


def parse_stamp(ts: str) -> datetime | None:
    """A stored timestamp (:func:`stamp`'s shape, or any ISO 8601 with ``Z`` or an
    offset; a naive one is taken as UTC) as an aware datetime; None when it is not one."""
    try:
        parsed = datetime.fromisoformat(ts.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
