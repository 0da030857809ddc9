"""Signals → RecoveryPlan (read-only, pure).

Phase-1 plans are always ``mode: read_only`` and never change a file
(``files_modified: 0``). With the circuit breaker degraded, no drift labels
are produced and the plan says so.
"""

from __future__ import annotations

from vibflow.steps.recovery.breaker import BreakerState
from vibflow.steps.recovery.models import RecoveryPlan
from vibflow.steps.recovery.options import build_options, safe_checkpoint
from vibflow.steps.recovery.signals import Signals
from vibflow.steps.recovery.zone import MemorySignals, drift, infer_zone


def plan(
    signals: Signals,
    categories: dict[str, list[str]],
    breaker: BreakerState,
    *,
    apply_blocked_reason: str | None,
) -> RecoveryPlan:
    memory = signals.memory
    relevant = [c for c in signals.changed if not c.generated]
    # The labels memory would give: shown normally; kept for feedback (but not
    # shown) while the breaker is degraded, so it can learn its way back.
    labels = drift(
        signals.changed, infer_zone(signals.changed, memory, categories), memory, categories
    )
    degraded = breaker.state == "degraded"
    if degraded:
        memory = MemorySignals(memory.explicit, memory.recent_targets, False, memory.note)
    zone = infer_zone(signals.changed, memory, categories)
    candidates = [] if degraded else labels
    candidate = safe_checkpoint(signals.checkpoints, signals.mtimes, signals.head)
    options = build_options(
        signals.changed, candidates, candidate, apply_blocked_reason=apply_blocked_reason
    )
    narrowed = any(z.source != "diff_fallback" for z in zone)
    notes = []
    if degraded:
        notes.append(
            "drift labelling is switched off because recent labels were often wrong "
            "(circuit breaker degraded); all changes are shown without judging them"
        )
    elif memory.note:
        notes.append(memory.note)
    elif relevant and not narrowed:
        notes.append(
            "memory names no relevant files or recent patch targets, so the plan uses "
            "the diff only (mark files relevant to narrow it)"
        )
    return RecoveryPlan(
        level=options[0].level,
        summary=_summary(
            len(relevant),
            len(candidates),
            candidate is not None and candidate.predates_change,
            len(signals.changed) - len(relevant),
            has_commits=signals.head is not None,
        ),
        memory_mode="memory" if memory.usable and narrowed else "diff_aware",
        memory_note="; ".join(notes) or None,
        intent=signals.intent,
        intent_stale=signals.intent_stale,
        intent_zone=zone,
        drift_candidates=candidates,
        feedback_paths=[d.path for d in labels],
        changed=signals.changed,
        excluded_generated=[c.path for c in signals.changed if c.generated],
        options=options,
        safe_checkpoint_candidate=candidate,
        circuit_breaker_state=breaker.state,
    )


def _summary(changed: int, drifting: int, safe: bool, generated: int, *, has_commits: bool) -> str:
    since = "since the last commit" if has_commits else "in this repository (no commits yet)"
    if changed == 0:
        extra = f" ({generated} generated file(s) ignored)" if generated else ""
        return f"Nothing to recover: no files changed {since}{extra}."
    parts = [f"{changed} file(s) changed {since}"]
    if drifting:
        parts.append(f"{drifting} look outside what you are working on")
    else:
        parts.append("none look outside what you are working on")
    parts.append(
        "a safe checkpoint from before the change exists"
        if safe
        else "no checkpoint predates the change"
    )
    return "; ".join(parts) + "."
