"""Draw a flow: Mermaid ``stateDiagram-v2`` or plain text.

With the path a run took, Mermaid output marks the visited states and the
current one, so ``vibflow flows show NAME --run RUN`` shows where a run is.
"""

from __future__ import annotations

from collections.abc import Sequence

from vibflow.engine.definition import FlowDefinition


def _state_label(defn: FlowDefinition, name: str) -> str:
    state = defn.states[name]
    if state.step:
        return f"{name}: {name} ⟨{state.step}⟩"
    if state.wait:
        return f"{name}: {name} ⏸ {state.wait}"
    return f"{name}: {name}"


def mermaid(
    defn: FlowDefinition, *, visited: Sequence[str] = (), current: str | None = None
) -> str:
    lines = ["stateDiagram-v2", f"    %% flow {defn.flow} v{defn.version}"]
    for name in defn.states:
        lines.append(f"    {_state_label(defn, name)}")
    lines.append(f"    [*] --> {defn.initial}")
    for src, event, spec in defn.edges():
        guards = f" [{', '.join(g.label() for g in spec.guards)}]" if spec.guards else ""
        lines.append(f"    {src} --> {spec.target}: {event}{guards}")
    for name, state in defn.states.items():
        if state.final:
            lines.append(f"    {name} --> [*]")
    if visited:
        lines.append("    classDef visited fill:#d9f2d9,stroke:#2e7d32")
        lines.append("    classDef current fill:#fff3c4,stroke:#b8860b,stroke-width:3px")
        for name in dict.fromkeys(visited):
            if name != current:
                lines.append(f"    class {name} visited")
    if current:
        lines.append(f"    class {current} current")
    return "\n".join(lines) + "\n"


def text(defn: FlowDefinition) -> str:
    out = [f"flow {defn.flow} (version {defn.version})"]
    if defn.description:
        out.append(f"  {defn.description}")
    out.append(f"  starts at: {defn.initial}")
    if defn.inputs:
        taken = ", ".join(f"{k}: {t}" for k, t in defn.inputs.items())
        out.append(f"  inputs at start (vibflow run {defn.flow} --input KEY=VALUE): {taken}")
    for name, state in defn.states.items():
        kind = {
            "step": f"runs {state.step}",
            "wait": f"waits for {state.wait}",
            "final": "final" + (f", runs {state.step}" if state.step else ""),
            "pass": "passes through",
        }[state.kind]
        if state.mutates:
            kind += f" (mutates {state.mutates.value})"
        out.append(f"  {name}: {kind}")
        if state.inputs:
            out.append("    inputs: " + ", ".join(f"{k}: {t}" for k, t in state.inputs.items()))
        for event, spec in state.on.items():
            guards = (
                f"  [guards: {', '.join(g.label() for g in spec.guards)}]" if spec.guards else ""
            )
            out.append(f"    on {event} → {spec.target}{guards}")
    return "\n".join(out) + "\n"
