"""The ``memory`` policy section (``policies/memory.yaml``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from vibflow.steps.memory.caps import Caps


class MemoryPolicy(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    stale_intent_hours: float = Field(default=24, gt=0)
    stale_intent_commits: int = Field(default=5, ge=1)
    conflict_window_seconds: int = Field(default=60, ge=0)
    observed_writes_per_minute: int = Field(default=120, ge=1)
    caps: Caps = Caps()
