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

A retention (:mod:`.audit_retention`) compacts the oldest rows into count-only
rollover summaries (:mod:`.audit_rollover`); the log then starts past sequence
1, chained to the last summarized row, and :meth:`AuditLog.verify`
(:mod:`.audit_verify`) checks the join. The log is never emptied by it: the
newest row always stays, so an append always finds the chain's tail here.

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
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from vibflow.engine.clock import Clock, stamp, system_clock
from vibflow.engine.errors import VibflowError

if TYPE_CHECKING:
    from vibflow.engine.audit_rollover import RolloverStore
    from vibflow.engine.audit_verify import AuditReport

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


class LabelCounts(_Strict):
    """Drift labels a user judged in one ``recover feedback``: how many, how many
    of the drift labels were wrong, and how many of the judged labels had put
    an explicitly relevant file among the drift candidates (P0 gate 4)."""

    judged: int = Field(default=0, ge=0)
    wrong_drift: int = Field(default=0, ge=0)
    explicit_as_drift: int = Field(default=0, ge=0)


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
    labels: LabelCounts | None = None


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


# One encoder for every row: json.dumps with options builds a new one per call,
# which was half the cost of verifying a 10 MB log.
_CANON = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def row_hash(row: dict[str, Any]) -> str:
    body = {k: v for k, v in row.items() if k != "hash" and v is not None}
    return hashlib.sha256(_CANON.encode(body).encode("ascii")).hexdigest()


_TAIL = b',"hash":"'
_TAIL_LEN = len(_TAIL) + 64 + len(b'"}\n')


def row_line(row: dict[str, Any]) -> str:
    """The row as the log stores it: the canonical body its hash was computed
    over (sorted keys, no nulls), with the hash added last — so a reader can
    check the hash on the line's own bytes (:func:`hash_on_line`)."""
    body = {k: v for k, v in row.items() if k != "hash" and v is not None}
    return _CANON.encode(body)[:-1] + ',"hash":"' + str(row["hash"]) + '"}'


def hash_on_line(raw: bytes, expected: str) -> bool:
    """Whether ``raw`` (a line :func:`row_line` wrote, ending in LF) hashes to
    ``expected`` as stored, without decoding and re-encoding it. False says
    nothing: a row in another key order needs :func:`row_hash`."""
    end = len(raw) - _TAIL_LEN
    if end < 1 or raw[end : end + len(_TAIL)] != _TAIL:
        return False
    if raw[end + len(_TAIL) : -3] != expected.encode("ascii"):
        return False
    return hashlib.sha256(raw[:end] + b"}").hexdigest() == expected


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
        rollovers: Callable[[], RolloverStore] | None = None,
        after_append: Callable[[int], None] | None = None,
    ) -> None:
        self.path = path
        # The summaries of rows a retention compacted (the log chains on from
        # them): a provider, so an append never loads their model.
        self._rollovers = rollovers
        # Called with the log's size after each append, outside the lock (the
        # automatic rollover); whatever it raises is its own business.
        self._after_append = after_append
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
            written = self._append_unlocked(rows)
        self._appended()
        return written

    def _appended(self) -> None:
        if self._after_append is not None:
            with contextlib.suppress(OSError):
                self._after_append(self.path.stat().st_size)

    def locked(self) -> Any:
        """The lock every append holds (a retention holds it while it rewrites)."""
        return self._locked()

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
        if missing:
            self._appended()
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
            lines = [row_line(d) for d, _ in chained]
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

    def first_timestamp(self) -> str | None:
        """The first row's timestamp (one line read), or None when there is none."""
        try:
            with self.path.open("rb") as fh:
                value = json.loads(fh.readline(64 * 1024)).get("timestamp")
        except (OSError, ValueError, AttributeError):
            return None
        return value if isinstance(value, str) else None

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
        """The log checked row by row, as a chain from its rollover summaries, and
        its end against the journal's anchor (:mod:`.audit_verify`); corrupt rows
        are copied, redacted, to ``quarantine`` when given."""
        from vibflow.engine.audit_quarantine import Quarantine
        from vibflow.engine.audit_verify import verify_lines

        anchor = self._anchor() if self._anchor is not None else None
        ledger = self._rollovers().load() if self._rollovers is not None else None
        report, bad = verify_lines(self.rows(), ledger=ledger, anchor=anchor)
        if quarantine is not None and bad:
            Quarantine(quarantine).add(bad, self._clock())
            report.quarantined = len(bad)
        return report


def _gap(anchor: AuditAnchor | None, seq: int, last_hash: str) -> tuple[int, int] | None:
    """``(anchored, found)`` when the log's tail is not where the journal left it."""
    tip = anchor.audit_anchor() if anchor is not None else None
    if tip is None:
        return None
    if tip[0] > seq or (tip[0] == seq and tip[1] != last_hash):
        return tip[0], seq
    return None


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
    # The folder's bytes: a name that is not UTF-8 reaches Python as lone surrogates.
    return hashlib.sha256(os.fsencode(root.resolve())).hexdigest()
