"""Intent-zone priority (explicit → recent patch target → evidence → diff fallback)
and drift; the shipped path categories; and a hypothesis property: whatever changed and
whatever memory says, no explicit path (or path under an explicit directory) is ever a
drift candidate, every drift candidate needs review, and every changed non-generated
file is either in the zone or a drift candidate — never both, never neither.

Pure parts of the recovery advisor, with constructed inputs (builders in
``vibflow_testing.recovery_inputs``)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from vibflow_testing.recovery_inputs import (
    ACTIVE,
    CATEGORIES,
    DEGRADED,
    LATE,
    SAFE,
    changed,
    ckpt,
    mem,
    signals,
    sources,
    ts,
)

from vibflow.steps.recovery import planner
from vibflow.steps.recovery.breaker import BreakerState
from vibflow.steps.recovery.categories import category_of
from vibflow.steps.recovery.cochange import CoChange
from vibflow.steps.recovery.evidence import Evidence, Link
from vibflow.steps.recovery.models import ChangedFile
from vibflow.steps.recovery.zone import MemorySignals, drift, infer_zone

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
    """Explicit entries first, then recent patch targets, then files with evidence
    (references, co-change, names); a recent target beats evidence for the same file,
    and sharing the intent's category is no evidence at all (issue 12: this used to
    pull header.py and login.py in as 'project_map_category')."""
    files_ = [
        changed("src/ui/header.py"),
        changed("src/ui/menu.py"),
        changed("tests/test_login.py"),
        changed("src/ui/login.py"),
        changed("src/ui/login_form.py"),
        changed("src/ui/nav.py"),
    ]
    evidence = Evidence(
        links={
            "src/ui/menu.py": [Link("tests/test_login.py", "to", "imports", in_change=True)],
            "src/ui/login.py": [Link("tests/test_login.py", "to", "imports", in_change=True)],
        },
        cochange={"src/ui/nav.py": CoChange("tests/test_login.py", 3, 10)},
        intent_words=frozenset({"login"}),
    )
    zone = infer_zone(
        files_,
        mem({"tests/test_login.py": "tests"}, ["src/ui/menu.py"]),
        CATEGORIES,
        evidence=evidence,
    )
    assert sources(zone) == [
        ("tests/test_login.py", "explicit"),
        ("src/ui/menu.py", "recent_patch_target"),
        ("src/ui/login.py", "reference"),
        ("src/ui/nav.py", "anchor_co_occurrence"),
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
    from vibflow.steps.paths.globs import glob_regex

    for name, patterns in categories.items():
        if any(glob_regex(p).match(path) for p in patterns):
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
