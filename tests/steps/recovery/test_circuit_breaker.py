"""The circuit breaker's thresholds (window 20, < 80 %, minimum sample 5) and its label
store.

Pure parts of the recovery advisor, with constructed inputs (builders in
``vibflow_testing.recovery_inputs``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from vibflow.steps.recovery import breaker
from vibflow.steps.recovery.breaker import LabelStore, evaluate

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
