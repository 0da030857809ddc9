"""The ``triggers`` policy section (``policies/triggers.yaml``).

Shipped triggers are data; a project changes any part of one in
``.vibflow/policy.yaml`` (a threshold, the message, ``enabled: false``) or
adds its own, and the section is validated with every other one — each
mistake at its ``file:line:col``. A threshold a leaf names must exist in its
trigger's ``thresholds`` and have the metric's kind.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationInfo,
    field_validator,
)

from vibflow.engine.factories import empty_dict
from vibflow.steps.triggers.conditions import Condition, check_value

TriggerId = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,63}$")]
Threshold = bool | int | float


class TriggerRule(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    enabled: bool = True
    message: str = Field(min_length=1, max_length=300)
    action: str = Field(min_length=1, max_length=200, description="what accepting it means")
    command: str = Field(
        min_length=1,
        max_length=200,
        description="the vibflow command that acts on it (shown, never run)",
    )
    thresholds: dict[
        Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,63}$")], Threshold
    ] = Field(default_factory=empty_dict)
    when: Condition

    @field_validator("command")
    @classmethod
    def _a_vibflow_command(cls, command: str) -> str:
        # Shown as the way to act on a nudge: only ever one of vibflow's own commands.
        if not command.startswith("vibflow ") or "\n" in command:
            raise ValueError("the command must be one vibflow command on one line ('vibflow ...')")
        return command

    @field_validator("when")
    @classmethod
    def _thresholds_exist(cls, when: Condition, info: ValidationInfo) -> Condition:
        thresholds = info.data.get("thresholds")
        if thresholds is None:  # the thresholds themselves are wrong: reported there
            return when
        problems: list[str] = []
        for leaf in when.leaves():
            name = leaf.threshold
            if name is None or leaf.metric is None or leaf.op is None:
                continue
            if name not in thresholds:
                known = ", ".join(sorted(thresholds)) or "none"
                problems.append(
                    f"the leaf on '{leaf.metric}' names threshold '{name}', "
                    f"not in thresholds ({known})"
                )
                continue
            try:
                check_value(leaf.metric, leaf.op, thresholds[name])
            except ValueError as exc:
                problems.append(f"threshold '{name}': {exc}")
        if problems:
            raise ValueError("; ".join(problems))
        return when


class IgnoredRatePolicy(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    window_days: int = Field(default=7, ge=1, le=90)
    #: Above this share of shown prompts ignored, `triggers check` recommends tuning.
    max_share: float = Field(default=0.30, gt=0, lt=1)
    #: Fewer prompts than this in the window say nothing about noise yet.
    min_shown: int = Field(default=10, ge=1)


class TriggersPolicy(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    session_idle_minutes: int = Field(default=60, ge=1, le=7 * 24 * 60)
    snooze_minutes: int = Field(default=240, ge=1, le=7 * 24 * 60)
    ignored_rate: IgnoredRatePolicy = IgnoredRatePolicy()
    rules: dict[TriggerId, TriggerRule] = Field(default_factory=empty_dict)


SECTION = "triggers"
