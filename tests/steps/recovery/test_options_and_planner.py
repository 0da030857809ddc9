"""Recovery options ranking and blocked reasons, and the planner (degraded, read-only,
diff-aware).

Pure parts of the recovery advisor, with constructed inputs (builders in
``vibflow_testing.recovery_inputs``)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from vibflow_testing.recovery_inputs import (
    ACTIVE,
    CATEGORIES,
    CHANGED,
    DEGRADED,
    DRIFT,
    INCOMPLETE,
    LATE,
    SAFE,
    changed,
    mem,
    signals,
    sources,
)

from vibflow.steps.recovery import planner
from vibflow.steps.recovery.models import DriftCandidate, SafeCheckpointCandidate
from vibflow.steps.recovery.options import build_options

# -- options ------------------------------------------------------------------------------


def levels(opts: list[Any]) -> list[int]:
    return [o.level for o in opts]


def test_nothing_changed_is_level_zero() -> None:
    """No changes, or only generated ones: a single recommended level-0 option."""
    for files_ in ([], [changed("dist/a.js", "untracked", generated=True)]):
        opts = build_options(files_, [], SAFE, apply_blocked_reason=None)
        assert levels(opts) == [0]
        assert opts[0].recommended


def test_partial_restore_is_preferred_when_it_can_run() -> None:
    """With drift, a safe checkpoint and apply available: partial restore recommended,
    then the rest by level; full rollback offered but not recommended."""
    opts = build_options(CHANGED, DRIFT, SAFE, apply_blocked_reason=None)
    assert levels(opts) == [3, 1, 2, 4]
    assert opts[0].recommended
    assert not any(o.recommended for o in opts[1:])
    assert all(o.blocked_reason is None for o in opts)


def test_apply_flag_blocks_restores_without_changing_the_recommendation() -> None:
    """With apply not available, partial restore is still the recommended (safest) option;
    it and full rollback carry the apply reason — the flag decides whether an option can
    run, not which one is recommended."""
    opts = build_options(CHANGED, DRIFT, SAFE, apply_blocked_reason="apply is not enabled")
    assert levels(opts) == [3, 1, 2, 4]
    assert opts[0].recommended
    assert {o.level: o.blocked_reason for o in opts} == {
        2: None,
        1: None,
        3: "apply is not enabled",
        4: "apply is not enabled",
    }


def test_no_checkpoint_blocks_restore_and_hides_full_rollback() -> None:
    """Without a checkpoint: partial restore blocked with why, no full rollback."""
    opts = build_options(CHANGED, DRIFT, None, apply_blocked_reason=None)
    assert levels(opts) == [2, 1, 3]
    assert "no checkpoint exists yet" in (opts[2].blocked_reason or "")


@pytest.mark.parametrize("candidate", [LATE, INCOMPLETE], ids=["after-change", "incomplete"])
def test_unsafe_checkpoint_blocks_restore_and_hides_full_rollback(
    candidate: SafeCheckpointCandidate,
) -> None:
    """A checkpoint that does not predate the change, or has incomplete metadata, is not
    used: partial restore blocked ('no safe checkpoint predates the change'), no level 4."""
    opts = build_options(CHANGED, DRIFT, candidate, apply_blocked_reason=None)
    assert levels(opts) == [2, 1, 3]
    assert opts[2].blocked_reason == "no safe checkpoint predates the change"


def test_no_drift_recommends_explaining_over_rollback() -> None:
    """Without drift the options are explain and full rollback; explain is recommended."""
    opts = build_options(CHANGED, [], SAFE, apply_blocked_reason=None)
    assert levels(opts) == [1, 4]
    assert opts[0].recommended


def test_option_paths_and_flags() -> None:
    """Levels 2-3 affect the drift paths, level 4 every non-generated change; only 3-4 need
    the sandwich and the lock."""
    opts = {o.level: o for o in build_options(CHANGED, DRIFT, SAFE, apply_blocked_reason=None)}
    assert opts[1].affected_paths == []
    assert opts[2].affected_paths == opts[3].affected_paths == ["src/services/auth.py"]
    assert opts[4].affected_paths == ["src/ui/login.py", "src/services/auth.py"]
    for level, opt in opts.items():
        assert opt.requires_sandwich is (level >= 3)
        assert opt.requires_lock is (level >= 3)


@settings(max_examples=200, deadline=None)
@given(
    n_changed=st.integers(0, 4),
    n_drift=st.integers(0, 3),
    candidate=st.sampled_from([None, SAFE, LATE, INCOMPLETE]),
    apply_block=st.sampled_from([None, "apply is not enabled"]),
)
def test_recommendation_is_runnable_and_never_full_rollback(
    n_changed: int, n_drift: int, candidate: Any, apply_block: str | None
) -> None:
    """Exactly one option is recommended, it comes first, nothing but the apply flag keeps
    it from running, and it is never the full rollback; levels 3-4 never run without a
    safe checkpoint."""
    files_ = [changed(f"src/f{i}.py") for i in range(n_changed)]
    drifting = [DriftCandidate(path=f.path, why_outside_zone="x") for f in files_[:n_drift]]
    opts = build_options(files_, drifting, candidate, apply_blocked_reason=apply_block)
    assert [o.recommended for o in opts].count(True) == 1
    assert opts[0].recommended
    assert opts[0].blocked_reason in (None, apply_block)
    assert opts[0].level != 4
    safe = candidate is SAFE
    for o in opts:
        if o.level >= 3 and not safe:
            assert o.blocked_reason


# -- planner ------------------------------------------------------------------------------


def test_planner_degraded_shows_everything_without_judging() -> None:
    """Degraded breaker: no drift, diff-aware mode with the reason, explicit files still
    explicit, the rest diff_fallback."""
    files_ = [changed("src/ui/login.py"), changed("src/services/auth.py")]
    plan = planner.plan(
        signals(files_, mem({"src/ui/login.py": "form"})),
        CATEGORIES,
        DEGRADED,
        apply_blocked_reason=None,
    )
    assert plan.circuit_breaker_state == "degraded"
    assert plan.drift_candidates == []
    assert plan.memory_mode == "diff_aware"
    assert "circuit breaker degraded" in (plan.memory_note or "")
    assert sources(plan.intent_zone) == [
        ("src/ui/login.py", "explicit"),
        ("src/services/auth.py", "diff_fallback"),
    ]


def test_planner_plan_is_read_only() -> None:
    """Planner output is mode read_only, files_modified 0, level of the recommended option,
    and excluded_generated lists the generated changes."""
    plan = planner.plan(
        signals(CHANGED, mem({"src/ui/login.py": "form"})),
        CATEGORIES,
        ACTIVE,
        apply_blocked_reason="apply is switched off",
    )
    assert plan.mode == "read_only"
    assert plan.files_modified == 0
    # The last commit is the safe point: a partial restore from it is the recommendation,
    # which the switched-off flag blocks without changing it.
    assert plan.level == plan.options[0].level == 3
    assert plan.excluded_generated == ["dist/app.js"]
    assert plan.plan_id.startswith("rec_")


def test_planner_says_diff_aware_when_the_zone_is_only_the_diff() -> None:
    """An intent with no explicit files or patch targets cannot narrow the zone; the plan
    then says it is diff-aware rather than presenting the diff as memory-based."""
    plan = planner.plan(
        signals([changed("src/ui/login.py"), changed("lib/x.py")], mem()),
        CATEGORIES,
        ACTIVE,
        apply_blocked_reason=None,
    )
    assert {z.source for z in plan.intent_zone} == {"diff_fallback"}
    assert plan.memory_mode == "diff_aware"
    assert plan.memory_note
