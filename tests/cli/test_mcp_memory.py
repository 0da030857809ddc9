"""memory_write and handoff_export over MCP, once granted: the write gate still
decides (an unconfirmed intent is only a proposal, other intent-shaping fields need
the user's confirmation), entries are stamped with the client's writer, and the
handoff is written only to a new project file unless overwrite is asked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mcp import Client
from vibflow_testing.cli import vf
from vibflow_testing.mcp import call, with_servers


def _memory(repo: Path) -> dict[str, Any]:
    return json.loads((repo / ".vibflow" / "memory.json").read_text(encoding="utf-8"))


def test_memory_write_goes_through_the_write_gate_as_the_client(repo: Path) -> None:
    """An unconfirmed intent is stored as a proposal; an unconfirmed decision is
    refused (confirmation_required); confirmed ones land stamped mcp.<client>; a
    verification names its files through the path contract."""
    assert vf(repo, "grant", "memory_write", "--client", "claude-code").returncode == 0

    async def body(client: Client) -> list[tuple[bool, Any, str]]:
        return [
            await call(client, "memory_write", {"field": "intent", "text": "Ship the login"}),
            await call(client, "memory_write", {"field": "decision", "text": "Use sessions"}),
            await call(
                client,
                "memory_write",
                {"field": "decision", "text": "Use sessions", "confirmed": True},
            ),
            await call(
                client,
                "memory_write",
                {
                    "field": "verification",
                    "text": "pytest",
                    "result": "pass",
                    "files": ["README.md"],
                },
            ),
            await call(client, "memory_write", {"field": "verification", "text": "pytest"}),
        ]

    proposal, refused, decided, verified, incomplete = with_servers(
        repo, body, clients=("claude-code",)
    )
    assert not proposal[0]
    assert proposal[1]["as"].startswith("proposal")
    assert refused[0]
    assert refused[1]["error"]["kind"] == "confirmation_required"
    assert not decided[0]
    assert not verified[0]
    assert incomplete[0]
    assert incomplete[1]["error"]["kind"] == "bad_input"
    state = _memory(repo)
    assert state["active_intent"]["proposed"] is True
    assert state["active_intent"]["updated_by"] == "mcp.claude_code"
    assert [d["updated_by"] for d in state["decisions"]] == ["mcp.claude_code"]
    assert state["verification"][0]["related_files"] == ["README.md"]


def test_handoff_export_writes_a_new_project_file_only(repo: Path) -> None:
    """The granted export writes the redacted handoff to a project-relative file; an
    existing file is kept unless overwrite is asked; a folder is refused."""
    assert vf(repo, "grant", "handoff_export").returncode == 0
    (repo / "docs").mkdir()

    async def body(client: Client) -> list[tuple[bool, Any, str]]:
        return [
            await call(client, "handoff_export", {"path": "docs/HANDOFF.md", "budget": 1500}),
            await call(client, "handoff_export", {"path": "docs/HANDOFF.md"}),
            await call(client, "handoff_export", {"path": "docs/HANDOFF.md", "overwrite": True}),
            await call(client, "handoff_export", {"path": "docs"}),
            await call(client, "handoff_export", {"path": "missing/HANDOFF.md"}),
        ]

    made, exists, replaced, folder, nowhere = with_servers(repo, body)
    assert not made[0]
    assert made[1]["written_to"] == "docs/HANDOFF.md"
    assert made[1]["total_chars"] <= 1500
    assert (repo / "docs/HANDOFF.md").read_text(encoding="utf-8").strip() == made[1]["text"]
    assert exists[0]
    assert "exists" in exists[1]["error"]["message"]
    assert not replaced[0]
    assert folder[0]
    assert nowhere[0]
    assert not (repo / "missing").exists()
