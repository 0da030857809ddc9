"""What the journal stores about a run, and what a journal store must do.

The run itself, its entries, the update one write gives it and the owner
holding it are plain dataclasses, no I/O, so the runner, the stores, recaps
and the front doors share one vocabulary without loading SQLite.
:func:`applied` says what a run looks like once a write lands; the stores
return it, and recaps predict from it before the write commits.

:class:`JournalStore` is the contract the runner depends on, implemented by
the SQLite :class:`~vibflow.engine.journal.Journal` and the in-memory
:class:`~vibflow.engine.testing.MemoryJournal`.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from vibflow.engine.kinds import RunStatus


@dataclass(frozen=True)
class Owner:
    """The process advancing a run (see ``ownership``)."""

    pid: int
    host: str
    started: str
    token: str


@dataclass
class RunRecord:
    """A run as the journal stores it."""

    run_id: str
    flow: str
    flow_version: int
    origin: str
    definition: str
    definition_digest: str
    policy_digest: str
    status: RunStatus
    state: str
    context: dict[str, Any]
    seq: int
    created_at: str
    updated_at: str
    blocked_reason: str | None = None
    pending_event: str | None = None
    pending_inputs: dict[str, Any] | None = None
    error: str | None = None
    owner: Owner | None = None
    audited_seq: int = -1
    attempt: int = 1
    recap_id: str | None = None
    parent_run: str | None = None


@dataclass(frozen=True)
class Entry:
    """One journal row: a start, a transition, a refusal or a status change."""

    run_id: str
    seq: int
    kind: str  # start | transition | blocked | status
    from_state: str | None
    event: str | None
    to_state: str | None
    guards: list[dict[str, Any]] = field(default_factory=list)
    outcome: str = ""
    started_at: str | None = None
    at: str = ""


@dataclass(frozen=True)
class RunUpdate:
    """The new values a journal write gives a run (``None`` keeps a field)."""

    state: str
    status: RunStatus
    context: dict[str, Any]
    blocked_reason: str | None = None
    pending_event: str | None = None
    pending_inputs: dict[str, Any] | None = None
    error: str | None = None
    keep_owner: bool = True
    context_json: str | None = None  # ``encode_context(context)``, when already computed


def applied(
    run: RunRecord,
    entry: Entry,
    update: RunUpdate,
    *,
    owner: Owner | None,
    updated_at: str,
    attempt_increment: bool = False,
    recap_id: str | None = None,
) -> RunRecord:
    """The run as it is once ``entry`` and ``update`` are written (no I/O)."""
    return dataclasses.replace(
        run,
        status=update.status,
        state=update.state,
        context=update.context,
        blocked_reason=update.blocked_reason,
        pending_event=update.pending_event,
        pending_inputs=update.pending_inputs,
        error=update.error,
        owner=owner,
        seq=entry.seq,
        attempt=run.attempt + (1 if attempt_increment else 0),
        recap_id=recap_id or run.recap_id,
        updated_at=updated_at,
    )


def encode_context(context: Mapping[str, Any]) -> str:
    return json.dumps(context, sort_keys=True, separators=(",", ":"))


class JournalStore(Protocol):
    """What the runner needs of a journal: runs, their entries, item progress
    and recaps. ``advance`` and ``claim`` are compare-and-set on the run's
    ``seq`` and owner token; a store must apply each call atomically."""

    def create_run(self, run: RunRecord) -> None: ...

    def get(self, run_id: str) -> RunRecord | None: ...

    def runs(
        self, statuses: Sequence[str] | None = None, *, limit: int = 50, flow: str | None = None
    ) -> list[RunRecord]: ...

    def advance(
        self,
        run: RunRecord,
        entry: Entry,
        update: RunUpdate,
        owner: Owner | None,
        *,
        expect_token: str | None,
        attempt_increment: bool = False,
        recap: dict[str, Any] | None = None,
    ) -> RunRecord: ...

    def claim(
        self,
        run_id: str,
        owner: Owner,
        *,
        expect_seq: int,
        expect_token: str | None,
        attempt_increment: bool = False,
    ) -> bool: ...

    def release(self, run_id: str, token: str, *, audited: bool) -> None: ...

    def entries(self, run_id: str) -> list[Entry]: ...

    def mark_items(self, run_id: str, state: str, keys: Iterable[str]) -> None: ...

    def done_items(self, run_id: str, state: str) -> set[str]: ...

    def save_recap(
        self, recap_id: str, kind: str, subject_id: str, generated_at: str, body: dict[str, Any]
    ) -> None: ...

    def get_recap(self, recap_id: str) -> dict[str, Any] | None: ...

    def close(self) -> None: ...
