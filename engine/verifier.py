"""Static checks a flow must pass before anything runs.

Structure (initial and targets exist, every state reachable, every non-final
state has a way out and can still reach an end, waits declare their events,
finals have none), the registry (steps and guards exist, guard parameters fit,
declared ``mutates`` agrees with the step), and the **trusted shape**: a state
whose step mutates files is entered only

* from a ``wait`` state (the user's confirmation),
* that is itself reachable only after a ``checkpoint_only`` (sandwich) state,
* over a transition guarded by every family in :data:`APPLY_GUARD_FAMILIES`,
  whose feature flag is one the registry declares for file changes
  (:meth:`Registry.allow_apply_flag`; for vibflow only ``RECOVERY_APPLY``,
  spec §12: a flag named after any other variable — ``HOME`` is always set —
  would make the guard a formality).

So "explain → preview → safety checkpoint → confirmed apply" holds by
construction, even for flows a user writes in ``.vibflow/flows/``. The checks
are pure: they return :class:`Problem` values with the YAML path they concern;
the loader turns those paths into ``file:line:col``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from vibflow.engine.definition import FlowDefinition
from vibflow.engine.kinds import Mutation
from vibflow.engine.registry import GuardFamily, Registry, nearest

APPLY_GUARD_FAMILIES: tuple[GuardFamily, ...] = (
    GuardFamily.CONFIRMATION,
    GuardFamily.FEATURE_FLAG,
    GuardFamily.GRANT,
    GuardFamily.LOCK,
    GuardFamily.SANDWICH,
    GuardFamily.PATH_CONTRACT,
)


@dataclass(frozen=True)
class Problem:
    path: tuple[str | int, ...]
    message: str


def verify(defn: FlowDefinition, registry: Registry) -> list[Problem]:
    """Every problem with ``defn``, most fundamental first."""
    problems: list[Problem] = []
    problems += _structure(defn)
    problems += _registry(defn, registry)
    if not problems:
        # Graph rules are meaningless on a flow whose names do not resolve.
        problems += _graph(defn)
        problems += _trusted_shape(defn, registry)
    return problems


def _structure(defn: FlowDefinition) -> list[Problem]:
    out: list[Problem] = []
    states = defn.states
    if defn.initial not in states:
        out.append(
            Problem(
                ("initial",),
                f"initial state '{defn.initial}' is not defined{nearest(defn.initial, states)}",
            )
        )
    for name, state in states.items():
        base = ("states", name)
        for event, spec in state.on.items():
            if spec.target not in states:
                out.append(
                    Problem(
                        (*base, "on", event),
                        f"event '{event}' of state '{name}' leads to undefined state "
                        f"'{spec.target}'{nearest(spec.target, states)}",
                    )
                )
        if state.on_blocked is not None and state.on_blocked not in states:
            out.append(
                Problem(
                    (*base, "on_blocked"),
                    f"on_blocked of state '{name}' names undefined state '{state.on_blocked}'"
                    f"{nearest(state.on_blocked, states)}",
                )
            )
        kind = state.kind
        if kind == "final" and state.on:
            out.append(Problem((*base, "on"), f"final state '{name}' must not have events ('on')"))
        elif kind == "wait" and not state.on:
            out.append(
                Problem(
                    base,
                    f"state '{name}' waits for '{state.wait}' but declares no events under 'on'",
                )
            )
        elif kind == "step" and not state.on:
            out.append(
                Problem(
                    base,
                    f"state '{name}' runs a step but has no events under 'on'; "
                    "add the step's outcomes (for example 'done') or mark it 'final: true'",
                )
            )
        elif kind == "pass" and set(state.on) != {"done"}:
            out.append(
                Problem(
                    base,
                    f"state '{name}' has no step, wait or final, so it passes straight "
                    "through and needs exactly one event, 'done'",
                )
            )
    return out


def _registry(defn: FlowDefinition, registry: Registry) -> list[Problem]:
    out: list[Problem] = []
    for name, state in defn.states.items():
        base = ("states", name)
        if state.step is not None:
            if not registry.has_step(state.step):
                out.append(
                    Problem(
                        (*base, "step"),
                        f"unknown step '{state.step}'{nearest(state.step, registry.step_names)}",
                    )
                )
            else:
                actual = registry.get_step(state.step).mutates
                if state.mutates is not None and state.mutates != actual:
                    out.append(
                        Problem(
                            (*base, "mutates"),
                            f"state '{name}' declares mutates: {state.mutates.value}, but step "
                            f"'{state.step}' is registered as mutates: {actual.value}",
                        )
                    )
        elif state.mutates not in (None, Mutation.NONE):
            out.append(
                Problem((*base, "mutates"), f"state '{name}' runs no step, so it mutates nothing")
            )
        for event, spec in state.on.items():
            for index, ref in enumerate(spec.guards):
                where = (*base, "on", event, "guards", index)
                if not registry.has_guard(ref.name):
                    out.append(
                        Problem(
                            where,
                            f"unknown guard '{ref.name}'{nearest(ref.name, registry.guard_names)}",
                        )
                    )
                    continue
                g = registry.get_guard(ref.name)
                if g.param == "required" and ref.param is None:
                    out.append(
                        Problem(
                            where, f"guard '{ref.name}' needs a parameter: {{{ref.name}: VALUE}}"
                        )
                    )
                if g.param == "none" and ref.param is not None:
                    out.append(
                        Problem(
                            where, f"guard '{ref.name}' takes no parameter; write just '{ref.name}'"
                        )
                    )
    return out


def _successors(defn: FlowDefinition) -> dict[str, list[str]]:
    succ: dict[str, list[str]] = {name: [] for name in defn.states}
    for name, state in defn.states.items():
        succ[name].extend(spec.target for spec in state.on.values())
        if state.on_blocked is not None:
            succ[name].append(state.on_blocked)
    return succ


def _reach(start: Iterable[str], succ: dict[str, list[str]]) -> set[str]:
    seen = set(start)
    todo = deque(seen)
    while todo:
        for nxt in succ[todo.popleft()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def _graph(defn: FlowDefinition) -> list[Problem]:
    out: list[Problem] = []
    succ = _successors(defn)
    reachable = _reach([defn.initial], succ)
    for name in defn.states:
        if name not in reachable:
            out.append(
                Problem(
                    ("states", name), f"state '{name}' can never be reached from '{defn.initial}'"
                )
            )
    pred: dict[str, list[str]] = {name: [] for name in defn.states}
    for src, targets in succ.items():
        for dst in targets:
            pred[dst].append(src)
    finals = [n for n, s in defn.states.items() if s.final]
    if not finals:
        out.append(
            Problem(("states",), "the flow has no final state ('final: true'), so no run can end")
        )
        return out
    can_end = _reach(finals, pred)
    for name in defn.states:
        if name in reachable and name not in can_end:
            out.append(
                Problem(
                    ("states", name),
                    f"state '{name}' is a dead end: no final state can be reached from it",
                )
            )
    return out


def _trusted_shape(defn: FlowDefinition, registry: Registry) -> list[Problem]:
    out: list[Problem] = []
    states = defn.states

    def mutation(name: str) -> Mutation:
        step = states[name].step
        return registry.get_step(step).mutates if step else Mutation.NONE

    mutating = [n for n in states if mutation(n) is Mutation.FILES]
    if not mutating:
        return out
    # States reachable from the start without first passing a sandwich state
    # (none, when the flow starts with the sandwich itself).
    succ = _successors(defn)
    starts_safe = mutation(defn.initial) is Mutation.CHECKPOINT_ONLY
    bare: set[str] = set() if starts_safe else {defn.initial}
    todo = deque(bare)
    while todo:
        cur = todo.popleft()
        for nxt in succ[cur]:
            if nxt not in bare and mutation(nxt) is not Mutation.CHECKPOINT_ONLY:
                bare.add(nxt)
                todo.append(nxt)
    for name in mutating:
        if name == defn.initial:
            out.append(
                Problem(
                    ("initial",), f"state '{name}' changes files, so it cannot be the initial state"
                )
            )
            continue
        for src, state in states.items():
            if state.on_blocked == name:
                out.append(
                    Problem(
                        ("states", src, "on_blocked"),
                        f"on_blocked of '{src}' leads to '{name}', which changes files; "
                        "it may only be entered through a guarded confirmation",
                    )
                )
            for event, spec in state.on.items():
                if spec.target == name:
                    out += _entry_problems(defn, registry, name, src, event, bare)
    return out


def _entry_problems(
    defn: FlowDefinition, registry: Registry, name: str, src: str, event: str, bare: set[str]
) -> list[Problem]:
    """What is wrong with the transition ``src --event--> name`` into a files-mutating state."""
    out: list[Problem] = []
    where = ("states", src, "on", event)
    if defn.states[src].kind != "wait":
        out.append(
            Problem(
                where,
                f"state '{name}' changes files, so it may only be entered from a "
                f"confirmation wait; '{src}' is not a 'wait' state",
            )
        )
    elif src in bare:
        out.append(
            Problem(
                where,
                f"state '{name}' changes files, but '{src}' can be reached without passing a "
                "sandwich checkpoint state (a step with mutates: checkpoint_only)",
            )
        )
    spec = defn.states[src].on[event]
    for index, ref in enumerate(spec.guards):
        if registry.get_guard(ref.name).family is not GuardFamily.FEATURE_FLAG:
            continue
        flag = str(ref.param or "")
        if flag.upper() not in registry.apply_flags:
            allowed = " or ".join(sorted(registry.apply_flags)) or "(none is declared)"
            out.append(
                Problem(
                    (*where, "guards", index),
                    f"the transition into '{name}' changes files, so its feature flag must be "
                    f"{allowed} (the only switch for file changes), not '{flag}'",
                )
            )
    families = {registry.get_guard(g.name).family for g in spec.guards}
    missing = [f.value for f in APPLY_GUARD_FAMILIES if f not in families]
    if missing:
        out.append(
            Problem(
                where,
                f"the transition into '{name}' changes files and must carry guards of every "
                f"family {', '.join(f.value for f in APPLY_GUARD_FAMILIES)}; "
                f"missing: {', '.join(missing)}",
            )
        )
    return out
