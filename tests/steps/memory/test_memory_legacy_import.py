"""Legacy import (spec Appendix A): old decisions, verifications and guard captures become
the right memory entries; malformed and newer files are handled safely; the import CLI
merges without promoting events."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from vibflow_testing import MEMORY_FIXTURES
from vibflow_testing.cli import Cli, as_json

from vibflow.steps.memory.migrations import migrate_v0_to_v1
from vibflow.steps.memory.models import MemoryState
from vibflow.steps.memory.service import MemoryService
from vibflow.steps.memory.store import MemoryStore

FIXTURES = MEMORY_FIXTURES


def _fixture(name: str) -> dict[str, object]:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


# -- Appendix A fixtures ------------------------------------------------------------------


def test_legacy_decisions_only_become_explicit_decisions_and_a_proposed_intent() -> None:
    """Decisions keep their order; the intent is only *proposed* from the latest one."""
    state = MemoryState.model_validate(migrate_v0_to_v1(_fixture("legacy_decisions_only.json")))
    assert [d.text for d in state.decisions] == [
        "Use SQLite for the local store",
        "Keep the CLI offline-first",
    ]
    assert all(d.source == "explicit" and d.updated_by == "import" for d in state.decisions)
    assert state.active_intent is not None
    assert state.active_intent.proposed
    assert state.next_action is None


def test_legacy_verification_without_scope_is_kept_stale_and_scope_unknown() -> None:
    """Verification without files is kept, marked stale and scope_unknown, text verbatim."""
    state = MemoryState.model_validate(
        migrate_v0_to_v1(_fixture("legacy_verification_no_scope.json"))
    )
    first, second = state.verification
    assert (first.command, first.result) == ("pytest -q", "pass")
    assert second.command == "npm test"
    assert second.result == "unknown"
    assert second.result_text == "3 failures"
    assert all(v.stale and v.scope_unknown and v.source == "observed" for v in state.verification)


def test_new_verification_write_with_explicit_scope(repo: Path) -> None:
    """A new verification with --files is explicit, scoped and fresh."""
    svc = MemoryService(MemoryStore(repo / ".vibflow" / "memory.json"))
    svc.verify("pytest tests/test_login.py", "pass", files=["README.md"])
    [v] = svc.read().state.verification
    assert v.source == "explicit"
    assert v.related_files == ["README.md"]
    assert not v.scope_unknown
    assert not v.stale


def test_guard_capture_becomes_observed_verification_and_risks() -> None:
    """Passing guard summaries → observed verification (scope inferred); warnings → risks."""
    state = MemoryState.model_validate(migrate_v0_to_v1(_fixture("legacy_guard_capture.json")))
    [ver] = state.verification
    assert ver.source == "observed"
    assert ver.related_files == ["src/pages/Login.tsx"]
    assert not ver.scope_unknown
    kinds = sorted(r.kind for r in state.risks)
    assert kinds == ["skipped_check", "warning"]
    files = {f.path: f.source for f in state.relevant_files}
    assert files == {"src/pages/Login.tsx": "explicit", "src/services/auth.ts": "observed"}
    events = [e.kind for e in state.observed_context]
    assert events == ["commit", "checkpoint", "legacy_event"]
    assert state.decisions == []  # recent events are never promoted to decisions
    assert state.next_action is not None
    assert state.unknown_fields == {"editor_settings": {"theme": "dark"}}


def test_malformed_file_is_backed_up_with_minimal_memory(repo: Path) -> None:
    """A malformed memory.json is preserved as a backup; memory starts minimal."""
    path = repo / ".vibflow" / "memory.json"
    shutil.copy(FIXTURES / "malformed.json", path)
    loaded = MemoryStore(path).load()
    assert loaded.state == MemoryState()
    assert loaded.backup is not None
    assert loaded.backup.read_bytes() == (FIXTURES / "malformed.json").read_bytes()


def test_newer_schema_opens_read_only(repo: Path) -> None:
    """A newer schema_version opens read-only, showing the fields this version knows."""
    path = repo / ".vibflow" / "memory.json"
    shutil.copy(FIXTURES / "newer_schema.json", path)
    loaded = MemoryStore(path).load()
    assert loaded.read_only
    assert loaded.warning is not None
    assert "schema_version=7" in loaded.warning
    assert loaded.state.active_intent is not None
    assert loaded.state.active_intent.text == "From the future"


def test_import_cli_merges_without_promoting_events(cli: Cli) -> None:
    """`memory import PATH --yes` merges a legacy file; a second import adds no duplicates."""
    src = FIXTURES / "legacy_guard_capture.json"
    first = cli("memory", "import", str(src), "--yes")
    assert first.returncode == 0, first.stderr
    again = cli("memory", "import", str(src), "--yes")
    assert again.returncode == 0, again.stderr
    data = as_json(cli("memory", "show", "--json"))
    assert data["decisions"] == []
    paths = sorted(f["path"] for f in data["relevant_files"])
    assert paths == ["src/pages/Login.tsx", "src/services/auth.ts"]
    no_yes = cli("memory", "import", str(src))
    assert no_yes.returncode == 3
