"""What a step or a guard is handed, and how what it returns joins the run.

:class:`ContextFactory` builds :class:`~vibflow.engine.registry.StepContext`
and :class:`~vibflow.engine.registry.GuardContext` in one place, so a real run
and a dry run hand steps and guards the same things. A run's context is a
JSON object: a step's result merges into it with :func:`merge_context`, and
anything a step returns is read as a :class:`StepResult` by :func:`as_result`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from vibflow.engine.definition import FlowDefinition
from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.registry import GuardContext, ItemProgress, StepContext, StepResult


def merge_context(base: Mapping[str, Any], *updates: Mapping[str, Any]) -> dict[str, Any]:
    """Shallow merge, except that dict values merge one level deep."""
    out = dict(base)
    for upd in updates:
        for key, value in upd.items():
            if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
                out[key] = {**out[key], **value}
            else:
                out[key] = value
    return out


def as_result(raw: StepResult | str) -> StepResult:
    """A step's return value as a result (a bare string is the event to fire)."""
    if isinstance(raw, StepResult):
        return raw
    if isinstance(raw, str):
        return StepResult(event=raw)
    raise VibflowError(ErrorCode.STEP_FAILED, "a step returned neither an event nor a StepResult")


@dataclass(frozen=True)
class ContextFactory:
    """The project a runner works in, as steps and guards see it."""

    project_root: Path
    env: Mapping[str, str]

    def step(
        self,
        *,
        run_id: str,
        flow: str,
        state: str,
        context: Mapping[str, Any],
        progress: ItemProgress,
        attempt: int = 1,
        dry_run: bool = False,
    ) -> StepContext:
        # A deep copy: a step must not change the run's context behind the journal.
        snapshot = context if dry_run else json.loads(json.dumps(context))
        return StepContext(
            run_id=run_id,
            flow=flow,
            state=state,
            context=MappingProxyType(snapshot),
            project_root=self.project_root,
            progress=progress,
            attempt=attempt,
            dry_run=dry_run,
        )

    def guard(
        self,
        run_id: str,
        defn: FlowDefinition,
        src: str,
        event: str,
        context: Mapping[str, Any],
        inputs: Mapping[str, Any],
        *,
        dry_run: bool = False,
    ) -> GuardContext:
        return GuardContext(
            run_id=run_id,
            flow=defn.flow,
            source=src,
            event=event,
            target=defn.states[src].on[event].target,
            context=MappingProxyType(dict(context)),
            inputs=MappingProxyType(dict(inputs)),
            project_root=self.project_root,
            env=self.env,
            dry_run=dry_run,
        )
