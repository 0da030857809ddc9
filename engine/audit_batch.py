"""Which audit row each journal entry of a run gets, and when it is written.

The journal is the source of truth; the audit follows it. While a process
holds a run (:mod:`.claims`), plain transition rows wait in a batch and are
appended in one write when the run is released: one lock, one write per
drive instead of one per move. Rows that carry a step's own facts (a sandwich
checkpoint id, path counts) are written at once, since they describe work
done outside the journal.

A process that dies before its flush leaves journal entries without rows; the
next one to claim the run re-derives them from the journal alone
(:meth:`AuditBatch.reconcile`) and appends only the missing ones, under the
audit lock — so every entry ends up with exactly one row.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from vibflow.engine.audit import AuditSink, Row
from vibflow.engine.records import Entry, RunRecord

_EVENT_OF_KIND = {"start": "run_started", "transition": "transition", "blocked": "guard_refused"}
_RESULT_OF_KIND = {"start": "ok", "transition": "ok", "blocked": "refused"}
_RESULT_OF_STATUS_EVENT = {"interrupted": "interrupted", "aborted": "aborted", "failed": "failed"}
# Facts every row may carry without being written at once.
_PLAIN_FACTS = frozenset({"result", "guard"})


def _row_facts(run: RunRecord, entry: Entry, facts: dict[str, Any]) -> dict[str, Any]:
    return {
        "run_id": run.run_id,
        "flow": run.flow,
        "transition_seq": entry.seq,
        "from_state": entry.from_state,
        "via": entry.event if entry.kind != "status" else None,
        "to_state": entry.to_state,
        **facts,
    }


def entry_row(run: RunRecord, entry: Entry) -> Row:
    """The audit row a journal entry gets when written from the journal alone."""
    event = _EVENT_OF_KIND.get(entry.kind) or f"run_{entry.event or 'changed'}"
    result = _RESULT_OF_KIND.get(entry.kind) or _RESULT_OF_STATUS_EVENT.get(entry.event or "", "ok")
    refused = next((g["guard"] for g in entry.guards if not g.get("passed")), None)
    facts = _row_facts(
        run,
        entry,
        {"result": result, "guard": refused if entry.kind == "blocked" else None},
    )
    return event, {k: v for k, v in facts.items() if v is not None}


class AuditBatch:
    """The audit rows of the moves this process made, not yet appended."""

    def __init__(self, sink: AuditSink) -> None:
        self.sink = sink
        self._pending: list[Row] = []
        self._depth = 0

    @contextmanager
    def batching(self) -> Iterator[None]:
        """Hold plain rows back until the outermost batch ends (the caller flushes)."""
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1

    def add(self, run: RunRecord, event: str, entry: Entry, **facts: Any) -> None:
        """Queue the row of a move this process just journaled."""
        clean = {k: v for k, v in facts.items() if v is not None}
        self._pending.append((event, _row_facts(run, entry, clean)))
        if not self._depth or set(clean) - _PLAIN_FACTS:
            self.flush()

    def add_entry(self, run: RunRecord, entry: Entry) -> None:
        """Queue the row of ``entry`` as the journal alone describes it."""
        self._pending.append(entry_row(run, entry))
        if not self._depth:
            self.flush()

    def flush(self) -> None:
        rows, self._pending = self._pending, []
        self.sink.append_many(rows)

    def reconcile(self, run: RunRecord, entries: Iterable[Entry]) -> None:
        """Write the rows a dead owner never wrote (idempotent, under the audit lock)."""
        self.flush()
        rows = {e.seq: entry_row(run, e) for e in entries if e.seq > run.audited_seq}
        self.sink.append_missing(run.run_id, rows)
