"""The P0 summary: each SLO counts a planted occurrence and nothing otherwise, a
window without samples is never a pass, and a damaged window needs review."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from vibflow_testing.audit import Audit, apply_move, edited, slo

from vibflow.engine.audit import LabelCounts, RedactionCounts
from vibflow.engine.audit_slo import (
    DRIFT_LABEL,
    MCP_REDACTION,
    MEMORY_INSTRUCTION,
    SANDWICH,
    SLOS,
    STALE_INTENT,
)


@pytest.fixture
def audit(tmp_path: Path) -> Iterator[Audit]:
    found = Audit(tmp_path)
    yield found
    found.close()


def sound(audit: Audit) -> None:
    """One clean sample of every SLO that has a writer, and rows that are no sample."""
    apply_move(audit)
    audit.append("mcp.memory_summary_read", result="ok", redaction=RedactionCounts(secret_hits=1))
    audit.append("mcp.memory_full_read", result="refused")  # denied: no memory left
    audit.append("mcp.rescan", result="ok")
    audit.append("drift_feedback", result="ok", labels=LabelCounts(judged=3, wrong_drift=1))
    audit.append("handoff_written", result="ok", intent_stale=True, stale_labelled=True)
    audit.append("recovery_explain", result="ok", intent_stale=False, stale_labelled=False)
    audit.append("memory_action_check", result="ok")
    audit.append("recovery_preview", result="ok")  # ran, but could not have gone wrong
    audit.append("memory_write", result="ok")


PLANTS: dict[str, Callable[[Audit], None]] = {
    SANDWICH: lambda a: apply_move(a, sandwich=False),
    MEMORY_INSTRUCTION: lambda a: a.append("memory_action_check", result="failed"),
    MCP_REDACTION: lambda a: a.append("mcp.rescan", result="failed"),
    DRIFT_LABEL: lambda a: a.append(
        "drift_feedback", result="ok", labels=LabelCounts(judged=2, explicit_as_drift=1)
    ),
    STALE_INTENT: lambda a: a.append(
        "handoff_written", result="ok", intent_stale=True, stale_labelled=False
    ),
}


def test_clean_window_passes_every_slo_with_its_samples(audit: Audit) -> None:
    """Sound rows: every SLO passes, counting only rows that could have failed."""
    sound(audit)
    summary = audit.summary()
    assert summary.ok
    assert summary.problems == []
    assert {s.slo_id: (s.sample_count, s.occurrences, s.result) for s in summary.slos} == {
        SANDWICH: (1, 0, "pass"),
        MEMORY_INSTRUCTION: (1, 0, "pass"),
        MCP_REDACTION: (1, 0, "pass"),
        DRIFT_LABEL: (3, 0, "pass"),
        STALE_INTENT: (2, 0, "pass"),
    }


@pytest.mark.parametrize("slo_id", sorted(PLANTS))
def test_each_slo_counts_its_planted_occurrence_and_no_other(audit: Audit, slo_id: str) -> None:
    """One planted occurrence fails exactly its own SLO; the others stay at zero."""
    sound(audit)
    PLANTS[slo_id](audit)
    summary = audit.summary()
    assert not summary.ok
    for s in summary.slos:
        if s.slo_id == slo_id:
            assert (s.occurrences, s.result) == (1, "fail"), s
        else:
            assert (s.occurrences, s.result) == (0, "pass"), s


def test_no_samples_is_never_a_pass(audit: Audit) -> None:
    """Rows that only show something ran give every SLO zero samples: no_samples."""
    for event in ("recovery_preview", "memory_write", "recap_written", "run_started"):
        audit.append(event, result="ok")
    apply_move(audit, flow="linear")  # a state named apply that changes no files
    summary = audit.summary()
    assert [s.result for s in summary.slos] == ["no_samples"] * len(SLOS)
    assert all(s.sample_count == 0 for s in summary.slos)
    assert summary.ok  # nothing failed, and nothing was claimed


def test_rows_before_the_window_are_not_counted(audit: Audit) -> None:
    """An occurrence 40 days ago is outside a 30-day window and inside a 60-day one."""
    apply_move(audit.at(40), sandwich=False)
    apply_move(audit.at(1))
    assert slo(audit.summary(30), SANDWICH) == (1, 0, "pass")
    assert slo(audit.summary(60), SANDWICH) == (2, 1, "fail")


def test_summary_rows_have_the_spec_fields(audit: Audit) -> None:
    """Each SLO row carries slo_id, window_start, window_end, occurrences, sample_count, result."""
    sound(audit)
    data = audit.summary().to_json()
    for row in data["slos"]:
        assert {
            "slo_id",
            "window_start",
            "window_end",
            "occurrences",
            "sample_count",
            "result",
        } <= (set(row))
        assert row["window_start"] == data["window_start"]


TAMPER: dict[str, Callable[[list[bytes]], list[bytes]]] = {
    "gap": lambda ls: ls[:3] + ls[4:],
    "duplicate": lambda ls: [*ls[:4], ls[3], *ls[4:]],
    "reordered": lambda ls: [*ls[:2], ls[3], ls[2], *ls[4:]],
    "edited": lambda ls: [*ls[:3], edited(ls[3], result="failed"), *ls[4:]],
    "corrupt": lambda ls: [*ls[:3], b'{"secret": "AKIAABCDEFGHIJKLMNOP"}\n', *ls[3:]],
    "cut_tail": lambda ls: ls[:-2],
}


@pytest.mark.parametrize("how", sorted(TAMPER))
def test_a_tampered_window_needs_review(audit: Audit, how: str) -> None:
    """A gap, duplicate, reordering, edit, corrupt row or cut tail fails every SLO of the window."""
    sound(audit)
    audit.rewrite(TAMPER[how](audit.lines()))
    summary = audit.summary()
    assert not summary.ok
    assert summary.problems
    assert {s.result for s in summary.slos} == {"needs_review"}


def test_corrupt_rows_are_skipped_counted_and_quarantined_without_content(audit: Audit) -> None:
    """A corrupt row is not counted as a sample, is counted as corrupt, and is quarantined
    as a digest only."""
    from vibflow_testing.audit import NOW, files_state

    from vibflow.engine.audit_summary import summarize

    apply_move(audit)
    lines = audit.lines()
    planted = edited(lines[0], sandwich_checkpoint_id=None, note="AKIAABCDEFGHIJKLMNOP")
    audit.rewrite([*lines, planted])
    out, bad = summarize(
        audit.log.rows(),
        ledger=audit.store.load(),
        anchor=None,
        files_state=files_state,
        window_start=NOW.replace(year=2025),
        window_end=NOW,
    )
    assert out.corrupt_rows == 1
    assert slo(out, SANDWICH)[0] == 1  # the corrupt copy was not counted
    assert audit.quarantine.add(bad, NOW) == 1
    assert audit.quarantine.add(bad, NOW) == 0  # recorded once
    text = audit.quarantine.path.read_text()
    assert "AKIA" not in text
    assert "note" not in text


def test_damage_before_the_window_does_not_fail_it(audit: Audit) -> None:
    """A row edited 60 days ago fails a 90-day window but not the 30-day one after it."""
    for days in (61, 60, 59):
        apply_move(audit.at(days))
    for days in (2, 1):
        apply_move(audit.at(days))
    lines = audit.lines()
    lines[1] = edited(lines[1], result="failed")
    audit.rewrite(lines)
    assert slo(audit.summary(90), SANDWICH)[2] == "needs_review"
    assert slo(audit.summary(30), SANDWICH) == (2, 0, "pass")


_TAMPERS = st.sampled_from(["drop", "dup", "swap", "edit", "garbage", "truncate"])


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(how=_TAMPERS, at=st.integers(min_value=0, max_value=9), rows=st.integers(4, 10))
def test_random_tampering_never_passes(
    tmp_path_factory: pytest.TempPathFactory, how: str, at: int, rows: int
) -> None:
    """Any one deletion, duplication, swap, edit, garbage line or truncation of a log
    makes both verify and the summary refuse it."""
    audit = Audit(tmp_path_factory.mktemp("log"))
    try:
        for i in range(rows):
            audit.append(
                "handoff_written", result="ok", intent_stale=bool(i % 2), stale_labelled=True
            )
        lines = audit.lines()
        i = at % len(lines)
        if how == "drop":
            del lines[i]
        elif how == "dup":
            lines.insert(i, lines[i])
        elif how == "swap":
            j = (i + 1) % len(lines)
            lines[i], lines[j] = lines[j], lines[i]
        elif how == "edit":
            lines[i] = edited(lines[i], stale_labelled=False)
        elif how == "garbage":
            lines.insert(i, b"not a row\n")
        else:
            lines[-1] = lines[-1][: len(lines[-1]) // 2]
        audit.rewrite(lines)
        assert not audit.log.verify().ok
        assert slo(audit.summary(), STALE_INTENT)[2] == "needs_review"
    finally:
        audit.close()
