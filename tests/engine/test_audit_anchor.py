"""The audit log's end is anchored in the journal (issue 16): deleting the last
rows, emptying or deleting the file is "N rows missing after sequence S", and
rows appended after a truncation cannot hide it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from vibflow_testing.cli import Cli, as_json

from vibflow.engine.audit import AuditLog, row_hash
from vibflow.engine.journal import Journal

ROOT_HASH = "ab" * 32


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    j = Journal(tmp_path / "runs.db")
    yield j
    j.close()


def anchored_log(tmp_path: Path, journal: Journal) -> AuditLog:
    return AuditLog(tmp_path / "audit.jsonl", project_root_hash=ROOT_HASH, anchor=lambda: journal)


def write_rows(log: AuditLog, n: int) -> None:
    for _ in range(n):
        log.append("memory_write", result="ok")


def drop_last(path: Path, n: int) -> None:
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:-n]))


def test_intact_log_matches_its_anchor(tmp_path: Path, journal: Journal) -> None:
    """Every append records the newest sequence; an intact log ends there."""
    log = anchored_log(tmp_path, journal)
    write_rows(log, 5)
    tip = journal.audit_anchor()
    assert tip is not None
    assert tip[0] == 5
    report = log.verify()
    assert report.ok, report.problems
    assert report.anchored_sequence == 5


def test_deleted_tail_rows_are_missing(tmp_path: Path, journal: Journal) -> None:
    """Deleting the last two rows leaves a chain that still links: the anchor says 2 are missing."""
    log = anchored_log(tmp_path, journal)
    write_rows(log, 5)
    drop_last(log.path, 2)
    report = log.verify()
    assert not report.ok
    assert report.missing_rows == 2
    assert report.problem is not None
    assert report.problem.startswith("2 row(s) missing after sequence 3")
    assert report.first_bad_sequence == 4


@pytest.mark.parametrize("how", ["emptied", "deleted"])
def test_emptied_or_deleted_log_is_missing_every_row(
    tmp_path: Path, journal: Journal, how: str
) -> None:
    """An empty or absent log is not "audit ok" once the journal has recorded rows."""
    log = anchored_log(tmp_path, journal)
    write_rows(log, 3)
    if how == "emptied":
        log.path.write_bytes(b"")
    else:
        log.path.unlink()
    report = log.verify()
    assert not report.ok
    assert report.missing_rows == 3
    assert "3 row(s) missing after sequence 0" in (report.problem or "")


def test_rows_appended_after_a_truncation_do_not_hide_it(tmp_path: Path, journal: Journal) -> None:
    """The next append notices the log is shorter than anchored and the gap is kept for good."""
    log = anchored_log(tmp_path, journal)
    write_rows(log, 4)
    drop_last(log.path, 3)
    write_rows(log, 10)  # continues at sequence 2, past the old anchor
    report = log.verify()
    assert not report.ok
    assert report.missing_rows == 0
    assert any(
        "3 row(s) were missing after sequence 1 when vibflow next wrote" in p
        for p in report.problems
    ), report.problems


def test_rewritten_and_rehashed_last_row_is_detected(tmp_path: Path, journal: Journal) -> None:
    """A last row edited and re-hashed chains fine but is not the row the journal recorded."""
    log = anchored_log(tmp_path, journal)
    write_rows(log, 3)
    lines = log.path.read_bytes().splitlines()
    row = json.loads(lines[-1])
    row["result"] = "refused"
    row["hash"] = row_hash(row)
    lines[-1] = json.dumps(row, separators=(",", ":")).encode("ascii")
    log.path.write_bytes(b"\n".join(lines) + b"\n")
    report = log.verify()
    assert not report.ok
    assert "the row at sequence 3 is not the one the journal recorded" in (report.problem or "")


def test_anchor_left_behind_by_a_crash_is_no_false_alarm(tmp_path: Path, journal: Journal) -> None:
    """Rows written without their anchor (a crash in between) still verify ok."""
    write_rows(anchored_log(tmp_path, journal), 2)
    unanchored = AuditLog(tmp_path / "audit.jsonl", project_root_hash=ROOT_HASH)
    write_rows(unanchored, 2)
    report = anchored_log(tmp_path, journal).verify()
    assert report.ok, report.problems
    assert report.anchored_sequence == 2


def test_cli_audit_verify_reports_a_cut_tail(cli: Cli, repo: Path) -> None:
    """`audit verify` after real runs: deleting the last rows is exit 1 with the count."""
    assert cli("run", "linear").returncode == 0
    assert cli("run", "linear").returncode == 0
    ok = cli("audit", "verify")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "as the journal recorded" in ok.stdout
    audit = repo / ".vibflow" / "audit.jsonl"
    total = len(audit.read_bytes().splitlines())
    drop_last(audit, 2)
    proc = cli("audit", "verify", "--json")
    assert proc.returncode == 1
    data = as_json(proc)
    assert data["missing_rows"] == 2
    assert data["anchored_sequence"] == total
    assert data["problem"].startswith(f"2 row(s) missing after sequence {total - 2}")
    audit.unlink()
    text = cli("audit", "verify")
    assert text.returncode == 1
    assert f"{total} row(s) missing after sequence 0" in text.stdout
