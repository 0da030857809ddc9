"""A tool refused for want of a grant says which case it is — never granted, expired
(when), or revoked (when, by whom) — and names the command the user runs to grant
it again, as a step for the user (by: user), not something the agent can do."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mcp import Client
from vibflow_testing.apply import APPLY
from vibflow_testing.cli import vf
from vibflow_testing.mcp import CLIENT, call, mcp_rows, with_servers

AGAIN = f"vibflow grant memory_full_read --client {CLIENT}"


def grant(repo: Path, *args: str) -> str:
    proc = vf(repo, "grant", "memory_full_read", *args, "--json")
    assert proc.returncode == 0, proc.stderr
    return str(json.loads(proc.stdout)["id"])


def refused(repo: Path, tool: str = "memory_full_read", **env: str) -> dict[str, Any]:
    async def once(client: Client) -> tuple[bool, Any, str]:
        return await call(client, tool, {})

    failed, data, _ = with_servers(repo, once, env=env or None)
    assert failed, data
    error = data["error"]
    assert error["kind"] == "permission_denied", error
    return dict(error)


def expire_all(repo: Path, when: str) -> None:
    """Move every grant's expiry into the past (as time passing would)."""
    path = repo / ".vibflow" / "grants.json"
    body = json.loads(path.read_text(encoding="utf-8"))
    for g in body["grants"]:
        g["expires_at"] = when
    path.write_text(json.dumps(body), encoding="utf-8")


def test_never_granted_says_so_and_names_the_users_command(repo: Path) -> None:
    """No grant was ever made: 'never been granted', and the user's grant command as
    the next step; the answer's one audit row is a refusal."""
    error = refused(repo)
    assert "never been granted" in error["message"]
    assert error["grant"] == {"status": "never", "grant_id": None, "at": None}
    assert error["next"] == [
        {"by": "user", "command": AGAIN, "does": "let this client call memory_full_read"}
    ]
    assert [r["result"] for r in mcp_rows(repo)] == ["refused"]


def test_an_expired_grant_says_it_expired_and_when(repo: Path) -> None:
    """The client's grant ran out: the refusal names the grant, says it expired and
    when, and how the user grants it again."""
    grant_id = grant(repo, "--client", CLIENT, "--expires", "1h")
    expire_all(repo, "2000-01-01T00:00:00.000000Z")
    error = refused(repo)
    assert "expired at 2000-01-01T00:00:00.000000Z" in error["message"]
    assert grant_id in error["message"]
    assert "never" not in error["message"]
    assert error["grant"] == {
        "status": "expired",
        "grant_id": grant_id,
        "at": "2000-01-01T00:00:00.000000Z",
    }
    (step,) = error["next"]
    assert step["by"] == "user"
    assert step["command"] == AGAIN
    assert f"`{AGAIN}`" in error["message"]


def test_a_revoked_grant_says_when_and_by_whom(repo: Path) -> None:
    """The user revoked the client's grant: the refusal says revoked, when (the time
    `vibflow grants --all` shows) and by whom (at the project's command line)."""
    grant_id = grant(repo, "--client", CLIENT)
    assert vf(repo, "revoke", grant_id).returncode == 0
    listed = json.loads(vf(repo, "grants", "--all", "--json").stdout)["grants"]
    (revoked,) = [g for g in listed if g["id"] == grant_id]
    error = refused(repo)
    assert f"was revoked at {revoked['revoked_at']}" in error["message"]
    assert "at the project's command line (`vibflow revoke`)" in error["message"]
    assert error["grant"] == {
        "status": "revoked",
        "grant_id": grant_id,
        "at": revoked["revoked_at"],
    }
    assert [s["command"] for s in error["next"]] == [AGAIN]


def test_the_newest_grant_decides_which_case_and_a_grant_for_any_client_counts(
    repo: Path,
) -> None:
    """An expired grant for any client, then a revoked one for this client: the
    refusal explains the newest (revoked); a grant for another client explains
    nothing (this client was never granted); granting again allows the call."""
    grant(repo, "--client", "someone-else")
    assert refused(repo)["grant"]["status"] == "never"
    old = grant(repo, "--expires", "1h")  # any client
    expire_all(repo, "2000-01-01T00:00:00.000000Z")
    assert refused(repo)["grant"] == {
        "status": "expired",
        "grant_id": old,
        "at": "2000-01-01T00:00:00.000000Z",
    }
    newer = grant(repo, "--client", CLIENT)
    assert vf(repo, "revoke", newer).returncode == 0
    assert refused(repo)["grant"]["grant_id"] == newer
    grant(repo, "--client", CLIENT)

    async def once(client: Client) -> tuple[bool, Any, str]:
        return await call(client, "memory_full_read", {})

    assert with_servers(repo, once)[0] is False


def test_recovery_apply_with_the_flag_off_names_the_servers_environment(repo: Path) -> None:
    """Granted, but the server runs without VIBFLOW_RECOVERY_APPLY: the refusal is not
    about grants (grant: null) and its next step is the user's, restarting the server
    with the flag; with no grant at all the grant comes first."""
    error = refused(repo, "recovery_apply", **APPLY)
    assert error["grant"]["status"] == "never"
    assert vf(repo, "grant", "recovery_apply", "--client", CLIENT).returncode == 0
    error = refused(repo, "recovery_apply")
    assert error["grant"] is None
    (step,) = error["next"]
    assert step["by"] == "user"
    assert "VIBFLOW_RECOVERY_APPLY=1" in step["command"]
