"""The ``recovery`` policy section (``policies/recovery.yaml``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from vibflow.engine.factories import empty_dict
from vibflow.steps.checkpoints.models import CheckpointPolicy
from vibflow.steps.recovery.generated_policy import GeneratedRules
from vibflow.steps.recovery.zone_policy import ZonePolicy


class RecoveryPolicy(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    checkpoints: CheckpointPolicy = CheckpointPolicy()
    categories: dict[str, list[str]] = Field(default_factory=empty_dict)
    lease_seconds: int = Field(default=60, ge=5, le=3600)
    generated: GeneratedRules = GeneratedRules()
    zone: ZonePolicy = ZonePolicy()
