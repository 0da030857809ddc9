"""Plain-language rendering of memory for `vibflow memory show`.

Stale things are labelled stale right where they are shown (P0 gate 5):
the intent is never printed without its freshness.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from vibflow.cli.visible_text import one_line

if TYPE_CHECKING:
    from vibflow.steps.memory.service import MemoryView


def render(view: MemoryView) -> str:
    state, fresh = view.state, view.freshness
    lines: list[str] = []
    if view.read_only:
        lines.append("(read-only: this memory was written by a newer vibflow)")
    intent = state.active_intent
    if intent is None:
        lines.append("Intent: (none) — set one with `vibflow memory intent TEXT`")
    else:
        label = ""
        if fresh.intent_stale:
            label = " [STALE: " + "; ".join(fresh.intent_reasons) + "]"
        elif fresh.intent_proposed:
            label = " [PROPOSED — not confirmed; confirm with `vibflow memory intent`]"
        lines.append(f"Intent: {one_line(intent.text)}{label}")
        lines.append(f"  set {intent.last_updated} by {intent.updated_by}")
    nxt = state.next_action
    lines.append(f"Next action: {one_line(nxt.text)}" if nxt else "Next action: (none)")
    lines.append(
        f"Decisions: {len(state.decisions)}"
        + (f" (+{len(state.archived_decisions)} archived)" if state.archived_decisions else "")
    )
    for d in state.decisions[-5:]:
        lines.append(f"  - {one_line(d.text)}")
    explicit = [f for f in state.relevant_files if f.source == "explicit"]
    observed = [f for f in state.relevant_files if f.source == "observed"]
    lines.append(f"Relevant files: {len(explicit)} explicit, {len(observed)} observed")
    for f in explicit[:10]:
        lines.append(f"  - {one_line(f.path)}" + (f" — {one_line(f.why)}" if f.why else ""))
    if len(explicit) > 10:
        lines.append(f"  ... and {len(explicit) - 10} more (`vibflow memory show --json`)")
    by_id = {v.id: v for v in fresh.verification}
    unsure = fresh.unsure_verification
    lines.append(
        f"Verification: {len(state.verification)} ({fresh.stale_verification} stale"
        + (f", {unsure} unsure)" if unsure else ")")
    )
    for v in state.verification[-5:]:
        seen = by_id.get(v.id)
        if seen and seen.stale:
            tag = f"STALE — {seen.reason}"
        elif seen and seen.unsure:
            tag = f"UNSURE — {seen.unsure}"
        else:
            tag = "fresh"
        lines.append(f"  - {one_line(v.command)}: {v.result} [{one_line(tag)}]")
    if state.risks:
        lines.append(f"Risks: {len(state.risks)}")
        for r in state.risks[-5:]:
            lines.append(f"  - ({r.kind}) {one_line(r.text)}")
    if state.observed_context:
        lines.append(
            f"Observed: {len(state.observed_context)} event(s), latest "
            f"{state.observed_context[-1].kind} at {state.observed_context[-1].at}"
        )
    return "\n".join(lines) + "\n"
