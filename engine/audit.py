"""The count-only audit rail: ``.vibflow/audit.jsonl``.

Rows are count-only *by construction*: :class:`AuditEvent` has no free-text
field. Every string in it is an identifier (lower-case name, no ``/``, no
spaces), an id with a fixed prefix, a hex digest or a timestamp, so memory
text, paths, diffs or secrets cannot ride along. Rows are appended under a
file lock, LF-only UTF-8 without BOM, with a monotonic ``sequence_number`` and
a hash chain (each row carries the previous row's hash), so an edited,
deleted or reordered row is detectable by :meth:`AuditLog.verify`.

The audit is written *after* the journal commit it describes; the journal is
the source of truth. The runner appends a drive's rows in one batch when the
run pauses or ends (one lock, one write), and a resume re-appends any rows a
crash cut off (:meth:`AuditLog.recorded_transitions`) — so every journal
entry gets exactly one row, and no fsync is needed here.

A hash chain alone cannot show that rows are missing at the *end* (delete
the last rows, or the whole file, and what is left still chains). So each
append also records the newest row's sequence number and hash in the journal
(:class:`AuditAnchor`), and :meth:`AuditLog.verify` cross-checks the two: a
log that ends before the anchored sequence is "N rows missing after sequence
S". An append that finds the log's tail below the anchor records that gap in
the journal for good, so rows written afterwards cannot paper over it. What
the pair cannot prove: a local user who can write both files can rewrite the
log, re-hash every row and update the anchor to match — the chain detects
accidents and careless edits, not a determined owner of the machine.

The runner writes through :class:`AuditSink`; :class:`AuditLog` is the file,
:class:`~vibflow.engine.testing.MemoryAudit` the in-memory twin for dry runs
and tests. Both build rows with :func:`chain_rows`, so both check the same
count-only model and chain.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from vibflow.engine.clock import Clock, stamp, system_clock
from vibflow.engine.errors import VibflowError

Ident = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_.-]{0,63}$")]
Hex = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{16,64}$")]
RunId = Annotated[str, StringConstraints(pattern=r"^run_[0-9a-f]{32}$")]
CheckpointId = Annotated[str, StringConstraints(pattern=r"^ckpt_[0-9a-f]{32}$")]
GrantId = Annotated[str, StringConstraints(pattern=r"^grt_[0-9a-f]{32}$")]
Timestamp = Annotated[str, StringConstraints(pattern=r"^\d{4}-\d\d-\d\dT[0-9:.]+Z$")]
Result = Literal[
    "ok", "refused", "blocked", "busy", "failed", "aborted", "interrupted", "skipped", "waiting"
]
GENESIS = "0" * 64

# One row to append: the event name and its facts (AuditEvent's fields).
Row = tuple[str, dict[str, Any]]


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PathsCount(_Strict):
    in_zone: int = Field(default=0, ge=0)
    drift: int = Field(default=0, ge=0)
    total: int = Field(default=0, ge=0)


class RedactionCounts(_Strict):
    """Spec §5 AuditEvent.redaction, plus how many fields were omitted."""

    secret_hits: int = Field(default=0, ge=0)
    privacy_hits: int = Field(default=0, ge=0)
    summarized_fields: int = Field(default=0, ge=0)
    omitted_fields: int = Field(default=0, ge=0)


class TriggerRef(_Strict):
    id: Ident
    action: Ident
    source: Ident


class AuditFacts(_Strict):
    """Count-only facts a step or guard may add to its transition's row."""

    capability_grant_id: GrantId | None = None
    sandwich_checkpoint_id: CheckpointId | None = None
    paths_count: PathsCount | None = None
    files_changed: int | None = Field(default=None, ge=0)
    circuit_breaker_state: Literal["active", "degraded"] | None = None
    redaction: RedactionCounts | None = None
    trigger: TriggerRef | None = None
    result: Result | None = None
    #: A rendering that showed the active intent (handoff, recovery): whether it
    #: was stale, and whether the output the user got said so (P0 gate 5).
    intent_stale: bool | None = None
    stale_labelled: bool | None = None


class AuditEvent(AuditFacts):
    sequence_number: int = Field(ge=1)
    timestamp: Timestamp
    event: Ident
    tool: Ident
    project_root_hash: Hex
    run_id: RunId | None = None
    flow: Ident | None = None
    transition_seq: int | None = Field(default=None, ge=0)
    from_state: Ident | None = None
    via: Ident | None = Field(default=None, description="the event that fired")
    to_state: Ident | None = None
    guard: Ident | None = None
    prev_hash: Hex
    hash: Hex


def row_hash(row: dict[str, Any]) -> str:
    body = {k: v for k, v in row.items() if k != "hash" and v is not None}
    canon = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canon.encode("ascii")).hexdigest()


def chain_rows(
    rows: Sequence[Row],
    *,
    after: tuple[int, str],
    timestamp: str,
    tool: str,
    project_root_hash: str,
) -> list[tuple[dict[str, Any], AuditEvent]]:
    """The rows, numbered and hash-chained after ``(sequence, hash)`` of the last
    row: each as the dict to store and as its validated :class:`AuditEvent` (a
    fact that is not count-only raises here, before anything is written)."""
    seq, prev_hash = after
    out: list[tuple[dict[str, Any], AuditEvent]] = []
    for event, facts in rows:
        seq += 1
        draft: dict[str, Any] = {
            "sequence_number": seq,
            "timestamp": timestamp,
            "event": event,
            "tool": facts.get("tool", tool),
            "project_root_hash": project_root_hash,
            "prev_hash": prev_hash,
            **{k: _plain(v) for k, v in facts.items() if k != "tool"},
        }
        draft = {k: v for k, v in draft.items() if v is not None}
        draft["hash"] = row_hash(draft)
        out.append((draft, AuditEvent.model_validate(draft)))
        prev_hash = draft["hash"]
    return out


class AuditSink(Protocol):
    """Where the runner's audit rows go (see :class:`AuditLog`)."""

    def append(self, event: str, **facts: Any) -> AuditEvent: ...

    def append_many(self, rows: list[Row]) -> list[AuditEvent]: ...

    def append_missing(self, run_id: str, rows: dict[int, Row]) -> int:
        """Append the rows (keyed by journal seq) of ``run_id`` not yet recorded,
        checking and appending atomically."""
        ...


class AuditAnchor(Protocol):
    """Where the audit log's newest ``(sequence, hash)`` is kept apart from the log
    (the journal: :meth:`~vibflow.engine.journal.Journal.anchor_audit`)."""

    def anchor_audit(
        self, sequence: int, row_hash: str, *, gap: tuple[int, int] | None = None
    ) -> None: ...

    def audit_anchor(self) -> tuple[int, str] | None: ...

    def audit_gaps(self) -> list[tuple[int, int, str]]: ...


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
        }


class AuditLog:
    """The audit file of one project (``.vibflow/audit.jsonl``)."""

    def __init__(
        self,
        path: Path,
        *,
        project_root_hash: str,
        tool: str = "cli",
        clock: Clock = system_clock,
        anchor: Callable[[], AuditAnchor] | None = None,
    ) -> None:
        self.path = path
        self._root_hash = project_root_hash
        self._tool = tool
        self._clock = clock
        # A provider, so a command that never appends never opens the journal.
        self._anchor = anchor
        self._lock_path = path.with_name(path.name + ".lock")
        self._lock: Any = None  # created on first write, then reused

    def append(self, event: str, **facts: Any) -> AuditEvent:
        """Append one row; ``facts`` must fit :class:`AuditEvent`'s fields."""
        return self.append_many([(event, facts)])[-1]

    def _locked(self) -> Any:
        if self._lock is None:
            from filelock import FileLock

            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._lock = FileLock(str(self._lock_path))
        return self._lock

    def append_many(self, rows: list[Row]) -> list[AuditEvent]:
        """Append rows in order under one lock acquisition and one write."""
        if not rows:
            return []
        with self._locked():
            return self._append_unlocked(rows)

    def append_missing(self, run_id: str, rows: dict[int, Row]) -> int:
        """Append the rows (keyed by journal seq) of ``run_id`` not yet in the file.

        Checking and appending happen under one lock, so two processes
        reconciling the same run at once still write each row exactly once.
        """
        if not rows:
            return 0
        with self._locked():
            have = self.recorded_transitions(run_id)
            missing = [rows[seq] for seq in sorted(rows) if seq not in have]
            self._append_unlocked(missing)
        return len(missing)

    def _append_unlocked(self, rows: list[Row]) -> list[AuditEvent]:
        if not rows:
            return []
        anchor = self._anchor() if self._anchor is not None else None
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            seq, prev_hash, needs_newline = _tail(fd)
            gap = _gap(anchor, seq, prev_hash)
            chained = chain_rows(
                rows,
                after=(seq, prev_hash),
                timestamp=stamp(self._clock()),
                tool=self._tool,
                project_root_hash=self._root_hash,
            )
            lines = [json.dumps(d, separators=(",", ":"), ensure_ascii=True) for d, _ in chained]
            payload = ("\n" if needs_newline else "") + "\n".join(lines) + "\n"
            os.write(fd, payload.encode("ascii"))
        finally:
            os.close(fd)
        if anchor is not None:
            last = chained[-1][1]
            # The row is written; an anchor left behind only weakens the tail
            # check until the next append, never a false alarm.
            with contextlib.suppress(VibflowError):
                anchor.anchor_audit(last.sequence_number, last.hash, gap=gap)
        return [event for _, event in chained]

    def rows(self) -> Iterator[tuple[int, bytes]]:
        if not self.path.exists():
            return
        with self.path.open("rb") as fh:
            yield from enumerate(fh, start=1)

    def recorded_transitions(self, run_id: str) -> set[int]:
        """Journal sequence numbers of ``run_id`` that have an audit row."""
        needle = run_id.encode("ascii")
        seen: set[int] = set()
        for _, raw in self.rows():
            if needle not in raw:
                continue
            try:
                data = json.loads(raw)
            except ValueError:
                continue
            if data.get("run_id") == run_id and isinstance(data.get("transition_seq"), int):
                seen.add(data["transition_seq"])
        return seen

    def verify(self, *, quarantine: Path | None = None) -> AuditReport:
        report = AuditReport(ok=True)
        anchor = self._anchor() if self._anchor is not None else None
        tip = anchor.audit_anchor() if anchor is not None else None
        expected_seq, prev_hash = 1, GENESIS
        ends = _Ends(tip[0] if tip is not None else None)
        bad: list[dict[str, Any]] = []
        for number, raw in self.rows():
            report.rows += 1
            problem, data = _check_line(raw, number)
            ends.see(data)
            if problem is None and data is not None:
                seq = data["sequence_number"]
                if seq != expected_seq:
                    problem = (
                        f"row {number}: sequence {seq} where {expected_seq} was expected "
                        "(a row was deleted, inserted or reordered)"
                    )
                    report.valid_rows += 1
                elif data["prev_hash"] != prev_hash:
                    problem = f"row {number}: sequence {seq} does not chain to the row before it"
                    report.valid_rows += 1
                else:
                    report.valid_rows += 1
                    expected_seq, prev_hash = seq + 1, data["hash"]
                    continue
                if report.first_bad_sequence is None:
                    report.first_bad_sequence = expected_seq
                # Re-anchor on this row so one bad row is reported once.
                expected_seq, prev_hash = seq + 1, data["hash"]
            else:
                report.corrupt_rows += 1
                bad.append(
                    {
                        "line": number,
                        "sha256": hashlib.sha256(raw).hexdigest(),
                        "length": len(raw),
                        "reason": problem,
                    }
                )
                if report.first_bad_sequence is None:
                    report.first_bad_sequence = expected_seq
            report.ok = False
            report.problems.append(problem or "invalid row")
            if report.problem is None:
                report.problem = problem
        if anchor is not None:
            self._check_anchor(report, anchor, tip, ends.last_seq, ends.at_tip)
        if quarantine is not None and bad:
            quarantine.parent.mkdir(parents=True, exist_ok=True)
            with quarantine.open("a", encoding="utf-8", newline="\n") as fh:
                for item in bad:
                    fh.write(json.dumps({"quarantined_at": stamp(self._clock()), **item}) + "\n")
            report.quarantined = len(bad)
        return report

    @staticmethod
    def _check_anchor(
        report: AuditReport,
        anchor: AuditAnchor,
        tip: tuple[int, str] | None,
        last_seq: int,
        at_tip: str | None,
    ) -> None:
        """The log's end against the journal's record of it (see the module doc)."""
        for anchored, found, when in anchor.audit_gaps():
            report.fail(
                f"{anchored - found} row(s) were missing after sequence {found} when vibflow "
                f"next wrote to the log ({when}; the journal had recorded sequence {anchored})"
                if anchored > found
                else f"the row at sequence {found} had been replaced when vibflow next wrote "
                f"to the log ({when})",
                found + 1,
            )
        if tip is None:
            return
        report.anchored_sequence = tip[0]
        if tip[0] > last_seq:
            report.missing_rows = tip[0] - last_seq
            report.fail(
                f"{report.missing_rows} row(s) missing after sequence {last_seq}: the journal "
                f"recorded the log up to sequence {tip[0]} (its end was cut off or the file "
                "was emptied or deleted)",
                last_seq + 1,
            )
        elif at_tip is not None and at_tip != tip[1]:
            report.fail(
                f"the row at sequence {tip[0]} is not the one the journal recorded (the log "
                "was rewritten)",
                tip[0],
            )


@dataclass
class _Ends:
    """What verify needs of the log's end: its highest sequence, and the hash of
    the row at the anchored sequence."""

    tip_seq: int | None
    last_seq: int = 0
    at_tip: str | None = None

    def see(self, data: dict[str, Any] | None) -> None:
        if data is None:
            return
        self.last_seq = max(self.last_seq, data["sequence_number"])
        if data["sequence_number"] == self.tip_seq:
            self.at_tip = data["hash"]


def _gap(anchor: AuditAnchor | None, seq: int, last_hash: str) -> tuple[int, int] | None:
    """``(anchored, found)`` when the log's tail is not where the journal left it."""
    tip = anchor.audit_anchor() if anchor is not None else None
    if tip is None:
        return None
    if tip[0] > seq or (tip[0] == seq and tip[1] != last_hash):
        return tip[0], seq
    return None


def _check_line(raw: bytes, number: int) -> tuple[str | None, dict[str, Any] | None]:
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
    if row_hash(data) != row.hash:
        return f"row {number}: sequence {row.sequence_number} was edited (hash mismatch)", None
    return None, data


def _tail(fd: int) -> tuple[int, str, bool]:
    """Sequence number and hash of the last valid row, scanning backwards."""
    size = os.lseek(fd, 0, os.SEEK_END)
    if size == 0:
        return 0, GENESIS, False
    needs_newline = os.pread(fd, 1, size - 1) != b"\n"
    chunk = 4096
    end = size
    buf = b""
    while end > 0:
        start = max(0, end - chunk)
        buf = os.pread(fd, end - start, start) + buf
        end = start
        lines = buf.split(b"\n")
        # lines[0] may be partial unless we reached the file start.
        candidates = lines if end == 0 else lines[1:]
        for line in reversed(candidates):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
                return int(data["sequence_number"]), str(data["hash"]), needs_newline
            except (ValueError, KeyError, TypeError):
                continue
        chunk *= 2
    return 0, GENESIS, needs_newline


def _plain(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", exclude_none=True)
    return value


def project_root_hash(root: Path) -> str:
    return hashlib.sha256(str(root.resolve()).encode("utf-8")).hexdigest()
