"""`vibflow memory review` through the real CLI in a real git repository: every kind of
proposal accepted, dismissed and snoozed through `vibflow step`, each accepted change
written through the write gate (writer recorded), a refusal shown on the same item
with both values, dismissed and snoozed proposals not asked again — and a real crash
(SIGKILL right after an answer is recorded) resuming at the next item with nothing
applied twice."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from vibflow_testing.cli import as_json, vf

pytestmark = pytest.mark.cli
WRITER = "flow.memory_review"


def _memory(repo: Path) -> dict[str, Any]:
    return json.loads((repo / ".vibflow" / "memory.json").read_text("utf-8"))


def _save(repo: Path, data: dict[str, Any]) -> None:
    (repo / ".vibflow" / "memory.json").write_text(json.dumps(data), "utf-8")


def _ago(days: float) -> str:
    when = datetime.now(UTC) - timedelta(days=days)
    return when.isoformat(timespec="seconds").replace("+00:00", "Z")


def _stamped(**fields: Any) -> dict[str, Any]:
    return {"last_updated": _ago(0.01), "updated_by": "cli", **fields}


@pytest.fixture
def proposing(repo: Path) -> Path:
    """A memory with one proposal of every kind, in the review's fixed order:
    contradiction, proposed intent, (missing) next action, stale check, observed file,
    old decision."""
    assert vf(repo, "memory", "decide", "Never use tabs", "--yes").returncode == 0
    data = _memory(repo)
    never = data["decisions"][0]
    data["decisions"] = [
        never,
        {**never, "id": "dec_" + "a" * 32, "text": "Always use tabs", "created_at": _ago(0.01)},
        {**never, "id": "dec_" + "b" * 32, "text": "Release on Tuesdays", "created_at": _ago(120)},
    ]
    data["active_intent"] = _stamped(text="Add CSV export", proposed=True, updated_by="import")
    data["verification"] = [
        _stamped(id="ver_" + "c" * 32, command="pytest -q", result="pass", timestamp=_ago(1))
    ]
    data["relevant_files"] = [_stamped(path="src/report.py", source="observed", updated_by="hook")]
    _save(repo, data)
    return repo


def _start(repo: Path) -> dict[str, Any]:
    out = as_json(vf(repo, "memory", "review", "--json"))
    assert out["status"] == "waiting", out
    return out


def _kinds(run: dict[str, Any]) -> list[str]:
    return [i["kind"] for i in run["review"]["items"]]


def _step(repo: Path, run_id: str, event: str, *inputs: str) -> dict[str, Any]:
    args = [a for i in inputs for a in ("--input", i)]
    proc = vf(repo, "step", run_id, event, *args, "--json")
    assert proc.returncode == 0, proc.stderr
    return as_json(proc)


def test_every_kind_accepted_through_the_write_gate(proposing: Path) -> None:
    run = _start(proposing)
    rid = run["run_id"]
    assert _kinds(run) == [
        "contradiction",
        "confirm_intent",
        "next_action",
        "stale_verification",
        "explicit_file",
        "archive_decision",
    ]
    _step(proposing, rid, "accept", "keep=dec_" + "a" * 32)  # "Always use tabs" stands
    _step(proposing, rid, "accept")  # the proposed intent, confirmed
    refused = _step(proposing, rid, "accept")  # a next action needs its text
    assert "needs its text" in refused["current"]["problem"]
    _step(proposing, rid, "accept", "text=Write the export test")
    _step(proposing, rid, "accept")  # drop the stale check
    _step(proposing, rid, "edit", "text=the report screen")  # the file, with a why
    done = _step(proposing, rid, "accept")  # archive the old decision
    assert done["status"] == "done"
    data = _memory(proposing)
    assert [d["text"] for d in data["decisions"]] == ["Always use tabs"]
    assert {d["text"] for d in data["archived_decisions"]} == {
        "Never use tabs",
        "Release on Tuesdays",
    }
    assert data["active_intent"]["proposed"] is False
    assert data["active_intent"]["updated_by"] == WRITER
    assert data["next_action"] == {**data["next_action"], "text": "Write the export test"}
    assert data["verification"] == []
    files = {f["path"]: f for f in data["relevant_files"]}
    assert files["src/report.py"]["source"] == "explicit"
    assert files["src/report.py"]["why"] == "the report screen"
    assert files["src/report.py"]["updated_by"] == WRITER
    again = as_json(vf(proposing, "memory", "review", "--json"))
    assert again["status"] == "done"  # nothing left to propose


@pytest.mark.parametrize("event", ["dismiss", "snooze"])
def test_each_kind_dismissed_or_snoozed_writes_no_memory(proposing: Path, event: str) -> None:
    run = _start(proposing)
    before = (proposing / ".vibflow" / "memory.json").read_bytes()
    for _ in _kinds(run):
        last = _step(proposing, run["run_id"], event)
    assert last["status"] == "done"
    assert last["recap"]["bullets"][2 if event == "dismiss" else 3] == f"6 {event.rstrip('e')}ed"
    assert (proposing / ".vibflow" / "memory.json").read_bytes() == before
    assert as_json(vf(proposing, "memory", "review", "--json"))["status"] == "done"


def test_dismissed_never_return_and_snoozed_wait_a_day(proposing: Path) -> None:
    run = _start(proposing)
    rid = run["run_id"]
    before = (proposing / ".vibflow" / "memory.json").read_bytes()
    for event in ("dismiss", "snooze", "dismiss", "snooze", "dismiss", "snooze"):
        last = _step(proposing, rid, event)
    assert last["status"] == "done"
    assert (proposing / ".vibflow" / "memory.json").read_bytes() == before
    assert as_json(vf(proposing, "memory", "review", "--json"))["status"] == "done"
    marks = proposing / ".vibflow" / "recovery" / "review_marks.json"
    data = json.loads(marks.read_text("utf-8"))
    assert len(data["dismissed"]) == 3
    assert "tabs" not in marks.read_text("utf-8")  # keys only, never memory text
    for key in data["snoozed"]:
        data["snoozed"][key] = _ago(0.001)  # the snooze is over
    marks.write_text(json.dumps(data), "utf-8")
    back = _start(proposing)
    assert _kinds(back) == ["confirm_intent", "stale_verification", "archive_decision"]


def test_a_conflict_inside_the_window_is_shown_with_both_values(proposing: Path) -> None:
    run = _start(proposing)
    rid = run["run_id"]
    _step(proposing, rid, "dismiss")
    _step(proposing, rid, "dismiss")
    agent = vf(proposing, "memory", "next", "agent's plan", "--yes", "--writer", "agent.claude")
    assert agent.returncode == 0, agent.stderr
    shown = _step(proposing, rid, "accept", "text=my plan")
    problem = shown["current"]["problem"]
    assert "changed by agent.claude" in problem
    assert "“agent's plan”" in problem
    assert "“my plan”" in problem
    assert _memory(proposing)["next_action"]["text"] == "agent's plan"
    _step(proposing, rid, "accept", "text=my plan", "overwrite=yes")
    assert _memory(proposing)["next_action"]["text"] == "my plan"


def test_a_crash_after_an_answer_resumes_at_the_next_item(proposing: Path) -> None:
    """SIGKILL right after the first accepted item is recorded: resume finishes that
    step without writing again and waits on the second item."""
    run = _start(proposing)
    rid = run["run_id"]
    crashed = vf(
        proposing,
        "step",
        rid,
        "accept",
        "--input",
        "keep=dec_" + "a" * 32,
        env={"VIBFLOW_CRASH_AT": "item:1"},
    )
    assert crashed.returncode != 0
    after_crash = _memory(proposing)
    assert [d["text"] for d in after_crash["decisions"]][-1] == "Always use tabs"
    resumed = vf(proposing, "resume", rid, "--json")
    assert resumed.returncode == 0, resumed.stderr
    now = as_json(resumed)
    assert now["status"] == "waiting"
    assert now["current"]["kind"] == "confirm_intent"
    data = _memory(proposing)
    archived = [d["text"] for d in data["archived_decisions"]]
    assert archived.count("Never use tabs") == 1  # applied once, not again on resume
    assert data["decisions"] == after_crash["decisions"]


def test_the_review_dry_runs_and_empty_memory_only_lacks_a_next_action(repo: Path) -> None:
    before = (
        sorted(p.name for p in (repo / ".vibflow").rglob("*"))
        if (repo / ".vibflow").exists()
        else []
    )
    dry = as_json(vf(repo, "run", "memory_review", "--dry-run", "--json"))
    assert dry["ended"] == "wait"
    after = (
        sorted(p.name for p in (repo / ".vibflow").rglob("*"))
        if (repo / ".vibflow").exists()
        else []
    )
    assert "runs.db" not in set(after) - set(before)
    out = _start(repo)
    assert _kinds(out) == ["next_action"]
    assert _step(repo, out["run_id"], "stop")["status"] == "done"
