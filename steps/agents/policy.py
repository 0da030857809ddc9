"""The ``agents`` policy section (``policies/agents.yaml``).

The hook reads only ``hook_timeout_seconds`` and the turn retention, and
reads them without this model when the project has no policy file of its own
(:func:`defaults`): loading the policy machinery costs more than the hook's
whole time budget. A test pins the two readings to each other.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

SECTION = "agents"


class TurnRetention(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    keep_sessions: int = Field(default=10, ge=1, le=10_000)
    keep_days: int = Field(default=7, ge=0, le=3650)
    max_turns: int = Field(default=2000, ge=1, le=1_000_000)
    #: How long the records of a turn (its files, its checkpoint ids) outlive it.
    keep_records_days: int = Field(default=90, ge=1, le=36_500)


class AgentsPolicy(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    hook_timeout_seconds: float = Field(default=10, gt=0, le=600)
    turns: TurnRetention = TurnRetention()
