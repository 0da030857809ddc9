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
    # Memory's writer shape has no '-': the name keeps its letters and a tag of its own.
    assert state["active_intent"]["updated_by"] == "mcp.claude_code_ehlsjsvxlf"
    assert [d["updated_by"] for d in state["decisions"]] == ["mcp.claude_code_ehlsjsvxlf"]
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


def test_handoff_export_overwrites_only_an_earlier_handoff(repo: Path) -> None:
    """overwrite: true replaces a handoff vibflow wrote (over MCP, or `vibflow handoff
    --out` for a person) but refuses any other file, an agent's uncommitted source or
    an .env, with a bad-input error saying to pick a new name; those stay byte-identical."""
    assert vf(repo, "grant", "handoff_export").returncode == 0
    source = b"export const answer = 42;\r\n// the agent's uncommitted work\n"
    write_bytes = {"src/index.ts": source, ".env": b"API_KEY=abc\n", "notes.bin": b"\xff\xfe\x00"}
    for rel, data in write_bytes.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_bytes(data)
    # Starts like a handoff, but its first line is not one vibflow writes.
    (repo / "LOOKALIKE.md").write_text("Handoff from vibflow (soon)\n", encoding="utf-8")
    human = vf(repo, "handoff", "--for", "human", "--out", "PERSON.md")
    assert human.returncode == 0, human.stderr

    async def body(client: Client) -> list[tuple[bool, Any, str]]:
        return [
            await call(client, "handoff_export", {"path": "HANDOFF.md"}),
            await call(client, "handoff_export", {"path": "HANDOFF.md", "overwrite": True}),
            await call(client, "handoff_export", {"path": "PERSON.md", "overwrite": True}),
            *[
                await call(client, "handoff_export", {"path": rel, "overwrite": True})
                for rel in (*write_bytes, "LOOKALIKE.md")
            ],
        ]

    made, again, person, *refused = with_servers(repo, body)
    assert not made[0], made
    assert not again[0], again
    assert (repo / "HANDOFF.md").read_text(encoding="utf-8").strip() == again[1]["text"]
    assert not person[0], person
    assert (repo / "PERSON.md").read_text(encoding="utf-8").strip() == person[1]["text"]
    for failed, data, _ in refused:
        assert failed, data
        assert data["error"]["kind"] == "bad_input"
        assert "not a handoff vibflow wrote" in data["error"]["message"]
        assert "new file name" in data["error"]["hint"]
    for rel, data in write_bytes.items():
        assert (repo / rel).read_bytes() == data, rel
    assert (repo / "LOOKALIKE.md").read_text(encoding="utf-8") == "Handoff from vibflow (soon)\n"


def test_clients_whose_names_differ_only_in_digits_are_distinct_writers(repo: Path) -> None:
    """agent1 and agent2 write as two memory writers, so the second's next action
    meets the first's as a write conflict, exactly as two unlike names do; a name
    memory's writer shape takes as it is stays readable (mcp.<name>)."""
    for name in ("agent1", "agent2", "alpha", "beta"):
        assert vf(repo, "grant", "memory_write", "--client", name).returncode == 0

    async def body(first: Client, second: Client) -> list[tuple[bool, Any, str]]:
        return [
            await call(
                client,
                "memory_write",
                {"field": "next_action", "text": f"{word} the migration", "confirmed": True},
            )
            for client, word in ((first, "run"), (second, "delete"))
        ]

    writers = {}
    for pair in (("alpha", "beta"), ("agent1", "agent2")):
        (repo / ".vibflow" / "memory.json").unlink(missing_ok=True)
        (wrote, first), (refused, second) = [a[:2] for a in with_servers(repo, body, clients=pair)]
        assert not wrote, first
        assert refused, (pair, second)
        assert second["error"]["kind"] == "write_conflict", pair
        assert _memory(repo)["next_action"]["text"] == "run the migration", pair
        writers[pair[0]] = first["writer"]
    assert writers["alpha"] == "mcp.alpha"
    assert writers["agent1"].startswith("mcp.agent_")
    assert writers["agent1"] != "mcp.agent_"
