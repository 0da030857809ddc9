"""The busy answer's ETA comes from the running restore's progress, not the lease length.

A restore reports files done / total after every batch (``Lease.report_progress``,
``progress.json`` beside the lease); a second acquirer's :class:`LeaseBusy` carries that
progress and the time left at the rate seen since the first report. Before a rate is
known — or when the report is another holder's — the ETA is unknown (None), and the
lease's expiry is given apart, as such. Real lease files in ``tmp_path``, a clock moved
by hand.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from vibflow.steps.recovery.lease import LeaseBusy, LeaseFile


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def busy(folder: Path, clock: Clock) -> LeaseBusy:
    with pytest.raises(LeaseBusy) as caught:
        LeaseFile(folder, ttl_seconds=600, clock=clock).acquire("op_second")
    return caught.value


def test_eta_is_the_time_left_at_the_restores_rate(tmp_path: Path) -> None:
    """50 files in 10 s with 150 left is an ETA of 30 s (the lease has 600 s), counting
    down as time passes; a resumed restore's files done before it started do not count
    towards the rate."""
    clock = Clock()
    held = LeaseFile(tmp_path, ttl_seconds=600, clock=clock).acquire("op_first")
    held.report_progress(20, 220)  # resumed: 20 were restored by a killed attempt
    clock.advance(10)
    held.report_progress(70, 220)
    answer = busy(tmp_path, clock)
    assert answer.operation_id == "op_first"
    assert answer.progress == (70, 220)
    assert answer.eta_seconds == pytest.approx(30)
    assert "70 of 220 files done" in answer.message
    clock.advance(10)
    assert busy(tmp_path, clock).eta_seconds == pytest.approx(20)


def test_without_a_rate_the_eta_is_unknown(tmp_path: Path) -> None:
    """Before the holder has moved past its first report, the ETA is unknown (never the
    lease's length passed off as one) and said to be; the progress reported so far and
    the lease's expiry are given as what they are."""
    clock = Clock()
    held = LeaseFile(tmp_path, ttl_seconds=600, clock=clock).acquire("op_first")
    held.report_progress(0, 100)
    clock.advance(5)
    answer = busy(tmp_path, clock)
    assert answer.progress == (0, 100)
    assert answer.eta_seconds is None
    assert answer.lease_seconds_left == pytest.approx(595)
    assert "not known yet" in (answer.hint or "")
    assert "595" not in answer.message + (answer.hint or "")


def test_a_report_inside_a_batch_gives_a_rate_early(tmp_path: Path) -> None:
    """Between batches a restore reports at most every PROGRESS_EVERY seconds, so a
    slow first batch still gives a second restore a rate (and an ETA) before it ends."""
    clock = Clock()
    held = LeaseFile(tmp_path, ttl_seconds=600, clock=clock).acquire("op_first")
    held.report_progress(0, 100)
    clock.advance(0.1)
    held.report_progress_if_due(1, 100)  # too soon: not written
    assert busy(tmp_path, clock).eta_seconds is None
    clock.advance(1.9)
    held.report_progress_if_due(10, 100)
    answer = busy(tmp_path, clock)
    assert answer.progress == (10, 100)
    assert answer.eta_seconds == pytest.approx(18)


def test_an_earlier_holders_progress_is_ignored(tmp_path: Path) -> None:
    """A report left by an earlier lease (another operation or generation) says nothing
    about the current holder: its ETA is unknown, its lease's expiry given apart."""
    clock = Clock()
    lease_file = LeaseFile(tmp_path, ttl_seconds=600, clock=clock)
    first = lease_file.acquire("op_first")
    first.report_progress(0, 100)
    clock.advance(10)
    first.report_progress(50, 100)
    assert first.release()
    lease_file.acquire("op_now")
    answer = busy(tmp_path, clock)
    assert answer.operation_id == "op_now"
    assert answer.progress is None
    assert answer.eta_seconds is None
    assert answer.lease_seconds_left == pytest.approx(600)
    stored = json.loads((tmp_path / "progress.json").read_text(encoding="utf-8"))
    assert stored["operation_id"] == "op_first"
