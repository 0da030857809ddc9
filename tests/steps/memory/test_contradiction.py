"""Contradicting decisions, on a labelled set (contradiction_pairs.tsv, written as a
reviewer would label them): precision and recall are printed and held to a floor,
and each rule explains itself."""

from __future__ import annotations

from pathlib import Path

from vibflow.steps.memory.contradiction import clashes, contradicts, pairs

PAIRS = Path(__file__).with_name("contradiction_pairs.tsv")


def _labelled() -> list[tuple[bool, str, str]]:
    rows = []
    for line in PAIRS.read_text("utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        label, old, new = line.split("\t")
        rows.append((label == "1", old, new))
    return rows


def test_labelled_set_precision_and_recall() -> None:
    rows = _labelled()
    assert len(rows) >= 40
    tp = fp = fn = 0
    missed, wrong = [], []
    for label, old, new in rows:
        got = contradicts(new, old) is not None
        tp += label and got
        fp += (not label) and got
        fn += label and not got
        if label and not got:
            missed.append((old, new))
        if got and not label:
            wrong.append((old, new))
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    print(f"\ncontradiction: {len(rows)} pairs, precision {precision:.2f}, recall {recall:.2f}")
    print("missed:", missed)
    print("wrong:", wrong)
    assert precision >= 0.9, wrong
    assert recall >= 0.9, missed


def test_each_verdict_says_which_rule_and_why() -> None:
    polar = contradicts("Always use tabs", "Never use tabs")
    assert polar is not None
    assert polar.rule == "opposite_polarity"
    assert "tabs" in polar.reason
    swap = contradicts("Use spaces for indentation", "Use tabs for indentation")
    assert swap is not None
    assert swap.rule == "exclusive_choice"
    assert "“spaces” and “tabs”" in swap.reason


def test_clashes_and_pairs_name_the_recorded_decision() -> None:
    found = clashes("Always use tabs", [("dec_a", "Never use tabs"), ("dec_b", "Use pytest")])
    assert [c.decision_id for c in found] == ["dec_a"]
    assert [(a, b) for a, b, _ in pairs([("d1", "Never use tabs"), ("d2", "Use tabs")])] == [
        ("d1", "d2")
    ]
