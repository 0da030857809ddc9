"""P0 gate 3 over MCP: a secret and an absolute home path planted in memory (as a
careless tool would write them, past the write gate) never appear in any tool's
answer — memory reads, previews, handoffs, runs, the exported file — the memory
answers' audit rows count what was masked, and the after-the-fact re-scan of memory
answers finds them clean (``mcp.rescan`` / ``ok``)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from mcp import Client
from vibflow_testing.apply import APPLY, drifted
from vibflow_testing.cli import vf
from vibflow_testing.mcp import call, mcp_rows, with_servers

TOKEN = "ghp_" + "Zq7Lm2Xv9Rt4Wp8Kd3Nf6Hb1Jc5Gs0Ya2Ue"
PASSWORD = "Xq9!vR2#mTz7@Lp4"  # noqa: S105 - the planted secret the test hunts for


def _plant(repo: Path, home: str) -> list[str]:
    """Write the secret and the home path straight into memory.json; return the
    strings that must never come out."""
    path = repo / ".vibflow" / "memory.json"
    state = json.loads(path.read_text(encoding="utf-8"))
    state["active_intent"]["text"] = (
        f"Make the login form accessible; deploy with token {TOKEN} from {home}/.config/deploy"
    )
    state["active_intent"]["last_updated"] = "2020-01-01T00:00:00Z"  # long stale
    state["decisions"] = [
        {
            "id": "dec_" + "a" * 32,
            "text": f"use password={PASSWORD} for the staging db",
            "source": "explicit",
            "created_at": "2026-01-01T00:00:00Z",
            "last_updated": "2026-01-01T00:00:00Z",
            "updated_by": "cli",
        }
    ]
    state["relevant_files"][0]["why"] = f"see {home}/notes/login.txt"
    state["next_action"] = {
        "text": f"export GITHUB_TOKEN={TOKEN} and run {home}/bin/deploy",
        "last_updated": "2026-01-01T00:00:00Z",
        "updated_by": "cli",
    }
    path.write_text(json.dumps(state), encoding="utf-8")
    return [TOKEN, PASSWORD, home, str(Path.home()) + "/"]


def test_a_planted_secret_and_home_path_never_leave_through_any_tool(repo: Path) -> None:
    """Every tool (denied ones granted, the flag on) answers without the token, the
    password or the home path; memory answers' rows count the masking; every memory
    answer is re-scanned (rate 1) and found clean."""
    drifted(repo)
    home = str(Path.home() / "alice-private")
    secrets = _plant(repo, home)
    for tool in ("memory_full_read", "memory_write", "handoff_export", "recovery_apply"):
        assert vf(repo, "grant", tool).returncode == 0
    assert vf(repo, "recap").returncode == 0

    async def body(client: Client) -> list[tuple[str, tuple[bool, Any, str]]]:
        calls: list[tuple[str, dict[str, Any]]] = [
            ("memory_summary_read", {}),
            ("memory_full_read", {}),
            ("recovery_preview", {}),
            ("handoff", {}),
            ("handoff_export", {"path": "HANDOFF.md"}),
            ("recap_read", {}),
            ("runs_list", {}),
            ("triggers_check", {}),
            ("checkpoint_create", {"message": f"before {TOKEN}"}),
            ("memory_write", {"field": "risk", "text": f"leaked {PASSWORD} in {home}/x"}),
            ("recovery_apply", {}),
        ]
        return [(name, await call(client, name, args)) for name, args in calls]

    answers = with_servers(repo, body, env=APPLY, rescan=1.0)
    for name, (failed, data, text) in answers:
        assert not failed, (name, data)
        dumped = text + json.dumps(data, ensure_ascii=False)
        for secret in secrets:
            assert secret not in dumped, (name, secret)
    exported = (repo / "HANDOFF.md").read_text(encoding="utf-8")
    assert not any(secret in exported for secret in secrets)

    summary = dict(answers)["memory_summary_read"][1]
    assert summary["intent"]["label"] == "STALE"  # P0 gate 5: never shown as fresh
    rows = mcp_rows(repo)
    (preview_row,) = [r for r in rows if r["event"] == "mcp.recovery_preview"]
    assert (preview_row["intent_stale"], preview_row["stale_labelled"]) == (True, True)
    assert "intent_stale" not in next(r for r in rows if r["event"] == "mcp.handoff")
    reads = {"mcp.memory_summary_read", "mcp.memory_full_read"}
    memory_rows = [r for r in rows if r["event"] in reads]
    assert len(memory_rows) == 2
    for row in memory_rows:
        assert row["redaction"]["secret_hits"] >= 1
        assert row["redaction"]["privacy_hits"] >= 1
    assert not any(secret in json.dumps(rows) for secret in secrets)
    memory_answers = sum(r["event"].startswith("mcp.memory_") for r in rows)
    deadline = time.monotonic() + 30
    while len([r for r in mcp_rows(repo) if r["event"] == "mcp.rescan"]) < memory_answers:
        assert time.monotonic() < deadline, "the re-scans were not all written"
        time.sleep(0.1)
    rescans = [r for r in mcp_rows(repo) if r["event"] == "mcp.rescan"]
    assert [r["result"] for r in rescans] == ["ok"] * memory_answers
    assert vf(repo, "audit", "verify").returncode == 0
