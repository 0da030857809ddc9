"""The verified IR as a ``transitions`` state machine.

One :class:`FlowMachine` per definition digest. It owns the question "may
this event move this run from here, and where to?": the event must exist for
the source state and every guard on the transition must pass, in declared
order, stopping at the first refusal (later guards may acquire things, like a
lock, that an earlier refusal makes pointless). Guards that acquired
something are released when a later one refuses.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from transitions import Machine, MachineError

from vibflow.engine.definition import FlowDefinition, GuardRef
from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.registry import GuardContext, GuardResult, Registry


@dataclass(frozen=True)
class GuardOutcome:
    name: str
    param: Any
    family: str
    passed: bool
    reason: str | None
    facts: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"guard": self.name, "passed": self.passed}
        if self.param is not None:
            out["param"] = self.param
        if self.reason:
            out["reason"] = self.reason
        return out


@dataclass
class GuardProbe:
    """Carries the guard context into ``transitions`` conditions and collects results."""

    context: GuardContext
    outcomes: list[GuardOutcome] = field(default_factory=list)

    @property
    def refusal(self) -> GuardOutcome | None:
        return next((o for o in self.outcomes if not o.passed), None)


class _Model:
    state: str


class FlowMachine:
    def __init__(self, defn: FlowDefinition, registry: Registry) -> None:
        self.definition = defn
        self._registry = registry
        transitions = [
            {
                "trigger": event,
                "source": src,
                "dest": spec.target,
                "conditions": [self._condition(ref) for ref in spec.guards],
            }
            for src, event, spec in defn.edges()
        ]
        # One model reused for every firing (set_state, then trigger): adding
        # and removing a model per event costs a call per state. A runner
        # advances one run at a time, so the shared model is never contended.
        self._model = _Model()
        self._machine = Machine(
            model=self._model,
            states=list(defn.states),
            transitions=transitions,
            initial=defn.initial,
            auto_transitions=False,
            send_event=True,
            model_attribute="state",
        )

    def _condition(self, ref: GuardRef) -> Callable[[Any], bool]:
        spec = self._registry.get_guard(ref.name)

        def check(event_data: Any) -> bool:
            probe: GuardProbe = event_data.kwargs["probe"]
            try:
                raw = spec.fn(probe.context, ref.param)
                result = raw if isinstance(raw, GuardResult) else GuardResult(bool(raw))
            except VibflowError as exc:
                result = GuardResult.refuse(f"the '{ref.name}' check could not run: {exc.message}")
            except Exception as exc:  # noqa: BLE001 - a guard that breaks must refuse, not pass
                result = GuardResult.refuse(
                    f"the '{ref.name}' check failed unexpectedly ({type(exc).__name__})"
                )
            reason = result.reason
            if not result.passed and not reason:
                reason = f"the '{ref.label()}' check did not pass"
            probe.outcomes.append(
                GuardOutcome(
                    ref.name,
                    ref.param,
                    spec.family.value,
                    result.passed,
                    reason,
                    dict(result.facts),
                )
            )
            return result.passed

        return check

    def fire(self, state: str, event: str, probe: GuardProbe) -> str | None:
        """The target state if the event may fire from ``state``, else None
        (a guard refused; ``probe.refusal`` says why)."""
        model = self._model
        self._machine.set_state(state, model=model)
        try:
            moved = model.trigger(event, probe=probe)  # type: ignore[attr-defined]
        except MachineError as exc:
            raise VibflowError(
                ErrorCode.UNKNOWN_EVENT,
                f"state '{state}' does not accept event '{event}'",
            ) from exc
        if not moved:
            self._release(state, event, probe)
            return None
        return model.state

    def _release(self, state: str, event: str, probe: GuardProbe) -> None:
        spec = self.definition.states[state].on[event]
        passed = {o.name for o in probe.outcomes if o.passed}
        for ref in reversed(spec.guards):
            g = self._registry.get_guard(ref.name)
            if ref.name in passed and g.release is not None:
                g.release(probe.context, ref.param)
