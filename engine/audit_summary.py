"""The P0 occurrence summary (spec §10, §15): per SLO, over a window of the audit log.

For each SLO of :mod:`.audit_slo`: ``slo_id, window_start, window_end,
occurrences, sample_count, result``. The result is

- ``needs_review`` when the window cannot be trusted: a sequence gap, a
  duplicate, a broken chain, a corrupt row, a rollover summary that does not
  join, or an end the journal's anchor contradicts — anywhere from the window's
  start on (a problem is placed at the first sound row after it, so a damaged
  stretch that may reach into the window counts against it);
- ``fail`` when it counted an occurrence;
- ``no_samples`` when nothing in the window could have gone wrong — never a
  pass from nothing;
- ``pass`` otherwise: samples, and not one occurrence.

Rows are read in one pass (:func:`.audit_verify.scan`); corrupt rows are
skipped for counting, counted, and handed back for the quarantine. Rows a
retention compacted count through their summary's per-day counts (days on or
after the window's start day: a window reaching into compacted rows is
counted to the day, not to the second).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from vibflow.engine.audit import AuditAnchor
from vibflow.engine.audit_rollover import Ledger
from vibflow.engine.audit_slo import SLOS, FilesStates, Slo, weigh
from vibflow.engine.audit_verify import ChainCheck, anchor_problems, quarantine_record, scan
from vibflow.engine.clock import stamp

SloResult = Literal["pass", "fail", "no_samples", "needs_review"]
NEEDS_REVIEW = "audit log needs review"


@dataclass(frozen=True)
class SloSummary:
    slo_id: str
    window_start: str
    window_end: str
    occurrences: int
    sample_count: int
    result: SloResult
    samples: str
    occurrence: str

    def to_json(self) -> dict[str, Any]:
        return {
            "slo_id": self.slo_id,
            "window_start": self.window_start,
            "window_end": self.window_end,
            "occurrences": self.occurrences,
            "sample_count": self.sample_count,
            "result": self.result,
            "samples": self.samples,
            "occurrence": self.occurrence,
        }


@dataclass
class P0Summary:
    window_start: str
    window_end: str
    slos: list[SloSummary] = field(default_factory=list)
    #: Integrity problems from the window's start on (any: every SLO needs review).
    problems: list[str] = field(default_factory=list)
    rows_counted: int = 0
    corrupt_rows: int = 0
    compacted_rows_counted: int = 0
    quarantined: int = 0

    @property
    def ok(self) -> bool:
        return all(s.result in ("pass", "no_samples") for s in self.slos)

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "window_start": self.window_start,
            "window_end": self.window_end,
            "needs_review": bool(self.problems),
            "problems": list(self.problems),
            "rows_counted": self.rows_counted,
            "compacted_rows_counted": self.compacted_rows_counted,
            "corrupt_rows": self.corrupt_rows,
            "quarantined": self.quarantined,
            "slos": [s.to_json() for s in self.slos],
        }


def summarize(
    lines: Iterable[tuple[int, bytes]],
    *,
    ledger: Ledger,
    anchor: AuditAnchor | None,
    files_state: FilesStates,
    window_start: datetime,
    window_end: datetime,
) -> tuple[P0Summary, list[dict[str, Any]]]:
    """The summary over ``[window_start, window_end]``, and the quarantine records
    of the corrupt rows found on the way."""
    start, end = stamp(window_start), stamp(window_end)
    out = P0Summary(start, end)
    tally = {s.slo_id: [0, 0] for s in SLOS}
    out.compacted_rows_counted = _count_compacted(ledger, tally, start[:10], end[:10])
    # A problem waits for the next sound row's time; any still waiting at the end
    # (and the ledger's own) are placed at the window's end.
    pending: list[str] = list(ledger.problems)
    in_window: list[str] = []
    bad: list[dict[str, Any]] = []
    chain = ChainCheck(ledger)
    tip = anchor.audit_anchor() if anchor is not None else None
    at_tip: str | None = None
    for item in scan(lines, chain):
        if item.problem is not None:
            pending.append(item.problem)
        data = item.data
        if data is None:
            out.corrupt_rows += 1
            bad.append(quarantine_record(item))
            continue
        ts: str = data["timestamp"]
        if pending:
            in_window += pending if ts >= start else []
            pending = []
        if tip is not None and data["sequence_number"] == tip[0]:
            at_tip = data["hash"]
        if ts >= start and data["sequence_number"] > ledger.covered:
            out.rows_counted += 1
            for slo_id, samples, occurrences in weigh(data, files_state):
                tally[slo_id][0] += samples
                tally[slo_id][1] += occurrences
    in_window += pending + chain.finish()
    if anchor is not None:
        found = anchor_problems(anchor, tip, chain.last_seq, at_tip)
        in_window += [problem for when, problem, _ in found if when is None or when >= start]
    out.problems = in_window
    out.slos = [_slo(slo, start, end, tally[slo.slo_id], bool(in_window)) for slo in SLOS]
    return out, bad


def _count_compacted(ledger: Ledger, tally: dict[str, list[int]], first: str, last: str) -> int:
    """Add the compacted rows' per-day counts from day ``first`` to ``last``; how
    many rows the summaries that reach into the window hold."""
    rows = 0
    for summary in ledger.summaries:
        if summary.last_timestamp[:10] < first:
            continue
        rows += summary.rows
        for slo_id, days in summary.slo_days.items():
            for day, count in days.items():
                if first <= day <= last and slo_id in tally:
                    tally[slo_id][0] += count.samples
                    tally[slo_id][1] += count.occurrences
    return rows


def _slo(slo: Slo, start: str, end: str, counts: list[int], review: bool) -> SloSummary:
    samples, occurrences = counts
    result: SloResult
    if review:
        result = "needs_review"
    elif occurrences:
        result = "fail"
    elif not samples:
        result = "no_samples"
    else:
        result = "pass"
    return SloSummary(
        slo.slo_id, start, end, occurrences, samples, result, slo.samples, slo.occurrence
    )
