"""Whether a restore holds the project's lease right now, read without taking it.

A turn's checkpoint taken while a restore is writing files would hold a
half-restored tree, so the hook skips it and says why. This reads the lease
file :class:`~vibflow.steps.recovery.lease.LeaseFile` writes (same fields)
with the standard library only — the hook cannot afford that module's
imports — and treats anything it cannot read as "not held": the lease's own
guard, not this peek, is what protects a restore.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path


def lease_holder(state_dir: Path, *, now: datetime | None = None) -> str | None:
    """``None`` when no live restore holds the lease, else a plain reason."""
    try:
        data = json.loads((state_dir / "recovery" / "lease.json").read_text(encoding="utf-8"))
        expires = datetime.fromisoformat(str(data["expires_at"]))
        pid = int(data["pid"])
        host = str(data["host"])
        operation = str(data.get("operation_id", ""))[:60]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if expires.tzinfo is None:
        expires = expires.replace(tzinfo=UTC)
    if expires <= (now or datetime.now(UTC)):
        return None
    # os.uname().nodename is what socket.gethostname() answers on POSIX, without
    # importing socket.
    if host == os.uname().nodename and not _alive(pid):
        return None
    return f"a restore holds the project's lease ({operation or 'another process'})"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True
