"""Signals → RecoveryPlan (read-only, pure).

Phase-1 plans are always ``mode: read_only`` and never change a file
(``files_modified: 0``). With the circuit breaker degraded, no drift labels
are produced and the plan says so. Recent commits are listed newest first,
only the first few with their subjects (redacted with the rest of the plan),
never with their paths.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from vibflow.steps.paths.contract import DEFAULT_POLICY, PathPolicy
from vibflow.steps.recovery.breaker import BreakerState
from vibflow.steps.recovery.generated import summary
from vibflow.steps.recovery.models import (
    GeneratedReason,
    LeftOutFile,
    RecentCommitInfo,
    RecoveryPlan,
)
from vibflow.steps.recovery.options import build_options, safe_checkpoint, sides
from vibflow.steps.recovery.restorable import unrestorable
from vibflow.steps.recovery.signals import Signals
from vibflow.steps.recovery.zone import MemorySignals, RecentCommit, drift, infer_zone

#: Recent commits the plan lists; the rest are only counted.
COMMITS_SHOWN = 5


def plan(
    signals: Signals,
    categories: dict[str, list[str]],
    breaker: BreakerState,
    *,
    apply_blocked_reason: str | None,
    never_stored: Mapping[str, str] | None = None,
    path_policy: PathPolicy = DEFAULT_POLICY,
) -> RecoveryPlan:
    """``never_stored``: new files no checkpoint would hold (a likely secret by its
    name), each with why — no restore writes or deletes them, as the apply keeps
    every file its safety checkpoint could not hold. ``path_policy``: the project's
    path rules, by which a restore would refuse some names (``restorable``)."""
    memory = signals.memory
    relevant = [c for c in signals.changed if not c.generated]
    commits = signals.commits
    since = [c for c in commits if c.since_intent]
    # The labels memory would give: shown normally; kept for feedback (but not
    # shown) while the breaker is degraded, so it can learn its way back.
    evidence = signals.evidence
    zone = infer_zone(signals.changed, memory, categories, commits, evidence)
    labels = drift(signals.changed, zone, memory, categories, evidence)
    degraded = breaker.state == "degraded"
    if degraded:
        memory = MemorySignals(memory.explicit, memory.recent_targets, False, memory.note)
        # Only a degraded breaker changes what the zone is built from.
        zone = infer_zone(signals.changed, memory, categories, commits, evidence)
    candidates = [] if degraded else labels
    candidate = safe_checkpoint(signals.checkpoints, signals.mtimes, signals.head)
    base = signals.base
    if base is None or candidate is None or base.checkpoint_id != candidate.checkpoint_id:
        base = None  # the source is HEAD: the diff against it says what a restore deletes
    new_files = {c.path for c in signals.changed if c.status in ("added", "untracked")}
    why_left = dict(base.left_out_why) if base is not None else {}
    why_left.update((p, w) for p, w in (never_stored or {}).items() if p in new_files)
    # Names the path guard would refuse at the confirmation, refusing the whole restore.
    why_left.update(unrestorable(signals.changed, path_policy))
    options = build_options(
        signals.changed,
        candidates,
        candidate,
        apply_blocked_reason=apply_blocked_reason,
        held=base.holds if base is not None else None,
        unsaved=(base.unsaved if base is not None else frozenset()) | set(why_left),
        settled=base.settled if base is not None else (),
        committed=base.committed if base is not None else (),
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
            None if candidate is None or not candidate.predates_change else candidate.kind,
            len(signals.changed) - len(relevant),
            has_commits=signals.head is not None,
            reviewing=sum(1 for z in zone if z.requires_user_review),
        ),
        memory_mode="memory" if memory.usable and narrowed else "diff_aware",
        memory_note="; ".join(notes) or None,
        intent=signals.intent,
        intent_stale=signals.intent_stale,
        intent_zone=zone,
        drift_candidates=candidates,
        unsure_paths=[d.path for d in candidates if d.unsure],
        feedback_paths=[d.path for d in labels],
        changed=signals.changed,
        excluded_generated=[c.path for c in signals.changed if c.generated],
        generated_reasons=[
            GeneratedReason(reason=reason, count=n, example=example)
            for reason, n, example in summary(
                {c.path: c.generated_why or "generated" for c in signals.changed if c.generated}
            )
        ],
        regenerated=[
            c.path
            for c in signals.changed
            if c.lockfile
            and c.path not in {z.path for z in zone}
            and c.path not in {d.path for d in candidates}
        ],
        left_out=[
            LeftOutFile(path=p, why=why_left[p])
            for c in signals.changed
            for p, _ in sides(c)
            if p in why_left
        ],
        recent_commits=_shown(commits),
        recent_commits_total=len(commits),
        recent_commits_since_intent=len(since),
        recent_commits_since_intent_files=len({p for c in since for p in c.paths}),
        options=options,
        safe_checkpoint_candidate=candidate,
        circuit_breaker_state=breaker.state,
    )


def _shown(commits: Sequence[RecentCommit]) -> list[RecentCommitInfo]:
    return [
        RecentCommitInfo(
            commit=c.short,
            subject=c.subject,
            committed_at=_iso(c.committed_at),
            files_count=c.files_count,
            since_intent=c.since_intent,
        )
        for c in commits[:COMMITS_SHOWN]
    ]


def _iso(ts: float) -> str | None:
    try:
        return datetime.fromtimestamp(ts, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    except (OverflowError, OSError, ValueError):
        return None  # a commit dated beyond what a datetime holds (crafted history)


def _summary(
    changed: int,
    drifting: int,
    safe: str | None,
    generated: int,
    *,
    has_commits: bool,
    reviewing: int = 0,
) -> str:
    since = "since the last commit" if has_commits else "in this repository (no commits yet)"
    if changed == 0:
        extra = f" ({generated} generated file(s) ignored)" if generated else ""
        return f"Nothing to recover: no files changed {since}{extra}."
    parts = [f"{changed} file(s) changed {since}"]
    if drifting:
        parts.append(f"{drifting} look outside what you are working on")
    else:
        parts.append("none look outside what you are working on")
    if reviewing:
        # In scope, but not all of it: a manifest's version bump beside the dependency.
        parts.append(
            f"{reviewing} in-scope file(s) also hold changes your work does not explain "
            "(please review)"
        )
    parts.append(
        {
            "checkpoint": "a safe checkpoint from before the change exists",
            "commit": "no checkpoint predates the change, so the last commit is the safe "
            "point for tracked files",
        }.get(safe or "", "no checkpoint predates the change")
    )
    return "; ".join(parts) + "."
