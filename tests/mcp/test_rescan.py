"""The after-the-fact re-scan of memory answers (spec §15): a share chosen by an
injectable random source, scanned without the clean-text cache, audited as
``mcp.rescan`` — ``failed`` when an answer still holds a secret or a local path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from vibflow_testing.cli import clean_env

from vibflow.mcp.rescan import Rescanner
from vibflow.mcp.server import McpApp
from vibflow.wiring import Project


def _rows(repo: Path) -> list[dict[str, Any]]:
    path = repo / ".vibflow" / "audit.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    return [json.loads(line) for line in lines if line]


def test_a_missed_secret_or_path_is_a_failed_rescan(repo: Path) -> None:
    """An answer that still holds a token or an absolute home path fails the re-scan;
    a clean one passes; the rows are count-only and name the client."""
    scanner = Rescanner(lambda: Project(repo, tool="agent-x", env=clean_env()), rate=1.0)
    token = "ghp_" + "Zq7Lm2Xv9Rt4Wp8Kd3Nf6Hb1Jc5Gs0Ya2Ue"
    assert scanner.offer({"intent": {"text": f"deploy with {token}"}})
    assert scanner.offer({"why": f"see {Path.home()}/notes/private.txt"})
    assert scanner.offer({"intent": {"text": "Make the login form accessible"}})
    scanner.close()
    rows = [r for r in _rows(repo) if r["event"] == "mcp.rescan"]
    assert [r["result"] for r in rows] == ["failed", "failed", "ok"]
    assert {r["tool"] for r in rows} == {"agent-x"}
    assert token not in json.dumps(rows)


def test_the_share_rescanned_follows_the_rate_and_the_random_source(repo: Path) -> None:
    """At rate 0.01 a draw of 0.5 is not re-scanned and a draw of 0.001 is; at rate 0
    nothing is; nothing is queued, and no thread started, when nothing is chosen."""
    draws = iter([0.5, 0.001])
    scanner = Rescanner(
        lambda: Project(repo, tool="a", env=clean_env()), rate=0.01, rng=lambda: next(draws)
    )
    assert scanner.offer({"x": "clean"}) is False
    assert scanner.offer({"x": "clean"}) is True
    scanner.close()
    assert [r["result"] for r in _rows(repo) if r["event"] == "mcp.rescan"] == ["ok"]
    never = Rescanner(lambda: Project(repo, tool="a", env=clean_env()), rate=0.0)
    assert never.offer({"x": "clean"}) is False
    never.close()


def test_only_memory_answers_are_offered_for_rescan(repo: Path) -> None:
    """runs_list is not a memory answer (no rescan); memory_summary_read is; the
    server writes one mcp.<tool> row for each call either way."""
    app = McpApp(repo, "agent-y", env=clean_env(), rescan_rate=1.0)
    assert not app.call("runs_list", {}).is_error
    assert not app.call("memory_summary_read", {}).is_error
    app.rescanner.close()
    events = [r["event"] for r in _rows(repo) if r["event"].startswith("mcp.")]
    assert events == ["mcp.runs_list", "mcp.memory_summary_read", "mcp.rescan"]
