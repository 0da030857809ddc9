"""What changed between the definition a run started with and the file now.

A run always executes its stored copy; this diff is what resume reports so
the user knows the YAML moved on underneath it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from vibflow.engine.definition import FlowDefinition


@dataclass(frozen=True)
class DefinitionDiff:
    states_added: list[str] = field(default_factory=list)
    states_removed: list[str] = field(default_factory=list)
    transitions_added: list[str] = field(default_factory=list)
    transitions_removed: list[str] = field(default_factory=list)
    states_changed: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (
            self.states_added
            or self.states_removed
            or self.transitions_added
            or self.transitions_removed
            or self.states_changed
        )

    def to_json(self) -> dict[str, list[str]]:
        return {
            "states_added": self.states_added,
            "states_removed": self.states_removed,
            "transitions_added": self.transitions_added,
            "transitions_removed": self.transitions_removed,
            "states_changed": self.states_changed,
        }


def _edges(defn: FlowDefinition) -> set[str]:
    return {f"{src} --{event}--> {spec.target}" for src, event, spec in defn.edges()}


def diff(stored: FlowDefinition, current: FlowDefinition) -> DefinitionDiff:
    old, new = set(stored.states), set(current.states)
    changed = sorted(
        name
        for name in old & new
        if stored.states[name].model_dump(exclude={"on", "description"})
        != current.states[name].model_dump(exclude={"on", "description"})
        or any(
            stored.states[name].on[e].guards != current.states[name].on[e].guards
            for e in set(stored.states[name].on) & set(current.states[name].on)
        )
    )
    return DefinitionDiff(
        states_added=sorted(new - old),
        states_removed=sorted(old - new),
        transitions_added=sorted(_edges(current) - _edges(stored)),
        transitions_removed=sorted(_edges(stored) - _edges(current)),
        states_changed=changed,
    )
