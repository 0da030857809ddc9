"""The flow definition IR: frozen pydantic models, nothing else.

YAML is parsed elsewhere (``yamlsource``) and normalized by ``loader``; the
machine builder consumes these models. This module imports neither ruamel nor
``transitions``, so a stored definition (JSON in the journal) round-trips
through exactly the same models as a YAML file does.
"""

from __future__ import annotations

import hashlib
import json
from functools import cached_property
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from vibflow.engine.factories import empty_dict
from vibflow.engine.kinds import FinalStatus, GuardParam, Mutation

Name = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,63}$")]
FlowName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_-]{0,63}$")]
StepName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$")]
InputType = Annotated[str, StringConstraints(pattern=r"^(str|int|float|bool|path|list)\??$")]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class GuardRef(_Frozen):
    """A guard named on a transition, with its optional parameter.

    YAML may write it as ``name`` or ``{name: param}``.
    """

    name: Name
    param: GuardParam = None

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, value: object) -> object:
        if isinstance(value, str):
            return {"name": value}
        if isinstance(value, dict) and len(value) == 1 and "name" not in value:
            ((name, param),) = value.items()
            return {"name": name, "param": param}
        return value

    def label(self) -> str:
        return self.name if self.param is None else f"{self.name}:{self.param}"


class TransitionSpec(_Frozen):
    """Where an event leads; YAML may write just the target name."""

    target: Name
    guards: tuple[GuardRef, ...] = ()
    description: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, value: object) -> object:
        return {"target": value} if isinstance(value, str) else value


class StateSpec(_Frozen):
    """One state: runs a step, waits for input, passes through, or is final."""

    description: str | None = None
    step: StepName | None = None
    wait: Name | None = None
    inputs: dict[Name, InputType] = Field(default_factory=empty_dict)
    final: bool = False
    status: FinalStatus | None = Field(
        default=None, description="Run status when this final state is reached (default done)."
    )
    mutates: Mutation | None = None
    resumable: Literal["per_item"] | None = None
    on: dict[Name, TransitionSpec] = Field(default_factory=empty_dict)
    on_blocked: Name | None = Field(
        default=None, description="State to move to when a guard refuses, instead of staying."
    )

    @property
    def kind(self) -> Literal["step", "wait", "final", "pass"]:
        if self.final:
            return "final"
        if self.wait is not None:
            return "wait"
        if self.step is not None:
            return "step"
        return "pass"

    @model_validator(mode="after")
    def _one_kind(self) -> StateSpec:
        if self.step is not None and self.wait is not None:
            raise ValueError("a state either runs a step or waits for input, not both")
        if self.wait is not None and self.final:
            raise ValueError("a final state cannot wait for input")
        if self.inputs and self.wait is None:
            raise ValueError("'inputs' belongs to a state with 'wait'")
        if self.status is not None and not self.final:
            raise ValueError("'status' belongs to a final state")
        if self.resumable is not None and self.step is None:
            raise ValueError("'resumable' belongs to a state with a 'step'")
        return self


class FlowDefinition(_Frozen):
    """A named, versioned state machine (``flows/*.yaml``)."""

    flow: FlowName
    version: int = Field(ge=1)
    description: str = ""
    initial: Name
    inputs: dict[Name, InputType] = Field(
        default_factory=empty_dict,
        description="What `vibflow run FLOW --input k=v` may pass when the run starts "
        "(the inputs of a wait are declared on that wait).",
    )
    states: dict[Name, StateSpec] = Field(min_length=1)

    def digest(self) -> str:
        """Content hash of the definition; equal definitions hash equal."""
        return self._digest

    @cached_property
    def _digest(self) -> str:
        return hashlib.sha256(self.canonical_json().encode("utf-8")).hexdigest()

    def canonical_json(self) -> str:
        return self._canonical

    @cached_property
    def _canonical(self) -> str:
        return json.dumps(
            self.model_dump(mode="json", exclude_defaults=True),
            sort_keys=True,
            separators=(",", ":"),
        )

    def edges(self) -> list[tuple[str, str, TransitionSpec]]:
        """Every (source, event, transition), in definition order."""
        return [
            (name, event, spec)
            for name, state in self.states.items()
            for event, spec in state.on.items()
        ]


def flow_json_schema() -> dict[str, object]:
    """JSON Schema of the YAML dialect, shorthands included, for editors."""
    schema = FlowDefinition.model_json_schema(mode="validation")
    defs = schema["$defs"]
    name = {"type": "string", "pattern": r"^[a-z][a-z0-9_]{0,63}$"}
    defs["TransitionSpec"] = {"anyOf": [name, defs["TransitionSpec"]]}
    one_key = {
        "type": "object",
        "minProperties": 1,
        "maxProperties": 1,
        "additionalProperties": {"type": ["string", "integer", "boolean", "null"]},
    }
    defs["GuardRef"] = {"anyOf": [name, one_key, defs["GuardRef"]]}
    # Keys of states / on / inputs must match their name pattern, as in the loader.
    state = defs["StateSpec"]["properties"]
    top = schema["properties"]
    for node in (top["states"], top["inputs"], state["on"], state["inputs"]):
        node["additionalProperties"] = False
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "vibflow flow definition"
    return schema
