"""Memory: store robustness, the write gate, freshness, caps and migrations."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from vibflow_testing import MEMORY_FIXTURES
from vibflow_testing.git import git

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.steps.memory.caps import Caps, apply_caps
from vibflow.steps.memory.freshness import assess
from vibflow.steps.memory.models import Decision, MemoryState, Verification
from vibflow.steps.memory.policy import MemoryPolicy
from vibflow.steps.memory.service import MemoryService
from vibflow.steps.memory.store import MemoryStore
from vibflow.steps.workspace.repo_facts import GitRepoFacts

FIXTURES = MEMORY_FIXTURES
T0 = datetime(2026, 5, 2, 12, 0, tzinfo=UTC)


class Clock:
    def __init__(self, now: datetime = T0) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def service(root: Path, clock: Clock | None = None, **kw: object) -> MemoryService:
    return MemoryService(
        MemoryStore(root / ".vibflow" / "memory.json"),
        facts=GitRepoFacts(root),
        clock=clock or Clock(datetime.now(UTC)),
        **kw,  # type: ignore[arg-type]
    )


# -- store -----------------------------------------------------------------------------


def test_missing_memory_reads_as_empty(repo: Path) -> None:
    """No memory.json yet: empty memory, nothing written by reading."""
    view = service(repo).read()
    assert view.state == MemoryState()
    assert not (repo / ".vibflow" / "memory.json").exists()


def test_writes_are_utf8_lf_without_bom_and_round_trip(repo: Path) -> None:
    """A written memory file is UTF-8 without BOM, LF only, and reads back equal."""
    svc = service(repo)
    svc.set_intent("Fix the 한글 login page", confirmed=True)
    raw = (repo / ".vibflow" / "memory.json").read_bytes()
    assert not raw.startswith(b"\xef\xbb\xbf")
    assert b"\r" not in raw
    assert "한글".encode() in raw
    assert svc.read().state.active_intent.text == "Fix the 한글 login page"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b"\xef\xbb\xbf{}", "byte-order mark"),
        (b"{not json", "not valid JSON"),
        (b"[1, 2]", "not a JSON object"),
        (b'{"schema_version": 1, "decisions": "oops"}', "does not fit"),
        (b'{"schema_version": "one"}', "schema_version"),
    ],
)
def test_unreadable_memory_is_backed_up_not_overwritten(
    repo: Path, content: bytes, why: str
) -> None:
    """A bad memory.json is kept as a backup byte for byte; memory restarts minimal."""
    path = repo / ".vibflow" / "memory.json"
    path.write_bytes(content)
    view = service(repo).read()
    assert view.warning is not None
    assert why in view.warning
    assert view.state == MemoryState()
    backups = list(path.parent.glob("memory.json.corrupt-*"))
    assert len(backups) == 1
    assert backups[0].read_bytes() == content


def test_newer_schema_is_read_only(repo: Path) -> None:
    """A memory file from a newer vibflow is shown read-only and never written."""
    path = repo / ".vibflow" / "memory.json"
    newer = {
        "schema_version": 2,
        "active_intent": {
            "text": "future intent",
            "last_updated": "2026-05-02T12:00:00Z",
            "updated_by": "cli",
            "future_flag": True,
        },
        "decisions": [{"text": "keep me", "created_at": "2026-05-02T12:00:00Z"}],
        "brand_new_field": [1, 2, 3],
    }
    path.write_text(json.dumps(newer), encoding="utf-8")
    before = path.read_bytes()
    svc = service(repo)
    view = svc.read()
    assert view.read_only
    assert "schema_version=2 is newer" in (view.warning or "")
    assert [d.text for d in view.state.decisions] == ["keep me"]
    for write in (
        lambda: svc.set_intent("x", confirmed=True),
        lambda: svc.decide("x", confirmed=True),
        lambda: svc.set_next("x", confirmed=True),
        lambda: svc.observe("note", {"summary": "x"}),
    ):
        with pytest.raises(VibflowError) as err:
            write()
        assert err.value.code is ErrorCode.READ_ONLY
        assert err.value.code.outcome == 3
    assert path.read_bytes() == before


def test_unknown_fields_round_trip(repo: Path) -> None:
    """Fields this version does not know are kept and written back."""
    path = repo / ".vibflow" / "memory.json"
    path.write_text(json.dumps({"schema_version": 1, "team_notes": {"a": 1}}), encoding="utf-8")
    svc = service(repo)
    svc.decide("use sqlite", confirmed=True)
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["unknown_fields"] == {"team_notes": {"a": 1}}


# -- the write gate ----------------------------------------------------------------------


@pytest.mark.parametrize("field", ["set_intent", "decide", "set_next"])
def test_intent_shaping_writes_need_confirmation(repo: Path, field: str) -> None:
    """Intent-shaping fields are refused (exit 3) without explicit confirmation."""
    svc = service(repo)
    with pytest.raises(VibflowError) as err:
        getattr(svc, field)("something")
    assert err.value.code is ErrorCode.CONFIRMATION_REQUIRED
    assert "--yes" in (err.value.hint or "")
    assert not (repo / ".vibflow" / "memory.json").exists()


def test_explicit_relevant_file_needs_confirmation(repo: Path) -> None:
    """Marking a file explicitly relevant needs confirmation too."""
    with pytest.raises(VibflowError) as err:
        service(repo).relevant("README.md", "docs")
    assert err.value.code is ErrorCode.CONFIRMATION_REQUIRED


def test_hooks_can_only_append_observed_context(repo: Path) -> None:
    """The hook writer cannot change intent, decisions or next action, even 'confirmed'."""
    svc = service(repo)
    svc.set_intent("real intent", confirmed=True)
    svc.decide("real decision", confirmed=True)
    for write in (
        lambda: svc.set_intent("hook intent", writer="hook", confirmed=True),
        lambda: svc.decide("hook decision", writer="hook", confirmed=True),
        lambda: svc.set_next("hook next", writer="hook", confirmed=True),
    ):
        with pytest.raises(VibflowError):
            write()
    svc.observe("commit", {"sha": "abc1234"}, writer="hook")
    state = svc.read().state
    assert state.active_intent.text == "real intent"  # type: ignore[union-attr]
    assert [d.text for d in state.decisions] == ["real decision"]
    assert state.observed_context[-1].kind == "commit"
    assert state.observed_context[-1].source == "hook"


def test_conflicting_write_within_window_needs_overwrite(repo: Path) -> None:
    """A different writer changing the same field within 60 s is a conflict showing both."""
    clock = Clock()
    svc = service(repo, clock)
    svc.set_intent("intent from the agent", writer="mcp.memory_write", confirmed=True)
    clock.now = T0 + timedelta(seconds=20)
    with pytest.raises(VibflowError) as err:
        svc.set_intent("intent from the user", confirmed=True)
    assert err.value.code is ErrorCode.WRITE_CONFLICT
    assert "intent from the agent" in err.value.message
    assert "intent from the user" in err.value.message
    assert "--overwrite" in (err.value.hint or "")
    svc.set_intent("intent from the user", confirmed=True, overwrite=True)
    assert svc.read().state.active_intent.text == "intent from the user"  # type: ignore[union-attr]


def test_same_writer_or_old_value_is_not_a_conflict(repo: Path) -> None:
    """The same writer may change its own value; after the window anyone may."""
    clock = Clock()
    svc = service(repo, clock)
    svc.set_next("a", confirmed=True)
    svc.set_next("b", confirmed=True)
    clock.now = T0 + timedelta(seconds=61)
    svc.set_next("c", writer="mcp.memory_write", confirmed=True)
    clock.now = T0 + timedelta(seconds=122)
    svc.set_next("d", confirmed=True)
    assert svc.read().state.next_action.text == "d"  # type: ignore[union-attr]


def test_runaway_observed_capture_is_rate_limited(repo: Path) -> None:
    """More observed events per minute than the policy allows are refused."""
    svc = service(repo, Clock(), policy=MemoryPolicy(observed_writes_per_minute=3))
    for i in range(3):
        svc.observe("note", {"summary": f"e{i}"}, writer="hook")
    with pytest.raises(VibflowError) as err:
        svc.observe("note", {"summary": "e3"}, writer="hook")
    assert err.value.code is ErrorCode.RATE_LIMITED


def test_every_entry_records_its_writer(repo: Path) -> None:
    """Each entry carries who wrote it."""
    svc = service(repo)
    svc.decide("d", writer="flow.recovery.result", confirmed=True)
    svc.risk("r", writer="mcp.memory_write")
    state = svc.read().state
    assert state.decisions[0].updated_by == "flow.recovery.result"
    assert state.risks[0].updated_by == "mcp.memory_write"


def test_text_is_redacted_before_storage(repo: Path) -> None:
    """The injected redactor runs before anything is saved; counts are reported."""

    def redactor(text: str) -> tuple[str, dict[str, int]]:
        return text.replace("hunter2", "[REDACTED]"), {"secret_hits": text.count("hunter2")}

    seen: list[tuple[str, str, dict[str, int]]] = []
    svc = service(repo, redactor=redactor, audit=lambda e, r, c: seen.append((e, r, dict(c))))
    result = svc.decide("db password is hunter2", confirmed=True)
    assert result.redaction == {"secret_hits": 1}
    raw = (repo / ".vibflow" / "memory.json").read_text(encoding="utf-8")
    assert "hunter2" not in raw
    assert seen == [("memory_write", "ok", {"secret_hits": 1})]


# -- freshness ----------------------------------------------------------------------------


def test_intent_goes_stale_after_24_hours(repo: Path) -> None:
    """An intent older than the policy's hours is stale, with the reason."""
    clock = Clock()
    svc = service(repo, clock)
    svc.set_intent("x", confirmed=True)
    clock.now = T0 + timedelta(hours=23)
    assert not svc.read().freshness.intent_stale
    clock.now = T0 + timedelta(hours=25)
    fresh = svc.read().freshness
    assert fresh.intent_stale
    assert "25 h ago" in fresh.intent_reasons[0]


def test_intent_goes_stale_after_five_commits(repo: Path) -> None:
    """Five commits since the intent was set make it stale (real git)."""
    svc = service(repo)
    svc.set_intent("x", confirmed=True)
    for i in range(5):
        (repo / f"f{i}.txt").write_text(str(i), encoding="utf-8")
        git(repo, "add", f"f{i}.txt")
        git(repo, "commit", "-q", "-m", f"c{i}")
        assert svc.read().freshness.intent_stale is (i == 4)
    assert "5 commits" in svc.read().freshness.intent_reasons[0]


def test_verification_goes_stale_when_a_related_file_changes(repo: Path) -> None:
    """Editing a file a verification covers makes that verification stale."""
    past = datetime.now(UTC) - timedelta(minutes=10)
    os.utime(repo / "README.md", (past.timestamp(), past.timestamp()))
    svc = service(repo, Clock(past + timedelta(minutes=5)))
    svc.verify("pytest -q", "pass", files=["README.md"])
    assert svc.read().freshness.stale_verification == 0
    (repo / "README.md").write_text("changed\n", encoding="utf-8")
    fresh = svc.read().freshness
    assert fresh.stale_verification == 1
    assert "changed after it ran" in (fresh.verification[0].reason or "")


def test_scope_unknown_verification_is_never_fresh(repo: Path) -> None:
    """Verification without a file scope is always reported stale."""
    svc = service(repo)
    svc.verify("pytest -q", "pass")
    view = svc.read()
    assert view.state.verification[0].scope_unknown
    assert view.freshness.stale_verification == 1


def test_changing_the_intent_marks_verification_stale(repo: Path) -> None:
    """The intent-change cascade marks every earlier verification stale."""
    svc = service(repo, Clock(datetime.now(UTC) - timedelta(seconds=5)))
    svc.verify("pytest -q", "pass", files=["README.md"])
    svc.set_intent("new direction", confirmed=True)
    view = svc.read()
    assert view.state.verification[0].stale
    assert view.freshness.stale_verification == 1


def test_stale_intent_is_labelled_in_show(repo: Path) -> None:
    """P0 gate 5: `memory show` never prints a stale intent without saying so."""
    from vibflow.cli.memory_render import render

    clock = Clock()
    svc = service(repo, clock)
    svc.set_intent("ship the dashboard", confirmed=True)
    clock.now = T0 + timedelta(days=3)
    text = render(svc.read())
    intent_line = next(line for line in text.splitlines() if line.startswith("Intent:"))
    assert "STALE" in intent_line


# -- caps -----------------------------------------------------------------------------


def test_decisions_over_the_cap_or_90_days_are_archived() -> None:
    """Decisions past the cap or older than 90 days move to archived_decisions."""
    now = T0
    old = Decision(text="ancient", created_at=(now - timedelta(days=91)).isoformat())
    recent = [Decision(text=f"d{i}", created_at=now.isoformat()) for i in range(55)]
    state = apply_caps(MemoryState(decisions=[old, *recent]), Caps(), now=now)
    assert len(state.decisions) == 50
    assert state.decisions[-1].text == "d54"
    assert {d.text for d in state.archived_decisions} == {"ancient", "d0", "d1", "d2", "d3", "d4"}


def test_archived_decisions_never_feed_the_intent(repo: Path) -> None:
    """Archiving a decision does not touch the active intent."""
    svc = service(repo, Clock())
    svc.set_intent("the intent", confirmed=True)
    for i in range(52):
        svc.decide(f"decision {i}", confirmed=True)
    state = svc.read().state
    assert len(state.archived_decisions) == 2
    assert state.active_intent.text == "the intent"  # type: ignore[union-attr]


def test_verification_is_capped_per_scope() -> None:
    """At most 30 verification entries are kept per file scope."""
    entries = [Verification(command=f"c{i}", related_files=["a.py"]) for i in range(35)]
    entries += [Verification(command="other", related_files=["b.py"])]
    state = apply_caps(MemoryState(verification=entries), Caps())
    assert sum(1 for v in state.verification if v.related_files == ["a.py"]) == 30
    assert any(v.command == "other" for v in state.verification)


def test_explicit_relevant_files_are_never_dropped_for_observed() -> None:
    """Over the cap, observed relevant files go first; explicit ones stay."""
    from vibflow.steps.memory.models import RelevantFile

    files = [RelevantFile(path=f"e{i}.py", source="explicit") for i in range(5)]
    files += [RelevantFile(path=f"o{i}.py", source="observed") for i in range(5)]
    state = apply_caps(MemoryState(relevant_files=files), Caps(relevant_files=6))
    assert [f.path for f in state.relevant_files if f.source == "explicit"] == [
        f"e{i}.py" for i in range(5)
    ]
    assert len(state.relevant_files) == 6


def test_freshness_is_pure(repo: Path) -> None:
    """assess() reads nothing but its inputs: same inputs, same answer."""
    state = MemoryState(verification=[Verification(command="x", related_files=["README.md"])])
    facts = GitRepoFacts(repo)
    a = assess(state, facts, MemoryPolicy(), now=T0)
    b = assess(state, facts, MemoryPolicy(), now=T0)
    assert a == b
