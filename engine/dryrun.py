"""Dry runs: walk a flow the way a run would, and write nothing.

Guards are evaluated (with ``dry_run=True`` so a lock guard does not take the
lock) and read-only steps run; a step that mutates anything is skipped and
assumed to end with ``done``. The walk stops at the first wait, final state,
refusal or failure, or when a state is visited a third time (a loop). It uses
the same machine and contexts as a real run, so a dry run answers "what
would happen from here" with the real guards, not a model of them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from vibflow.engine.contexts import ContextFactory, as_result, merge_context
from vibflow.engine.definition import FlowDefinition, StateSpec
from vibflow.engine.errors import VibflowError
from vibflow.engine.kinds import Mutation
from vibflow.engine.machine import FlowMachine, GuardProbe
from vibflow.engine.progress import MemoryProgress
from vibflow.engine.registry import Registry

_DRY_RUN_ID = "run_dry"
_MAX_VISITS = 3


@dataclasses.dataclass
class DryRunReport:
    flow: str
    path: list[dict[str, Any]]
    skipped: list[str]
    ended: str  # "final" | "wait" | "blocked" | "failed" | "loop"
    blocked_reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclasses.dataclass
class DryRun:
    definition: FlowDefinition
    machine: FlowMachine
    registry: Registry
    contexts: ContextFactory

    def walk(self, inputs: Mapping[str, Any] | None = None) -> DryRunReport:
        defn = self.definition
        report = DryRunReport(defn.flow, [], [], "loop")
        state_name = defn.initial
        context: dict[str, Any] = {"inputs": dict(inputs or {})}
        visits: dict[str, int] = {}
        while visits.get(state_name, 0) < _MAX_VISITS:
            visits[state_name] = visits.get(state_name, 0) + 1
            state = defn.states[state_name]
            hop: dict[str, Any] = {"state": state_name, "kind": state.kind}
            report.path.append(hop)
            if state.kind == "wait":
                hop["events"] = list(state.on)
                report.ended = "wait"
                return report
            stepped = self._step(state_name, state, context, hop, report)
            if stepped is None:
                return report
            event, context = stepped
            if state.final:
                report.ended = "final"
                return report
            target = self._move(state_name, state, event, context, hop, report)
            if target is None:
                return report
            state_name = target
        return report

    def _step(
        self,
        name: str,
        state: StateSpec,
        context: dict[str, Any],
        hop: dict[str, Any],
        report: DryRunReport,
    ) -> tuple[str, dict[str, Any]] | None:
        """The event the state's step ends with and the context after it; None
        if the step failed (the report says so)."""
        if state.step is None:
            return "done", context
        spec = self.registry.get_step(state.step)
        if spec.mutates is not Mutation.NONE:
            report.skipped.append(name)
            hop["skipped"] = f"{spec.name} (mutates {spec.mutates.value})"
            return ("done" if "done" in state.on else next(iter(state.on), "done")), context
        ctx = self.contexts.step(
            run_id=_DRY_RUN_ID,
            flow=self.definition.flow,
            state=name,
            context=context,
            progress=MemoryProgress(),
            dry_run=True,
        )
        try:
            result = as_result(spec.fn(ctx))
        except VibflowError as exc:
            hop["error"] = exc.message
            report.ended = "failed"
            return None
        return result.event, merge_context(context, result.context)

    def _move(
        self,
        name: str,
        state: StateSpec,
        event: str,
        context: dict[str, Any],
        hop: dict[str, Any],
        report: DryRunReport,
    ) -> str | None:
        """The state ``event`` leads to; None if it leads nowhere or a guard refused."""
        hop["event"] = event
        if event not in state.on:
            hop["error"] = f"no transition for event '{event}'"
            report.ended = "failed"
            return None
        probe = GuardProbe(
            self.contexts.guard(
                _DRY_RUN_ID, self.definition, name, event, context, {}, dry_run=True
            )
        )
        target = self.machine.fire(name, event, probe)
        hop["guards"] = [o.to_json() for o in probe.outcomes]
        if target is None:
            report.ended = "blocked"
            report.blocked_reason = probe.refusal.reason if probe.refusal else None
        return target
