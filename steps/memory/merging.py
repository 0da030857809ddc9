"""Merging an imported memory (already through the write gate) into the
current one: no duplicate decisions or files, the current intent kept (an
imported one only proposed), and an observed event saying what came in."""

from __future__ import annotations

from vibflow.steps.memory.models import MemoryState, ObservedEvent


def merge_import(state: MemoryState, imported: MemoryState, dropped: int) -> MemoryState:
    """``imported`` (already through the gate) merged into ``state`` without duplicates."""
    have_decisions = {d.text for d in state.decisions}
    decisions = [
        *state.decisions,
        *(d for d in imported.decisions if d.text not in have_decisions),
    ]
    files = list(state.relevant_files)
    have_files = {(f.path, f.source) for f in files}
    for f in imported.relevant_files:
        # Two legacy spellings of one file are one entry once canonicalized.
        if (f.path, f.source) not in have_files:
            have_files.add((f.path, f.source))
            files.append(f)
    verification = [
        *state.verification,
        *imported.verification,
    ]
    risks = [*state.risks, *imported.risks]
    intent = state.active_intent
    if intent is None and imported.active_intent is not None:
        intent = imported.active_intent.model_copy(update={"proposed": True})
    next_action = state.next_action or imported.next_action
    observed = [
        *state.observed_context,
        *imported.observed_context,
        ObservedEvent(
            kind="memory_import",
            source="import",
            detail={
                "decisions": len(imported.decisions),
                "verification": len(imported.verification),
                "dropped_paths": dropped,
            },
        ),
    ]
    unknown = {**imported.unknown_fields, **state.unknown_fields}
    return state.model_copy(
        update={
            "decisions": decisions,
            "relevant_files": files,
            "verification": verification,
            "risks": risks,
            "active_intent": intent,
            "next_action": next_action,
            "observed_context": observed,
            "unknown_fields": unknown,
        }
    )
