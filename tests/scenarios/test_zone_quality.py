"""The recommendation-quality corpus as a test: every scenario is built in a temp
folder, the advisor plans it in-process, and the corpus totals must meet the
thresholds (recall, precision, no explicit file as drift, no excluded path
leaked, the right safe point everywhere) — on the tuned and held-out sets alike."""

from __future__ import annotations

from pathlib import Path

import pytest
from corpus import ALL_FRESH, CORPUS
from zone_scorer import run, table, totals


@pytest.fixture(scope="module")
def rows(tmp_path_factory: pytest.TempPathFactory) -> list:  # type: ignore[type-arg]
    return run(CORPUS, Path(tmp_path_factory.mktemp("corpus")))


def test_corpus_has_a_held_out_third() -> None:
    """At least 30 scenarios, a third of them held out from tuning."""
    held = [s for s in CORPUS if s.held_out]
    assert len(CORPUS) >= 30
    assert len(held) * 3 >= len(CORPUS)


@pytest.mark.parametrize("part", ["tuned", "held-out"])
def test_corpus_meets_the_quality_thresholds(rows: list, part: str) -> None:  # type: ignore[type-arg]
    """Recall ≥ 97 %, precision ≥ 93 % per scenario and ≥ 85 % pooled, no explicit file
    as drift, no excluded path leaked, the right safe point in every scenario."""
    chosen = [r for r in rows if r.held_out == (part == "held-out")]
    assert totals(chosen).failures() == [], table(rows)


def test_no_scenario_breaks_a_p0_gate(rows: list) -> None:  # type: ignore[type-arg]
    """Per scenario: no explicit file is drift, no excluded path leaks, the safe point
    is right."""
    bad = [r.name for r in rows if r.explicit_as_drift or r.leaked or not r.safe_right]
    assert bad == [], table(rows)


def test_a_flagged_rename_is_one_item_not_two(tmp_path: Path) -> None:
    """A drifted rename has two truth paths (old and new) but is one flagged item:
    precision counts items, so it never exceeds 100 % (a fresh scenario with a rename)."""
    (renamed,) = [s for s in ALL_FRESH if s.name == "fastapi_orders_pagination"]
    (row,) = run([renamed], tmp_path)
    assert row.drift_found > row.flagged_true
    assert 0 <= row.precision <= 1


@pytest.fixture(scope="module")
def hooked(tmp_path_factory: pytest.TempPathFactory) -> list:  # type: ignore[type-arg]
    # The tuned and held-out sets, and the blind batches whose authors expected the safe
    # point before an agent turn their own (or the agent's) checkpoint came after.
    later = [s for s in ALL_FRESH if s.batch >= 6]
    return run([*CORPUS, *later], Path(tmp_path_factory.mktemp("hooked")), hooks=True)


def test_with_the_agent_hooks_the_safe_point_is_right_in_every_scenario(
    hooked: list,  # type: ignore[type-arg]
) -> None:
    """Built as if the agent hooks were installed (each of the agent's edits one
    recorded turn): the corpus thresholds still hold, and the safe point is right in
    every scenario — the blind batches' too, where a checkpoint taken after an
    unnoticed drift is stepped back from only as far as the turn records prove."""
    corpus = [r for r in hooked if not r.fresh]
    assert totals(corpus).failures() == [], table(hooked)
    wrong = [r.name for r in hooked if not r.safe_right]
    assert wrong == [], table(hooked)
