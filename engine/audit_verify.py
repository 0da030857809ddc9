"""Checking the audit log: each row, the sequence and hash chain, the rollover
summaries before it, and its end against the journal's anchor.

One pass over the file (:func:`scan`) serves ``audit verify``, the P0 summary
and retention alike, so the three can never disagree on which rows are sound.
A row is *corrupt* when it is not a valid, unedited audit row (torn, CRLF, a
byte-order mark, not JSON, not count-only, hash mismatch): it is skipped for
counting and copied, redacted, to the quarantine. A sound row can still be out
of place — a sequence gap, a duplicate, a row that does not chain to the one
before — which is reported once and the check re-anchors on it.

Across a rollover the log does not start at sequence 1: its first row chains
to the last row a rollover summary covers (:mod:`.audit_rollover`), the
summaries chain to one another from the genesis hash, and a retention that a
crash stopped half-way (summary written, rows not yet removed) still verifies:
the rows it covers are still there and their hash is the one it recorded.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from vibflow.engine.audit import GENESIS, AuditAnchor, AuditEvent, hash_on_line, row_hash
from vibflow.engine.audit_rollover import Ledger


@dataclass
class AuditReport:
    ok: bool
    rows: int = 0
    valid_rows: int = 0
    corrupt_rows: int = 0
    first_bad_sequence: int | None = None
    problem: str | None = None
    quarantined: int = 0
    problems: list[str] = field(default_factory=list)
    #: The journal's record of the newest row, when there is one to check against.
    anchored_sequence: int | None = None
    missing_rows: int = 0
    #: Rows compacted into rollover summaries, and how many summaries hold them.
    rolled_over_rows: int = 0
    rollover_summaries: int = 0
    #: The sequence number of the log's first sound row (1 unless rolled over).
    first_sequence: int | None = None

    def fail(self, problem: str, sequence: int | None) -> None:
        self.ok = False
        self.problems.append(problem)
        if self.problem is None:
            self.problem = problem
        if self.first_bad_sequence is None:
            self.first_bad_sequence = sequence

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "rows": self.rows,
            "valid_rows": self.valid_rows,
            "corrupt_rows": self.corrupt_rows,
            "first_bad_sequence": self.first_bad_sequence,
            "problem": self.problem,
            "problems": list(self.problems),
            "quarantined": self.quarantined,
            "anchored_sequence": self.anchored_sequence,
            "missing_rows": self.missing_rows,
            "first_sequence": self.first_sequence,
            "rolled_over_rows": self.rolled_over_rows,
            "rollover_summaries": self.rollover_summaries,
        }


@dataclass(frozen=True)
class Scanned:
    """One line of the log: its row when sound, its problem when not."""

    number: int
    raw: bytes
    data: dict[str, Any] | None  # None: corrupt
    problem: str | None
    #: The sequence this problem is reported at (the one expected there).
    at_sequence: int | None = None


def check_line(raw: bytes, number: int) -> tuple[str | None, dict[str, Any] | None]:
    """The row in ``raw`` when it is a valid, unedited audit row, else why not."""
    if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
        return f"row {number}: the file starts with a byte-order mark", None
    if raw.endswith(b"\r\n") or b"\r" in raw:
        return f"row {number}: CR line ending (audit rows are LF only)", None
    if not raw.endswith(b"\n"):
        return f"row {number}: truncated (no line end)", None
    try:
        data = json.loads(raw)
        row = AuditEvent.model_validate(data)
    except (ValueError, ValidationError):
        return f"row {number}: not a valid audit row", None
    if not hash_on_line(raw, row.hash) and row_hash(data) != row.hash:
        return f"row {number}: sequence {row.sequence_number} was edited (hash mismatch)", None
    return None, data


class ChainCheck:
    """Sequence numbers and the hash chain, in file order, joined to the rollovers."""

    def __init__(self, ledger: Ledger | None = None) -> None:
        self._ends = ledger.ends() if ledger is not None else {}
        self.covered = ledger.covered if ledger is not None else 0
        self._expected: tuple[int, str] | None = None
        self.first_seq: int | None = None
        self.last_seq = 0

    @property
    def expected_seq(self) -> int:
        return self._expected[0] if self._expected is not None else 1

    def check(self, data: dict[str, Any], number: int) -> str | None:
        """Why the sound row ``data`` is out of place, or None; re-anchors on it."""
        seq: int = data["sequence_number"]
        problem: str | None = None
        if self._expected is None:
            self.first_seq = seq
            if seq == 1 or seq - 1 in self._ends:
                self._expected = (seq, GENESIS if seq == 1 else self._ends[seq - 1])
            else:
                problem = (
                    f"row {number}: the log starts at sequence {seq}, but no rollover summary "
                    f"covers rows 1..{seq - 1} (rows were removed without a rollover)"
                )
        if problem is None and self._expected is not None:
            want_seq, want_hash = self._expected
            if seq != want_seq:
                problem = (
                    f"row {number}: sequence {seq} where {want_seq} was expected "
                    "(a row was deleted, inserted or reordered)"
                )
            elif data["prev_hash"] != want_hash:
                problem = f"row {number}: sequence {seq} does not chain to the row before it"
            elif seq in self._ends and data["hash"] != self._ends[seq]:
                problem = (
                    f"row {number}: sequence {seq} is not the row its rollover summary recorded"
                )
        self._expected = (seq + 1, data["hash"])
        self.last_seq = max(self.last_seq, seq)
        return problem

    def finish(self) -> list[str]:
        """What only the end of the log can show: summaries past its last row."""
        if self.covered > self.last_seq:
            return [
                f"rollover summaries cover rows up to sequence {self.covered}, but the log "
                f"ends at sequence {self.last_seq} (its newest rows were removed)"
            ]
        return []


def scan(lines: Iterable[tuple[int, bytes]], chain: ChainCheck) -> Iterator[Scanned]:
    """Each line of the log, checked on its own and against the chain."""
    for number, raw in lines:
        problem, data = check_line(raw, number)
        at = chain.expected_seq
        if data is not None:
            problem = chain.check(data, number)
        yield Scanned(number, raw, data, problem, at if problem is not None else None)


def quarantine_record(item: Scanned) -> dict[str, Any]:
    """A corrupt row as the quarantine keeps it: where, how long, its digest and
    why — never its content, which may be anything."""
    return {
        "line": item.number,
        "sha256": hashlib.sha256(item.raw).hexdigest(),
        "length": len(item.raw),
        "reason": item.problem,
    }


def verify_lines(
    lines: Iterable[tuple[int, bytes]],
    *,
    ledger: Ledger | None,
    anchor: AuditAnchor | None,
) -> tuple[AuditReport, list[dict[str, Any]]]:
    """The report on the log, and the quarantine records of its corrupt rows."""
    report = AuditReport(ok=True)
    tip = anchor.audit_anchor() if anchor is not None else None
    chain = ChainCheck(ledger)
    bad: list[dict[str, Any]] = []
    at_tip: str | None = None
    if ledger is not None:
        report.rolled_over_rows = ledger.rows
        report.rollover_summaries = len(ledger.summaries)
        for problem in ledger.problems:
            report.fail(problem, None)
    for item in scan(lines, chain):
        report.rows += 1
        if item.data is not None:
            report.valid_rows += 1
            if tip is not None and item.data["sequence_number"] == tip[0]:
                at_tip = item.data["hash"]
        else:
            report.corrupt_rows += 1
            bad.append(quarantine_record(item))
        if item.problem is not None:
            report.fail(item.problem, item.at_sequence)
    report.first_sequence = chain.first_seq
    for problem in chain.finish():
        report.fail(problem, chain.last_seq + 1)
    if anchor is not None:
        if tip is not None:
            report.anchored_sequence = tip[0]
            report.missing_rows = max(0, tip[0] - chain.last_seq)
        for _, problem, seq in anchor_problems(anchor, tip, chain.last_seq, at_tip):
            report.fail(problem, seq)
    return report, bad


def anchor_problems(
    anchor: AuditAnchor, tip: tuple[int, str] | None, last_seq: int, at_tip: str | None
) -> list[tuple[str | None, str, int]]:
    """The log's end against the journal's record of it (see :mod:`.audit`): each
    problem as (when it was noticed, or None for now; what; at which sequence)."""
    out: list[tuple[str | None, str, int]] = []
    for anchored, found, when in anchor.audit_gaps():
        out.append(
            (
                when,
                f"{anchored - found} row(s) were missing after sequence {found} when vibflow "
                f"next wrote to the log ({when}; the journal had recorded sequence {anchored})"
                if anchored > found
                else f"the row at sequence {found} had been replaced when vibflow next wrote "
                f"to the log ({when})",
                found + 1,
            )
        )
    if tip is None:
        return out
    if tip[0] > last_seq:
        out.append(
            (
                None,
                f"{tip[0] - last_seq} row(s) missing after sequence {last_seq}: the journal "
                f"recorded the log up to sequence {tip[0]} (its end was cut off or the file "
                "was emptied or deleted)",
                last_seq + 1,
            )
        )
    elif at_tip is not None and at_tip != tip[1]:
        out.append(
            (
                None,
                f"the row at sequence {tip[0]} is not the one the journal recorded (the log "
                "was rewritten)",
                tip[0],
            )
        )
    return out
