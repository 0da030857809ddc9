"""The small vocabulary flows, registries and runs share: what a step mutates,
how a run may end, where a run stands, what a guard parameter can be.

Kept apart from the pydantic models of :mod:`.definition` so that code which
only registers steps or checks guards (most commands) never builds them.
"""

from __future__ import annotations

import enum

GuardParam = str | int | bool | None


class Mutation(enum.StrEnum):
    """What a step may change. Declared by the step registry, checked in YAML."""

    NONE = "none"
    CHECKPOINT_ONLY = "checkpoint_only"
    FILES = "files"
    MEMORY = "memory"


class FinalStatus(enum.StrEnum):
    DONE = "done"
    ABORTED = "aborted"
    FAILED = "failed"


class RunStatus(enum.StrEnum):
    """Where a run stands. Stored and shown as the plain strings (a StrEnum)."""

    RUNNING = "running"  # a step or pass-through state follows; an owner holds it
    WAITING = "waiting"  # a wait state needs input
    BLOCKED = "blocked"  # a guard refused; the event may be retried
    INTERRUPTED = "interrupted"  # its owner died while it was running
    DONE = "done"
    FAILED = "failed"
    ABORTED = "aborted"

    @property
    def finished(self) -> bool:
        return self in FINISHED


FINISHED = frozenset({RunStatus.DONE, RunStatus.FAILED, RunStatus.ABORTED})
UNFINISHED = (RunStatus.RUNNING, RunStatus.WAITING, RunStatus.BLOCKED, RunStatus.INTERRUPTED)
