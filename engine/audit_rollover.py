"""Rollover summaries: what is left of audit rows a retention compacted.

A rollover removes the oldest rows of ``.vibflow/audit.jsonl`` and keeps, for
each contiguous run of them, one count-only summary file under
``.vibflow/recovery/audit_rollover/``: which sequence numbers it covers, the
hash chained *into* its first row and the hash of its last row, how many rows
of each event and result there were, and each P0 SLO's samples and
occurrences per UTC day (so a summary over a window that reaches into
compacted rows still counts them).

The log carries on where the summary stops: its first row's ``prev_hash`` is
the summary's ``last_hash``, so ``audit verify`` checks that the summaries
join one another from sequence 1 and join the log, and a row removed in
between (or a summary deleted) is still a gap. Each summary carries a hash of
its own body, so an edited count is detected the way an edited row is. Like
the log's chain, this catches accidents and careless edits, not an owner who
rewrites every file and hash.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from vibflow.engine.atomicfile import atomic_write
from vibflow.engine.audit import GENESIS, Hex, Ident, Timestamp
from vibflow.engine.factories import empty_dict

Day = Annotated[str, StringConstraints(pattern=r"^\d{4}-\d\d-\d\d$")]
ResultKey = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,31}$")]
FOLDER = "audit_rollover"


class SloCount(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    samples: int = Field(default=0, ge=0)
    occurrences: int = Field(default=0, ge=0)

    def plus(self, samples: int, occurrences: int) -> SloCount:
        return SloCount(samples=self.samples + samples, occurrences=self.occurrences + occurrences)


class RolloverSummary(BaseModel):
    """The count-only remains of rows ``first_seq`` .. ``last_seq``."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    schema_version: Literal[1] = 1
    first_seq: int = Field(ge=1)
    last_seq: int = Field(ge=1)
    #: The hash the first covered row chained to (the genesis hash for row 1).
    prev_hash: Hex
    #: The hash of the last covered row: the log's next row chains to it.
    last_hash: Hex
    first_timestamp: Timestamp
    last_timestamp: Timestamp
    rolled_at: Timestamp
    reason: Literal["age", "size", "cap"]
    rows: int = Field(ge=1)
    #: Rows per event and result (``none`` for a row without a result).
    events: dict[Ident, dict[ResultKey, int]] = Field(default_factory=empty_dict)
    #: Per P0 SLO, per UTC day of the covered rows: samples and occurrences.
    slo_days: dict[Ident, dict[Day, SloCount]] = Field(default_factory=empty_dict)
    #: Quarantine records (redacted copies of corrupt rows) dropped by age.
    quarantine_dropped: int = Field(default=0, ge=0)
    hash: Hex

    @property
    def file_name(self) -> str:
        return f"{self.first_seq:012d}-{self.last_seq:012d}.json"


def summary_hash(body: dict[str, Any]) -> str:
    canon = json.dumps(
        {k: v for k, v in body.items() if k != "hash"},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=True,
    )
    return hashlib.sha256(canon.encode("ascii")).hexdigest()


def sealed(body: dict[str, Any]) -> RolloverSummary:
    """``body`` (every field but ``hash``) as a summary carrying its own hash."""
    return RolloverSummary.model_validate({**body, "hash": summary_hash(body)})


@dataclass
class Ledger:
    """The summaries on disk, in sequence order, and what is wrong with them."""

    summaries: list[RolloverSummary] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def covered(self) -> int:
        """The highest sequence number a summary covers (0: none)."""
        return self.summaries[-1].last_seq if self.summaries else 0

    @property
    def rows(self) -> int:
        return sum(s.rows for s in self.summaries)

    def ends(self) -> dict[int, str]:
        """Each summary's last sequence number → the hash of that row."""
        return {s.last_seq: s.last_hash for s in self.summaries}


class RolloverStore:
    """The folder of rollover summaries (``.vibflow/recovery/audit_rollover/``)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def write(self, summary: RolloverSummary) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        text = json.dumps(summary.model_dump(mode="json"), indent=1, sort_keys=True) + "\n"
        atomic_write(self.folder / summary.file_name, text)

    def load(self) -> Ledger:
        """Every summary, checked one by one and as a chain from sequence 1."""
        ledger = Ledger()
        if not self.folder.is_dir():
            return ledger
        for path in sorted(self.folder.glob("*.json")):
            summary, problem = _read(path)
            if problem is not None:
                ledger.problems.append(problem)
            elif summary is not None:
                ledger.summaries.append(summary)
        ledger.summaries.sort(key=lambda s: s.first_seq)
        seq, prev = 0, GENESIS
        for s in ledger.summaries:
            if s.first_seq != seq + 1 or s.prev_hash != prev:
                ledger.problems.append(
                    f"rollover summary {s.file_name} does not join the one before it: rows "
                    f"{seq + 1}..{s.first_seq - 1} are missing or a summary was removed or edited"
                    if s.first_seq > seq + 1
                    else f"rollover summary {s.file_name} overlaps or does not chain to the one "
                    "before it"
                )
            seq, prev = s.last_seq, s.last_hash
        return ledger


def _read(path: Path) -> tuple[RolloverSummary | None, str | None]:
    name = f"rollover summary {path.name}"
    try:
        data = json.loads(path.read_bytes())
        summary = RolloverSummary.model_validate(data)
    except (OSError, ValueError, ValidationError):
        return None, f"{name} is unreadable or not a rollover summary"
    if summary_hash(data) != summary.hash:
        return None, f"{name} was edited (hash mismatch)"
    if summary.file_name != path.name or summary.last_seq < summary.first_seq:
        return None, f"{name} does not cover the rows its name says"
    return summary, None
