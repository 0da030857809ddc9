"""The agents domain's pure parts: hook payloads, the policy defaults the hook reads
without pydantic, turn-checkpoint retention, and the rewind's choice of files."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from vibflow_testing import ROOT, TESTS

from vibflow.steps.agents.defaults import DEFAULTS
from vibflow.steps.agents.payloads import PayloadError, parse
from vibflow.steps.agents.policy import AgentsPolicy
from vibflow.steps.agents.records import AgentRecords, Touched, safe_session_id
from vibflow.steps.agents.rewind_steps import choose
from vibflow.steps.checkpoints.models import CheckpointMeta, CheckpointPolicy
from vibflow.steps.checkpoints.retention import to_prune
from vibflow.steps.recovery.restore_steps import Selection

PAYLOADS = TESTS / "agents" / "payloads"
NOW = datetime(2026, 1, 10, tzinfo=UTC)


@pytest.mark.parametrize("sample", sorted(PAYLOADS.glob("*/*.json")), ids=lambda p: p.stem)
def test_every_recorded_sample_parses_without_reading_the_prompt(sample: Path) -> None:
    """Each documented payload becomes an event; an edit tool's file is its only path."""
    agent = sample.parent.name
    raw = sample.read_text("utf-8").replace("<ROOT>", "/p").replace("<FILE>", "/p/a.py")
    event = parse(agent, None, raw.encode())
    assert event.session in {"abc123", "gem-7f3a"}
    assert event.paths == (["/p/a.py"] if event.kind == "tool_use" else [])
    assert "prompt" not in repr(event)


def test_bad_payloads_are_payload_errors() -> None:
    """Not JSON, not an object, an unknown event: a PayloadError, never a traceback."""
    for raw in (b"{x", b"[]", b'{"hook_event_name": "Notification"}'):
        with pytest.raises(PayloadError):
            parse("claude-code", None, raw)


def test_session_ids_are_kept_only_in_a_plain_shape() -> None:
    """A plain id is stored as given; anything else as a digest, never as free text."""
    assert safe_session_id("abc-123_x") == "abc-123_x"
    assert safe_session_id("has spaces / and slashes").startswith("h")
    assert safe_session_id(None) == "unknown"


def test_hook_defaults_equal_the_shipped_policy() -> None:
    """The plain defaults the hook reads equal policies/agents.yaml and the model."""
    parsed = json.loads((ROOT / "policies" / "parsed.json").read_text("utf-8"))
    shipped = parsed["agents.yaml"]["data"]["agents"]
    model = AgentsPolicy.model_validate(shipped)
    assert model == AgentsPolicy()
    assert {
        "timeout": model.hook_timeout_seconds,
        "keep_sessions": model.turns.keep_sessions,
        "keep_days": model.turns.keep_days,
        "max_turns": model.turns.max_turns,
        "keep_records_days": model.turns.keep_records_days,
    } == DEFAULTS


def meta(n: int, reason: str, age: timedelta) -> CheckpointMeta:
    when = (NOW - age).isoformat().replace("+00:00", "Z")
    return CheckpointMeta(checkpoint_id=f"ckpt_{n:032x}", created_at=when, reason=reason)  # type: ignore[arg-type]


def test_turn_checkpoints_are_kept_exactly_while_pinned() -> None:
    """Unpinned turn checkpoints go (past the grace period) without pushing the user's own
    checkpoints out of keep_last; a pinned one stays whatever its reason."""
    policy = CheckpointPolicy(keep_last=2, keep_days=0)
    metas = [meta(i, "agent_turn", timedelta(hours=i + 1)) for i in range(10)]
    metas += [meta(100, "manual", timedelta(days=3)), meta(101, "manual", timedelta(days=4))]
    pinned = {metas[0].checkpoint_id, metas[11].checkpoint_id}
    doomed = set(to_prune(metas, policy, now=NOW, pinned=pinned))
    assert doomed == {m.checkpoint_id for m in metas[1:10]}
    young = meta(50, "agent_turn", timedelta(minutes=1))
    assert to_prune([young], policy, now=NOW, pinned=set()) == []


def test_pinned_checkpoints_follow_sessions_and_days(tmp_path: Path) -> None:
    """Pins: every turn of the newest N sessions, plus turns younger than D days."""
    records = AgentRecords(tmp_path / "agents.db")
    old = (NOW - timedelta(days=30)).isoformat().replace("+00:00", "Z")
    for s in range(3):
        session = records.session("claude-code", f"s{s}", old[:-1] + f"{s}Z")
        records.start_turn(session.id, old, f"ckpt_{s:032x}", None)
    pins = records.pinned_checkpoints(keep_sessions=2, keep_days=7, max_turns=100, now=NOW)
    assert pins == {f"ckpt_{1:032x}", f"ckpt_{2:032x}"}


def _iso(age: timedelta) -> str:
    return (NOW - age).isoformat().replace("+00:00", "Z")


def test_old_turn_records_are_forgotten_but_never_one_still_useful(tmp_path: Path) -> None:
    """Prune forgets ended, observed turns older than the cutoff outside the newest
    sessions (with their files and refusals, and sessions left empty); it keeps a turn
    memory has not taken, an open turn, a young turn and every turn of the newest session."""
    records = AgentRecords(tmp_path / "agents.db")
    old = timedelta(days=200)
    done = records.session("claude-code", "done", _iso(old))
    gone = [records.start_turn(done.id, _iso(old), None, None) for _ in range(3)]
    for turn in gone:
        records.end_turn(turn.id, _iso(old), None, "turn_end", None)
        records.touch(turn.id, [Touched("a.py", "Edit")], _iso(old))
        records.reject(turn.id, {"absolute": 1})
        records.mark_observed(turn.id)
    busy = records.session("claude-code", "busy", _iso(old + timedelta(days=1)))
    unobserved = records.start_turn(busy.id, _iso(old), None, None)
    records.end_turn(unobserved.id, _iso(old), None, "turn_end", None)
    still_open = records.start_turn(busy.id, _iso(old), None, None)
    young_turn = records.start_turn(busy.id, _iso(timedelta(days=1)), None, None)
    newest = records.session("claude-code", "newest", _iso(timedelta(days=300)))
    kept_by_session = records.start_turn(newest.id, _iso(old), None, None)
    records.end_turn(kept_by_session.id, _iso(old), None, "turn_end", None)
    records.mark_observed(kept_by_session.id)
    records.session("claude-code", "newest", _iso(timedelta(0)))  # seen just now

    assert records.prune(keep_sessions=1, keep_days=90, now=NOW) == 3
    assert [records.get_turn(t.id) for t in gone] == [None, None, None]
    assert all(records.touched(t.id) == [] and records.rejected(t.id) == {} for t in gone)
    assert records.get_session(done.id) is None
    for turn in (unobserved, still_open, young_turn, kept_by_session):
        assert records.get_turn(turn.id) is not None
    assert records.prune(keep_sessions=1, keep_days=90, now=NOW) == 0


def test_damaged_records_are_set_aside(tmp_path: Path) -> None:
    """A file that is not a database is moved aside and a fresh one started, with a note."""
    path = tmp_path / "agents.db"
    path.write_bytes(b"garbage" * 500)
    notes: list[str] = []
    records = AgentRecords(path, on_recovered=notes.append)
    assert records.sessions() == []
    assert notes
    assert "set aside" in notes[0]
    assert list(tmp_path.glob("agents.db.damaged-*"))


def test_rewind_leaves_the_users_files_unless_named() -> None:
    """By default the user's own edits are left and listed; named, they are restored."""
    chosen = Selection(["a.py", "notes.md"], ["new.py"])
    kept_sel, kept, over = choose(chosen, ["notes.md"], named=False, include_mine=False)
    assert kept_sel.paths == ["a.py", "new.py"]
    assert (kept, over) == (["notes.md"], [])
    all_sel, kept, over = choose(chosen, ["notes.md"], named=False, include_mine=True)
    assert all_sel.paths == ["a.py", "new.py", "notes.md"]
    assert (kept, over) == ([], ["notes.md"])
