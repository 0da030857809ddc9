"""Constructed inputs for the recovery advisor's pure parts: changed files, memory
entries, checkpoint metadata, breaker states and timestamps."""

from __future__ import annotations

from importlib.resources import files
from typing import Any

from vibflow.engine.policy import PolicySet
from vibflow.steps.checkpoints.models import CheckpointMeta
from vibflow.steps.recovery.breaker import BreakerState
from vibflow.steps.recovery.categories import category_of
from vibflow.steps.recovery.models import ChangedFile, DriftCandidate, SafeCheckpointCandidate
from vibflow.steps.recovery.policy import RecoveryPolicy
from vibflow.steps.recovery.signals import Signals
from vibflow.steps.recovery.zone import MemorySignals

CATEGORIES: dict[str, list[str]] = dict(
    PolicySet(files("vibflow.policies"), None).section("recovery", RecoveryPolicy).categories
)
ACTIVE = BreakerState("active", None, 0)
DEGRADED = BreakerState("degraded", 0.0, 5)
HEAD = "a" * 40


def changed(
    path: str,
    status: str = "modified",
    *,
    old: str | None = None,
    generated: bool = False,
) -> ChangedFile:
    return ChangedFile(
        path=path,
        status=status,  # type: ignore[arg-type]
        old_path=old,
        category=category_of(path, CATEGORIES),
        generated=generated,
    )


def mem(
    explicit: dict[str, str] | None = None,
    recent: list[str] | None = None,
    *,
    usable: bool = True,
) -> MemorySignals:
    return MemorySignals(explicit or {}, recent or [], usable, None if usable else "stale")


def sources(zone: list[Any]) -> list[tuple[str, str]]:
    return [(z.path, z.source) for z in zone]


def ckpt(n: int, created_at: str, *, complete: bool = True, head: str = HEAD) -> CheckpointMeta:
    return CheckpointMeta(
        checkpoint_id=f"ckpt_{n:032x}",
        created_at=created_at,
        base_head=head,
        metadata_complete=complete,
    )


def ts(iso: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


SAFE = SafeCheckpointCandidate(
    checkpoint_id="ckpt_" + "1" * 32,
    created_at="2026-01-01T00:00:00Z",
    predates_change=True,
    metadata_complete=True,
)
LATE = SAFE.model_copy(update={"predates_change": False})
INCOMPLETE = SAFE.model_copy(update={"metadata_complete": False})
CHANGED = [
    changed("src/ui/login.py"),
    changed("src/services/auth.py"),
    changed("dist/app.js", "untracked", generated=True),
]
DRIFT = [DriftCandidate(path="src/services/auth.py", why_outside_zone="outside")]


def signals(
    files_: list[ChangedFile],
    memory: MemorySignals,
    *,
    checkpoints: list[CheckpointMeta] | None = None,
    started: float | None = None,
) -> Signals:
    mtimes = {f.path: started for f in files_ if not f.generated} if started is not None else {}
    return Signals(HEAD, files_, mtimes, checkpoints or [], memory, "intent", False)
