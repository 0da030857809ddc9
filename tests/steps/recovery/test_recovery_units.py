"""The recovery advisor's pure parts, with constructed inputs.

Intent-zone priority (explicit → recent patch target → path category → diff
fallback) and drift, the memory signals read from observed context, options
ranking and blocked reasons, the safe checkpoint choice, the circuit breaker's
thresholds (window 20, < 80 %, minimum sample 5), the planner, and a
hypothesis property: whatever changed and whatever memory says, no explicit
path (or path under an explicit directory) is ever a drift candidate, every
drift candidate needs review, and every changed non-generated file is either
in the zone or a drift candidate — never both, never neither.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vibflow.engine.policy import PolicySet
from vibflow.steps.checkpoints.models import CheckpointMeta
from vibflow.steps.memory.freshness import Freshness
from vibflow.steps.memory.models import (
    ActiveIntent,
    MemoryState,
    ObservedEvent,
    RelevantFile,
)
from vibflow.steps.recovery import breaker, planner
from vibflow.steps.recovery.breaker import BreakerState, LabelStore, evaluate
from vibflow.steps.recovery.models import ChangedFile, DriftCandidate, SafeCheckpointCandidate
from vibflow.steps.recovery.options import build_options, safe_checkpoint
from vibflow.steps.recovery.policy import RecoveryPolicy
from vibflow.steps.recovery.signals import Signals, memory_signals
from vibflow.steps.recovery.zone import MemorySignals, category_of, drift, infer_zone

CATEGORIES: dict[str, list[str]] = dict(
    PolicySet(files("vibflow.policies"), None).section("recovery", RecoveryPolicy).categories
)
ACTIVE = BreakerState("active", None, 0)
DEGRADED = BreakerState("degraded", 0.0, 5)
HEAD = "a" * 40


def changed(
    path: str,
    status: str = "modified",
    *,
    old: str | None = None,
    generated: bool = False,
) -> ChangedFile:
    return ChangedFile(
        path=path,
        status=status,  # type: ignore[arg-type]
        old_path=old,
        category=category_of(path, CATEGORIES),
        generated=generated,
    )


def mem(
    explicit: dict[str, str] | None = None,
    recent: list[str] | None = None,
    *,
    usable: bool = True,
) -> MemorySignals:
    return MemorySignals(explicit or {}, recent or [], usable, None if usable else "stale")


def sources(zone: list[Any]) -> list[tuple[str, str]]:
    return [(z.path, z.source) for z in zone]


def ckpt(n: int, created_at: str, *, complete: bool = True, head: str = HEAD) -> CheckpointMeta:
    return CheckpointMeta(
        checkpoint_id=f"ckpt_{n:032x}",
        created_at=created_at,
        base_head=head,
        metadata_complete=complete,
    )


def ts(iso: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


# -- categories -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "category"),
    [
        ("tests/test_login.py", "test"),
        ("tests/ui/test_form.py", "test"),
        ("src/login_test.go", "test"),
        ("docs/guide.md", "docs"),
        ("README.md", "docs"),
        ("config.yaml", "config"),
        ("pyproject.toml", "config"),
        ("src/conf/app.yaml", None),
        ("src/ui/login.py", "ui"),
        ("web/App.tsx", "ui"),
        ("src/services/auth.py", "service"),
        ("lib/util.py", None),
    ],
)
def test_shipped_categories_classify_paths(path: str, category: str | None) -> None:
    """The shipped policy globs: first match wins, ``*`` stays inside one folder."""
    assert category_of(path, CATEGORIES) == category


# -- zone priority --------------------------------------------------------------------------


def test_explicit_beats_recent_target_and_category() -> None:
    """A path that is explicit, a recent patch target and in the intent's category is
    recorded once, as explicit, with the user's reason."""
    zone = infer_zone(
        [changed("src/ui/login.py")],
        mem({"src/ui/login.py": "the form"}, ["src/ui/login.py"]),
        CATEGORIES,
    )
    assert sources(zone) == [("src/ui/login.py", "explicit")]
    assert zone[0].reason == "explicit relevant_files entry: 'the form'"


def test_zone_is_ordered_by_source_priority() -> None:
    """Explicit entries first, then recent patch targets, then same-category files; a
    recent target beats a category match for the same file."""
    files_ = [
        changed("src/ui/header.py"),
        changed("src/ui/menu.py"),
        changed("tests/test_login.py"),
        changed("src/ui/login.py"),
    ]
    zone = infer_zone(files_, mem({"tests/test_login.py": "tests"}, ["src/ui/menu.py"]), CATEGORIES)
    assert sources(zone) == [
        ("tests/test_login.py", "explicit"),
        ("src/ui/menu.py", "recent_patch_target"),
        ("src/ui/header.py", "project_map_category"),
        ("src/ui/login.py", "project_map_category"),
    ]


def test_category_match_needs_a_seed_of_that_category() -> None:
    """Changed files join the zone by category only if an explicit file or recent target
    has that category; others become drift naming both categories."""
    files_ = [changed("src/ui/login.py"), changed("src/services/auth.py"), changed("lib/x.py")]
    memory = mem({"src/ui/login.py": "form"})
    zone = infer_zone(files_, memory, CATEGORIES)
    assert sources(zone) == [("src/ui/login.py", "explicit")]
    cands = {d.path: d for d in drift(files_, zone, memory, CATEGORIES)}
    assert set(cands) == {"src/services/auth.py", "lib/x.py"}
    assert (
        "'service' differs from the intent's 'ui'" in cands["src/services/auth.py"].why_outside_zone
    )
    assert "none of the intent's folders" in cands["lib/x.py"].why_outside_zone


def test_diff_fallback_only_when_memory_cannot_narrow() -> None:
    """Unusable (empty or stale) memory: explicit entries stay explicit, every other
    changed file is diff_fallback, and nothing is drift."""
    files_ = [changed("src/ui/login.py"), changed("src/services/auth.py")]
    memory = mem({"src/services/auth.py": "keep"}, ["src/ui/login.py"], usable=False)
    zone = infer_zone(files_, memory, CATEGORIES)
    assert sources(zone) == [
        ("src/services/auth.py", "explicit"),
        ("src/ui/login.py", "diff_fallback"),
    ]
    assert drift(files_, zone, memory, CATEGORIES) == []


def test_usable_memory_with_no_seeds_falls_back_to_the_diff() -> None:
    """An intent alone (no explicit files, no patches) cannot narrow: every changed file
    is diff_fallback."""
    files_ = [changed("src/ui/login.py"), changed("lib/x.py")]
    zone = infer_zone(files_, mem(), CATEGORIES)
    assert {s for _, s in sources(zone)} == {"diff_fallback"}


def test_rename_of_explicit_file_is_followed() -> None:
    """The new name of a renamed explicit file is explicit and never drift."""
    files_ = [changed("lib/signin.py", "renamed", old="src/ui/login.py"), changed("lib/x.py")]
    memory = mem({"src/ui/login.py": "form"})
    zone = infer_zone(files_, memory, CATEGORIES)
    assert ("lib/signin.py", "explicit") in sources(zone)
    assert [d.path for d in drift(files_, zone, memory, CATEGORIES)] == ["lib/x.py"]


def test_explicit_directory_with_trailing_slash_covers_its_files() -> None:
    """`src/ui/` covers `src/ui/a/b.py` but not `src/uikit.py`."""
    files_ = [changed("src/ui/a/b.py"), changed("src/uikit.py")]
    memory = mem({"src/ui/": "ui"})
    zone = infer_zone(files_, memory, CATEGORIES)
    assert ("src/ui/a/b.py", "explicit") in sources(zone)
    assert [d.path for d in drift(files_, zone, memory, CATEGORIES)] == ["src/uikit.py"]


def test_generated_files_are_never_drift_or_category_matches() -> None:
    """Generated changes are skipped by the category step and by drift."""
    files_ = [
        changed("src/ui/login.py"),
        changed("src/ui/__pycache__/login.cpython-311.pyc", "untracked", generated=True),
        changed("dist/app.js", "untracked", generated=True),
    ]
    memory = mem(recent=["src/ui/login.py"])
    zone = infer_zone(files_, memory, CATEGORIES)
    assert sources(zone) == [("src/ui/login.py", "recent_patch_target")]
    assert drift(files_, zone, memory, CATEGORIES) == []


# -- memory signals ---------------------------------------------------------------------------


def _view(state: MemoryState, *, stale: bool = False) -> Any:
    reasons = ["the intent was set 30 h ago (stale after 24 h)"] if stale else []
    return SimpleNamespace(
        state=state,
        freshness=Freshness(intent_stale=stale, intent_proposed=False, intent_reasons=reasons),
    )


def test_recent_patch_targets_come_from_patch_and_touched_events() -> None:
    """patch_apply and touched_files events with detail {"paths": [...]} give recent targets
    (deduplicated, in order); other kinds and malformed details are ignored."""
    state = MemoryState(
        active_intent=ActiveIntent(text="ui"),
        observed_context=[
            ObservedEvent(kind="patch_apply", detail={"paths": ["src/a.py", "src/b.py"]}),
            ObservedEvent(kind="commit", detail={"paths": ["src/commit.py"]}),
            ObservedEvent(kind="touched_files", detail={"paths": ["src/c.py", "src/a.py"]}),
            ObservedEvent(kind="patch_apply", detail={"paths": "src/not-a-list.py"}),
            ObservedEvent(kind="touched_files", detail={"count": 3}),
        ],
    )
    memory, intent, stale = memory_signals(_view(state))
    assert list(memory.recent_targets) == ["src/a.py", "src/b.py", "src/c.py"]
    assert memory.usable is True
    assert intent == "ui"
    assert stale is False


def test_only_the_last_twenty_events_count() -> None:
    """Patch targets older than the last 20 observed events are not recent."""
    events = [ObservedEvent(kind="patch_apply", detail={"paths": ["old.py"]})]
    events += [ObservedEvent(kind="note", detail={"n": i}) for i in range(20)]
    state = MemoryState(active_intent=ActiveIntent(text="x"), observed_context=events)
    memory, _, _ = memory_signals(_view(state))
    assert list(memory.recent_targets) == []


def test_explicit_entries_only_explicit_source() -> None:
    """Observed relevant files never count as explicit."""
    state = MemoryState(
        relevant_files=[
            RelevantFile(path="src/a.py", why="mine", source="explicit"),
            RelevantFile(path="src/b.py", why="seen", source="observed"),
        ]
    )
    memory, _, _ = memory_signals(_view(state))
    assert dict(memory.explicit) == {"src/a.py": "mine"}


def test_stale_intent_makes_memory_unusable_but_keeps_explicit() -> None:
    """A stale intent: not usable for narrowing, the note gives the reason, explicit kept."""
    state = MemoryState(
        active_intent=ActiveIntent(text="old"),
        relevant_files=[RelevantFile(path="src/a.py", why="mine")],
    )
    memory, intent, stale = memory_signals(_view(state, stale=True))
    assert memory.usable is False
    assert stale is True
    assert intent == "old"
    assert "stale" in (memory.note or "")
    assert "30 h" in (memory.note or "")
    assert dict(memory.explicit) == {"src/a.py": "mine"}


@pytest.mark.parametrize("view", [None, "empty"])
def test_no_or_empty_memory_is_diff_only(view: str | None) -> None:
    """No memory at all, or an empty one: unusable, with a note saying the diff is used."""
    got = memory_signals(None if view is None else _view(MemoryState()))
    memory, intent, stale = got
    assert memory.usable is False
    assert "diff only" in (memory.note or "")
    assert intent is None
    assert stale is False


# -- options ------------------------------------------------------------------------------

SAFE = SafeCheckpointCandidate(
    checkpoint_id="ckpt_" + "1" * 32,
    created_at="2026-01-01T00:00:00Z",
    predates_change=True,
    metadata_complete=True,
)
LATE = SAFE.model_copy(update={"predates_change": False})
INCOMPLETE = SAFE.model_copy(update={"metadata_complete": False})
CHANGED = [
    changed("src/ui/login.py"),
    changed("src/services/auth.py"),
    changed("dist/app.js", "untracked", generated=True),
]
DRIFT = [DriftCandidate(path="src/services/auth.py", why_outside_zone="outside")]


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


def test_targeted_repair_when_apply_is_blocked() -> None:
    """With apply not available, targeted repair is recommended; restore options carry the
    apply reason."""
    opts = build_options(CHANGED, DRIFT, SAFE, apply_blocked_reason="apply is not enabled")
    assert levels(opts) == [2, 1, 3, 4]
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
    """Exactly one option is recommended, it comes first, it can run, and it is never the
    full rollback; levels 3-4 never run without a safe checkpoint."""
    files_ = [changed(f"src/f{i}.py") for i in range(n_changed)]
    drifting = [DriftCandidate(path=f.path, why_outside_zone="x") for f in files_[:n_drift]]
    opts = build_options(files_, drifting, candidate, apply_blocked_reason=apply_block)
    assert [o.recommended for o in opts].count(True) == 1
    assert opts[0].recommended
    assert opts[0].blocked_reason is None
    assert opts[0].level != 4
    safe = candidate is SAFE
    for o in opts:
        if o.level >= 3 and not safe:
            assert o.blocked_reason


# -- safe checkpoint --------------------------------------------------------------------------


def test_no_checkpoints_no_candidate() -> None:
    """No checkpoints: no candidate (levels 3-4 are not offered)."""
    assert safe_checkpoint([], {"f.py": ts("2026-01-01T10:00:00Z")}, HEAD) is None


def test_newest_complete_checkpoint_before_the_change_is_selected() -> None:
    """Among checkpoints before and after the change, the newest complete one before it."""
    cps = [
        ckpt(1, "2026-01-01T08:00:00Z"),
        ckpt(2, "2026-01-01T09:00:00Z"),
        ckpt(3, "2026-01-01T09:30:00Z", complete=False),
        ckpt(4, "2026-01-01T11:00:00Z"),
    ]
    got = safe_checkpoint(cps, {"f.py": ts("2026-01-01T10:00:00Z")}, HEAD)
    assert got is not None
    assert got.checkpoint_id == cps[1].checkpoint_id
    assert got.predates_change is True
    assert got.metadata_complete is True


def test_when_none_predates_the_newest_is_reported_unselected() -> None:
    """No checkpoint before the change: the newest is reported with predates_change false."""
    cps = [ckpt(1, "2026-01-01T11:00:00Z"), ckpt(2, "2026-01-01T12:00:00Z")]
    got = safe_checkpoint(cps, {"f.py": ts("2026-01-01T10:00:00Z")}, HEAD)
    assert got is not None
    assert got.checkpoint_id == cps[1].checkpoint_id
    assert got.predates_change is False


def test_checkpoint_at_the_exact_change_time_predates() -> None:
    """A checkpoint made at the same instant the change began counts as before it."""
    got = safe_checkpoint(
        [ckpt(1, "2026-01-01T10:00:00Z")], {"f.py": ts("2026-01-01T10:00:00Z")}, HEAD
    )
    assert got is not None
    assert got.predates_change is True


def test_unknown_change_time_uses_the_checkpoint_base_head() -> None:
    """When no changed file has a time (all deleted), a checkpoint on the current HEAD is
    safe and one on another HEAD is not."""
    same = safe_checkpoint([ckpt(1, "2026-01-01T10:00:00Z")], {}, HEAD)
    other = safe_checkpoint([ckpt(1, "2026-01-01T10:00:00Z", head="b" * 40)], {}, HEAD)
    assert same is not None
    assert same.predates_change is True
    assert other is not None
    assert other.predates_change is False


def test_naive_and_bad_timestamps() -> None:
    """A timestamp without zone is UTC; an unparseable one never predates."""
    naive = safe_checkpoint(
        [ckpt(1, "2026-01-01T09:00:00")], {"f.py": ts("2026-01-01T10:00:00Z")}, HEAD
    )
    bad = safe_checkpoint([ckpt(1, "yesterday")], {"f.py": ts("2026-01-01T10:00:00Z")}, HEAD)
    assert naive is not None
    assert naive.predates_change is True
    assert bad is not None
    assert bad.predates_change is False


# -- circuit breaker ----------------------------------------------------------------------------


def test_breaker_constants() -> None:
    """Window 20, threshold 80 %, minimum sample 5."""
    assert (breaker.WINDOW, breaker.THRESHOLD, breaker.MIN_SAMPLE) == (20, 0.8, 5)


@pytest.mark.parametrize(
    ("labels", "state", "accuracy"),
    [
        ([], "active", None),
        ([False] * 4, "active", None),
        ([True] * 4 + [False], "active", 0.8),
        ([True] * 3 + [False] * 2, "degraded", 0.6),
        ([False] * 5, "degraded", 0.0),
        ([True] * 16 + [False] * 4, "active", 0.8),
        ([True] * 15 + [False] * 5, "degraded", 0.75),
        ([False] * 5 + [True] * 15, "degraded", 0.75),
        ([False] * 5 + [True] * 16, "active", 0.8),
        ([False] * 100 + [True] * 20, "active", 1.0),
    ],
    ids=[
        "none",
        "four-wrong-under-min-sample",
        "exactly-80",
        "60",
        "all-wrong",
        "20-at-80",
        "20-at-75",
        "wrong-first-75",
        "wrong-rolled-out",
        "old-wrong-forgotten",
    ],
)
def test_breaker_thresholds(labels: list[bool], state: str, accuracy: float | None) -> None:
    """Below five labels nothing is judged; over the last 20, < 80 % correct degrades."""
    got = evaluate(labels)
    assert got.state == state
    assert got.accuracy == (None if accuracy is None else pytest.approx(accuracy))
    assert got.labels == min(len(labels), 20)


def test_label_store_appends_and_skips_malformed_lines(tmp_path: Path) -> None:
    """Labels append as JSON lines (plan id, verdict, time — no path); a malformed line is
    skipped; a missing file means no labels."""
    store = LabelStore(tmp_path / "recovery" / "drift_labels.jsonl")
    assert store.labels() == []
    assert (
        store.record("rec_1", [("a.py", True), ("b.py", False)], "2026-01-01T00:00:00Z").labels == 2
    )
    with store.path.open("a", encoding="utf-8") as fh:
        fh.write("not json\n{}\n")
    store.record("rec_2", [(f"{i}.py", False) for i in range(3)], "2026-01-01T00:00:01Z")
    assert store.labels() == [True, False, False, False, False]
    assert store.state().state == "degraded"
    assert set(store.path.read_text().splitlines()[0].split('"')) >= {"plan_id", "correct", "at"}


# -- planner ------------------------------------------------------------------------------


def signals(
    files_: list[ChangedFile],
    memory: MemorySignals,
    *,
    checkpoints: list[CheckpointMeta] | None = None,
    started: float | None = None,
) -> Signals:
    mtimes = {f.path: started for f in files_ if not f.generated} if started is not None else {}
    return Signals(HEAD, files_, mtimes, checkpoints or [], memory, "intent", False)


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
    assert plan.level == plan.options[0].level == 2
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


# -- the P0 gate 4 property -------------------------------------------------------------------

DIRS = ["", "src/", "src/ui/", "src/services/", "lib/", "tests/", "docs/", "src/ui/__pycache__/"]
NAMES = ["a.py", "b.md", "c.yaml", "d.pyc", "é.py", "f.tsx"]
PATHS = [d + n for d in DIRS for n in NAMES]


def _generated(path: str) -> bool:
    return "__pycache__/" in path or path.endswith(".pyc")


@st.composite
def scenarios(draw: Any) -> tuple[list[ChangedFile], MemorySignals, BreakerState]:
    chosen = draw(st.lists(st.sampled_from(PATHS), unique=True, max_size=14))
    spare = [p for p in PATHS if p not in chosen]
    out: list[ChangedFile] = []
    for path in chosen:
        kind = draw(st.sampled_from(["modified", "added", "deleted", "untracked", "renamed"]))
        old = None
        if kind == "renamed":
            if not spare:
                kind = "modified"
            else:
                old = draw(st.sampled_from(spare))
                spare.remove(old)
        out.append(changed(path, kind, old=old, generated=_generated(path)))
    pool = chosen + [c.old_path for c in out if c.old_path] + [d.rstrip("/") for d in DIRS if d]
    pool += [d for d in DIRS if d] + spare[:3]
    explicit = draw(st.lists(st.sampled_from(pool), unique=True, max_size=6))
    recent = draw(st.lists(st.sampled_from(PATHS), unique=True, max_size=4))
    memory = MemorySignals(dict.fromkeys(explicit, "why"), recent, draw(st.booleans()))
    state = draw(st.sampled_from([ACTIVE, DEGRADED]))
    return out, memory, state


def _covered(entry: str, path: str) -> bool:
    entry = entry.rstrip("/")
    return path == entry or path.startswith(entry + "/")


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios(), st.sampled_from([None, SAFE, LATE]))
def test_explicit_paths_are_never_drift_and_drift_always_needs_review(
    scenario: tuple[list[ChangedFile], MemorySignals, BreakerState], candidate: Any
) -> None:
    """For any changes, explicit entries, patch targets, memory usability and breaker
    state: no drift candidate is an explicit path, under an explicit directory, or the new
    name of a renamed explicit file; every candidate requires review; each non-generated
    change is in exactly one of zone and drift; options never name a generated file."""
    files_, memory, state = scenario
    started = ts("2026-01-01T10:00:00Z")
    cps = [] if candidate is None else [ckpt(1, candidate.created_at)]
    plan = planner.plan(
        signals(files_, memory, checkpoints=cps, started=started),
        CATEGORIES,
        state,
        apply_blocked_reason=None,
    )
    zone = {z.path for z in plan.intent_zone}
    renamed_from = {c.path: c.old_path for c in files_ if c.old_path}
    for cand in plan.drift_candidates:
        assert cand.requires_user_review is True
        assert not any(_covered(e, cand.path) for e in memory.explicit), cand.path
        assert renamed_from.get(cand.path) not in memory.explicit, cand.path
        assert cand.path not in zone
    drifting = {d.path for d in plan.drift_candidates}
    for c in files_:
        if c.generated:
            assert c.path not in drifting
            assert c.path in plan.excluded_generated
            continue
        assert (c.path in zone) != (c.path in drifting), c.path
    generated = {c.path for c in files_ if c.generated}
    for opt in plan.options:
        assert not generated & set(opt.affected_paths)
    if state.state == "degraded":
        assert plan.drift_candidates == []


def _category_by_loop(path: str, categories: dict[str, list[str]]) -> str | None:
    """The plain reading of the policy: the first category, in order, with a matching glob."""
    from vibflow.steps.recovery.zone import _glob

    for name, patterns in categories.items():
        if any(_glob(p).match(path) for p in patterns):
            return name
    return None


OVERLAPPING = {
    "tests": ["tests/**", "**/test_*.py"],
    "ui": ["src/ui/**", "**/*.tsx"],
    "docs": ["**/*.md", "docs/**"],
    "config": ["*.yaml", "**/*.toml", "config/?.ini"],
}


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["tests", "src", "ui", "docs", "config", "a", "test_x.py", "b.md", "c.tsx", "d.yaml"]
        ),
        min_size=1,
        max_size=5,
    ).map("/".join)
)
def test_one_combined_matcher_picks_the_same_category_as_the_policy_order(path: str) -> None:
    """Globs that overlap across categories (a test file under src/ui, a .md in tests):
    the combined matcher answers what a loop over the categories in order answers."""
    for categories in (OVERLAPPING, dict(reversed(list(OVERLAPPING.items()))), CATEGORIES, {}):
        assert category_of(path, categories) == _category_by_loop(path, categories)
