"""The runner over the engine's in-memory journal and audit, with a fixed clock.

No project, no SQLite, no audit file: these pin what the runner itself does
(journal-then-audit, statuses, the owner-token check) through the seams it is
built on, and that the in-memory stores keep the SQLite journal's contract.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from vibflow_testing import FLOWS

from vibflow.engine.audit import GENESIS, row_hash
from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.journal import Journal
from vibflow.engine.kinds import RunStatus
from vibflow.engine.loader import LoadedFlow, load_flow
from vibflow.engine.ownership import current_owner
from vibflow.engine.records import Entry, JournalStore, RunUpdate
from vibflow.engine.registry import Registry
from vibflow.engine.runner import Runner
from vibflow.engine.testing import FixedClock, MemoryAudit, MemoryJournal

NOON = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
NOON_STAMP = "2024-05-01T12:00:00.000000Z"


def _flow(name: str, registry: Registry) -> LoadedFlow:
    path = FLOWS / "valid" / f"{name}.yaml"
    return load_flow(path.read_text("utf-8"), path.name, registry)


def _runner(
    tmp_path: Path, registry: Registry, env: dict[str, str] | None = None
) -> tuple[Runner, MemoryJournal, MemoryAudit]:
    clock = FixedClock(NOON)
    journal = MemoryJournal(clock=clock)
    audit = MemoryAudit(clock=clock)
    runner = Runner(
        registry=registry,
        journal=journal,
        audit=audit,
        project_root=tmp_path,
        env=env or {},
        clock=clock,
    )
    return runner, journal, audit


def test_linear_run_journals_then_audits_every_entry_at_the_injected_time(
    tmp_path: Path, registry: Registry
) -> None:
    """A finished run has entries 0..n, one chained audit row each, all stamped by the clock."""
    runner, journal, audit = _runner(tmp_path, registry)
    run = runner.start(_flow("linear", registry))
    assert run.status is RunStatus.DONE
    entries = journal.entries(run.run_id)
    assert [e.seq for e in entries] == list(range(len(entries)))
    assert {e.at for e in entries} == {NOON_STAMP}
    assert run.created_at == run.updated_at == NOON_STAMP
    assert [r["transition_seq"] for r in audit.rows] == [e.seq for e in entries]
    assert {r["timestamp"] for r in audit.rows} == {NOON_STAMP}
    prev = GENESIS
    for row in audit.rows:
        assert row["prev_hash"] == prev
        assert row["hash"] == row_hash(row)
        prev = row["hash"]
    assert run.owner is None
    assert journal.get(run.run_id).audited_seq == run.seq  # type: ignore[union-attr]


def test_refused_guard_blocks_with_the_event_pending_then_the_retry_moves_on(
    tmp_path: Path, registry: Registry
) -> None:
    """A refused confirmation leaves the run blocked at the wait; a matching one reaches done."""
    runner, journal, audit = _runner(tmp_path, registry, {"VIBFLOW_TEST_APPLY": "1"})
    run = runner.start(_flow("guarded_apply", registry))
    assert run.status is RunStatus.WAITING
    run = runner.send(run.run_id, "restore", {"option": "opt_1"})
    assert (run.status, run.state) == (RunStatus.WAITING, "confirm")
    run = runner.send(run.run_id, "confirm", {"confirmation": "nope"})
    assert (run.status, run.state) == (RunStatus.BLOCKED, "confirm")
    assert run.pending_event == "confirm"
    assert audit.rows[-1]["event"] == "guard_refused"
    assert audit.rows[-1]["guard"] == "t_confirm"
    run = runner.send(run.run_id, "confirm", {"confirmation": "APPLY now"})
    assert run.status is RunStatus.DONE
    assert journal.done_items(run.run_id, "apply") == {f"item-{i:03d}" for i in range(5)}
    assert runner.get(run.run_id).recap_id is not None
    assert len(audit.rows) == len(journal.entries(run.run_id))


def test_run_status_is_a_str_enum_stored_and_shown_as_plain_strings(
    tmp_path: Path, registry: Registry
) -> None:
    """Statuses compare equal to, and serialize as, the strings the journal always held."""
    runner, _, _ = _runner(tmp_path, registry)
    run = runner.start(_flow("waits", registry))
    assert run.status == "waiting"
    assert json.dumps({"status": run.status}) == '{"status": "waiting"}'
    assert [r.run_id for r in runner.journal.runs(["waiting"])] == [run.run_id]


def test_finished_run_refuses_more_work(tmp_path: Path, registry: Registry) -> None:
    """Abort, then any further event is refused as a finished run, over the memory stores."""
    runner, _, audit = _runner(tmp_path, registry)
    run = runner.start(_flow("waits", registry))
    assert runner.abort(run.run_id).status is RunStatus.ABORTED
    assert audit.rows[-1]["event"] == "run_aborted"
    with pytest.raises(VibflowError) as err:
        runner.abort(run.run_id)
    assert err.value.code is ErrorCode.RUN_FINISHED


@pytest.fixture(params=["sqlite", "memory"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> JournalStore:
    if request.param == "sqlite":
        return Journal(tmp_path / "runs.db", clock=FixedClock(NOON))
    return MemoryJournal(clock=FixedClock(NOON))


def test_both_journals_refuse_a_write_from_a_process_that_lost_the_run(
    store: JournalStore, tmp_path: Path, registry: Registry
) -> None:
    """``advance`` is compare-and-set on seq and owner token in every store."""
    runner, _, _ = _runner(tmp_path, registry)
    run = runner.start(_flow("waits", registry))
    copy = runner.get(run.run_id)
    store.create_run(copy)
    mine, theirs = current_owner(), current_owner()
    assert store.claim(run.run_id, mine, expect_seq=copy.seq, expect_token=None)
    assert not store.claim(run.run_id, theirs, expect_seq=copy.seq, expect_token=None)
    entry = Entry(run.run_id, 1, "status", run.state, "resumed", run.state, at=NOON_STAMP)
    update = RunUpdate(state=run.state, status=RunStatus.RUNNING, context=copy.context)
    with pytest.raises(VibflowError) as err:
        store.advance(copy, entry, update, theirs, expect_token=theirs.token)
    assert err.value.code is ErrorCode.BUSY
    moved = store.advance(copy, entry, update, mine, expect_token=mine.token)
    assert moved.seq == 1
    assert moved.status is RunStatus.RUNNING
    stored = store.get(run.run_id)
    assert stored is not None
    assert stored.status is RunStatus.RUNNING
    assert stored.updated_at == NOON_STAMP
    store.release(run.run_id, mine.token, audited=True)
    released = store.get(run.run_id)
    assert released is not None
    assert released.owner is None
    assert released.audited_seq == 1
    store.close()
