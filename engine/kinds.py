"""The small vocabulary flows and registries share: what a step mutates, how a
run may end, what a guard parameter can be.

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
