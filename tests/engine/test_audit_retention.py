"""Retention: old rows roll over into count-only summaries, the active P0 window
stays, and the log still verifies across the rollover — and fails when rows or
summaries go missing around it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path

import pytest
from vibflow_testing.audit import NOW, Audit, apply_move, slo

from vibflow.engine.audit_policy import AuditPolicy
from vibflow.engine.audit_slo import SANDWICH, STALE_INTENT
from vibflow.engine.errors import ErrorCode, VibflowError


@pytest.fixture
def audit(tmp_path: Path) -> Iterator[Audit]:
    found = Audit(tmp_path)
    yield found
    found.close()


def history(audit: Audit) -> None:
    """Rows 120 .. 100 days old (one of them an apply without sandwich), then rows
    inside the active window."""
    for days in (120, 110):
        apply_move(audit.at(days))
    apply_move(audit.at(100), sandwich=False)
    audit.at(95).append("handoff_written", result="ok", intent_stale=True, stale_labelled=True)
    for days in (10, 5, 1):
        apply_move(audit.at(days))
    audit.at(0)


def seqs(audit: Audit) -> list[int]:
    return [json.loads(line)["sequence_number"] for line in audit.lines()]


def test_retain_compacts_old_rows_and_keeps_the_active_window(audit: Audit) -> None:
    """Rows past 90 days become one summary; the window's rows stay; verify passes."""
    history(audit)
    plan = audit.retention.run()
    assert (plan.compact_rows, plan.compact_first_seq, plan.compact_last_seq) == (4, 1, 4)
    assert plan.reason == "age"
    assert seqs(audit) == [5, 6, 7, 8]  # the window's rows, then the rollover's own row
    assert json.loads(audit.lines()[-1])["event"] == "audit_rollover"
    (summary,) = audit.store.load().summaries
    assert (summary.first_seq, summary.last_seq, summary.rows) == (1, 4, 4)
    assert summary.events == {"handoff_written": {"ok": 1}, "transition": {"ok": 3}}
    assert summary.slo_days[SANDWICH][(NOW - timedelta(days=100)).date().isoformat()].occurrences
    report = audit.log.verify()
    assert report.ok, report.problems
    assert (report.first_sequence, report.rolled_over_rows, report.rollover_summaries) == (5, 4, 1)
    assert report.anchored_sequence == 8


def test_a_summary_over_the_rollover_still_counts_the_compacted_rows(audit: Audit) -> None:
    """The 30-day window is unchanged by a rollover; a 150-day one counts the compacted
    occurrence through the summary's per-day counts."""
    history(audit)
    before = (audit.summary(30), audit.summary(150))
    audit.retention.run()
    after = (audit.summary(30), audit.summary(150))
    for old, new in zip(before, after, strict=True):
        assert [(s.slo_id, s.sample_count, s.occurrences, s.result) for s in old.slos] == [
            (s.slo_id, s.sample_count, s.occurrences, s.result) for s in new.slos
        ]
    assert slo(after[1], SANDWICH) == (6, 1, "fail")
    assert slo(after[1], STALE_INTENT) == (1, 0, "pass")
    assert after[1].compacted_rows_counted == 4


def test_dry_run_changes_nothing(audit: Audit) -> None:
    """`--dry-run` reports the plan and leaves the log and the rollover folder alone."""
    history(audit)
    before = audit.log.path.read_bytes()
    plan = audit.retention.run(dry_run=True)
    assert plan.compact_rows == 4
    assert audit.log.path.read_bytes() == before
    assert audit.store.load().summaries == []


def test_a_second_rollover_chains_onto_the_first(audit: Audit) -> None:
    """Two rollovers leave two summaries that join, and the log joins the second."""
    history(audit)
    audit.retention.run()
    audit.clock.now = NOW + timedelta(days=100)
    audit.append("memory_write", result="ok")
    audit.retention.run()
    ledger = audit.store.load()
    assert [(s.first_seq, s.last_seq) for s in ledger.summaries] == [(1, 4), (5, 8)]
    assert ledger.problems == []
    assert audit.log.verify().ok


def test_rows_removed_after_a_rollover_are_still_a_gap(audit: Audit) -> None:
    """Deleting the first kept row after a rollover breaks the join to the summary."""
    history(audit)
    audit.retention.run()
    audit.rewrite(audit.lines()[1:])
    report = audit.log.verify()
    assert not report.ok
    assert "no rollover summary covers rows 1..5" in (report.problem or "")
    assert slo(audit.summary(), SANDWICH)[2] == "needs_review"


@pytest.mark.parametrize("damage", ["deleted", "edited"])
def test_a_missing_or_edited_summary_fails_verify(audit: Audit, damage: str) -> None:
    """Without its summary the log starts out of nowhere; an edited count is a hash mismatch."""
    history(audit)
    audit.retention.run()
    (path,) = audit.store.folder.glob("*.json")
    if damage == "deleted":
        path.unlink()
    else:
        data = json.loads(path.read_text())
        data["events"]["transition"]["ok"] = 0
        path.write_text(json.dumps(data))
    report = audit.log.verify()
    assert not report.ok
    assert report.problems


def test_a_broken_log_is_never_compacted(audit: Audit) -> None:
    """Retention refuses a log that does not verify, and changes nothing."""
    history(audit)
    lines = audit.lines()
    audit.rewrite(lines[:1] + lines[2:])
    before = audit.log.path.read_bytes()
    with pytest.raises(VibflowError) as err:
        audit.retention.run()
    assert err.value.code is ErrorCode.AUDIT_BROKEN
    assert "audit log needs review" in err.value.message
    assert audit.log.path.read_bytes() == before
    assert audit.store.load().summaries == []


def test_the_newest_row_always_stays(audit: Audit) -> None:
    """Even when every row is old, the last stays so appends keep chaining."""
    for days in (130, 120, 110):
        audit.at(days).append("memory_write", result="ok")
    audit.at(0)
    audit.retention.run()
    assert seqs(audit) == [3, 4]
    audit.append("memory_write", result="ok")
    assert seqs(audit)[-1] == 5
    assert audit.log.verify().ok


def test_over_size_compacts_everything_before_the_active_window(tmp_path: Path) -> None:
    """Past max_bytes, rows younger than 90 days but before the window roll over too."""
    audit = Audit(tmp_path, AuditPolicy(max_bytes=64 * 1024, p0_window_days=7))
    try:
        for days in (40, 20):
            audit.at(days).log.append_many([("memory_write", {"result": "ok"})] * 150)
        audit.at(3).log.append_many([("memory_write", {"result": "ok"})] * 10)
        audit.at(0)
        plan = audit.retention.run()
        assert (plan.reason, plan.compact_rows) == ("size", 300)
        assert audit.log.verify().ok
    finally:
        audit.close()


def test_a_release_window_is_kept_until_the_hard_cap(tmp_path: Path) -> None:
    """p0_window_start protects rows past 90 days, but never past max_active_window_days."""
    start = (NOW - timedelta(days=200)).date()
    audit = Audit(tmp_path, AuditPolicy(p0_window_start=start))
    try:
        for days in (190, 150, 100, 10):
            apply_move(audit.at(days))
        audit.at(0)
        plan = audit.retention.run()
        assert (plan.reason, plan.compact_rows) == ("cap", 1)  # only the 190-day row
        assert plan.active_window_start.startswith((NOW - timedelta(days=180)).date().isoformat())
    finally:
        audit.close()


def test_policy_window_cannot_exceed_the_cap() -> None:
    """A p0 window longer than the hard cap is refused by the policy model."""
    with pytest.raises(ValueError, match="longer than max_active_window_days"):
        AuditPolicy(p0_window_days=120, max_active_window_days=90)
    assert AuditPolicy(p0_window_start=date(2026, 1, 1)).p0_window_start == date(2026, 1, 1)


def test_an_append_rolls_the_log_over_on_its_own(audit: Audit) -> None:
    """The automatic rollover: the first append after rows pass 90 days compacts them."""
    for days in (120, 100):
        audit.at(days).append("memory_write", result="ok")
    audit.at(0)
    roll = audit.retention.maybe
    log = audit.log
    log._after_append = roll  # the wiring passes the project's retention the same way
    log.append("memory_write", result="ok")
    assert [s.last_seq for s in audit.store.load().summaries] == [2]
    assert seqs(audit) == [3, 4]
    assert log.verify().ok


def test_quarantine_records_age_out_with_retention(audit: Audit) -> None:
    """Quarantine records past retention_days are dropped by a retention."""
    old = NOW - timedelta(days=100)
    audit.quarantine.add([{"line": 1, "sha256": "0" * 64, "length": 3, "reason": "x"}], old)
    audit.quarantine.add([{"line": 2, "sha256": "1" * 64, "length": 3, "reason": "y"}], NOW)
    apply_move(audit.at(1))
    audit.at(0)
    plan = audit.retention.run()
    assert plan.quarantine_expired == 1
    assert [r["line"] for r in audit.quarantine.records()] == [2]
