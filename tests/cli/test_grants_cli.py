"""``vibflow grant``, ``revoke`` and ``grants`` as a user runs them: JSON shapes, exit
statuses (2 for bad input, never a traceback), one audit row per change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from vibflow_testing.apply import audit_rows
from vibflow_testing.cli import Cli


def test_grant_list_revoke_round_trip(repo: Path, cli: Cli) -> None:
    """A grant is listed with its id, client, expiry and redacted reason; revoking it by
    id empties the list (`--all` still shows it revoked); each change is one row."""
    token = "ghp_" + "Zq7Lm2Xv9Rt4Wp8Kd3Nf6Hb1Jc5Gs0Ya2Ue"
    made = cli(
        "grant",
        "memory_write",
        "--client",
        "claude-code",
        "--expires",
        "8h",
        "--reason",
        f"pairing today {token}",
        "--json",
    )
    assert made.returncode == 0, made.stderr
    grant = json.loads(made.stdout)
    assert grant["id"].startswith("grt_")
    assert len(grant["id"]) == 36
    assert (grant["tool"], grant["client"], grant["status"]) == (
        "memory_write",
        "claude-code",
        "active",
    )
    assert grant["expires_at"] > grant["granted_at"]
    assert token not in made.stdout
    assert token not in (repo / ".vibflow" / "grants.json").read_text(encoding="utf-8")

    listed = json.loads(cli("grants", "--json").stdout)
    assert [g["id"] for g in listed["grants"]] == [grant["id"]]
    assert listed["defaults"]["recovery_apply"] == "gated"
    assert listed["defaults"]["memory_summary_read"] == "allowed"
    text = cli("grants").stdout
    assert grant["id"] in text
    assert "memory_write for claude-code" in text

    gone = cli("revoke", grant["id"], "--json")
    assert gone.returncode == 0, gone.stderr
    assert [g["status"] for g in json.loads(gone.stdout)["revoked"]] == ["revoked"]
    assert json.loads(cli("grants", "--json").stdout)["grants"] == []
    history = json.loads(cli("grants", "--all", "--json").stdout)["grants"]
    assert [g["status"] for g in history] == ["revoked"]
    rows = [r for r in audit_rows(repo) if r["event"].startswith("grant.")]
    assert [(r["event"], r["capability_grant_id"], r["tool"]) for r in rows] == [
        ("grant.created", grant["id"], "cli"),
        ("grant.revoked", grant["id"], "cli"),
    ]
    assert rows[0]["redaction"]["secret_hits"] == 1


def test_revoking_a_tool_revokes_each_of_its_grants(repo: Path, cli: Cli) -> None:
    """`vibflow revoke TOOL` ends every grant in force for it, one row each; with none
    left it says so and exits 0."""
    for client in ("a-agent", "b-agent"):
        assert cli("grant", "recovery_apply", "--client", client).returncode == 0
    gone = json.loads(cli("revoke", "recovery_apply", "--json").stdout)["revoked"]
    assert len(gone) == 2
    again = cli("revoke", "recovery_apply")
    assert again.returncode == 0
    assert "nothing was revoked" in again.stdout
    revoked = [r for r in audit_rows(repo) if r["event"] == "grant.revoked"]
    assert len(revoked) == 2


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["grant", "memory_summary_read"], "needs no grant"),
        (["grant", "format_disk"], "no MCP tool"),
        (["grant", "memory_write", "--client", "cli"], "reserved"),
        (["grant", "memory_write", "--client", "Bad Name"], "client name"),
        (["grant", "memory_write", "--expires", "forever"], "expiry"),
        (["grant", "memory_write", "--expires", "500d"], "at most a year"),
        (["grant", "memory_write", "--reason", "x" * 300], "at most 200"),
        (["revoke", "grt_" + "0" * 32], "no grant"),
        (["revoke", "rm"], "no MCP tool"),
        (["grant"], "Missing argument"),
    ],
)
def test_bad_input_exits_2_with_one_sentence(
    repo: Path, cli: Cli, args: list[str], says: str
) -> None:
    """Every mistake is exit 2 with a plain message and no traceback; nothing is granted."""
    proc = cli(*args)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert says in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not [r for r in audit_rows(repo) if r["event"].startswith("grant.")]


def test_a_damaged_grants_file_is_reported_and_kept(repo: Path, cli: Cli) -> None:
    """`vibflow grants` on a damaged file warns, lists nothing (nothing is in force) and
    keeps the file aside; --json carries the warning."""
    (repo / ".vibflow" / "grants.json").write_text("{oops", encoding="utf-8")
    proc = cli("grants", "--json")
    assert proc.returncode == 0
    data = json.loads(proc.stdout)
    assert data["grants"] == []
    assert "could not be read" in data["warning"]
    assert len(list((repo / ".vibflow").glob("grants.json.corrupt-*"))) == 1
