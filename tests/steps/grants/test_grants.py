"""The grants domain: durations, which grant covers which client and tool, expiry and
revocation, the gate of spec §7 (the server's flag, never the caller's), and a grants
file that cannot be read allowing nothing while it is kept."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.steps.grants.capabilities import (
    CAPABILITIES,
    GRANTABLE,
    check_client,
    check_grantable,
    decide,
)
from vibflow.steps.grants.model import parse_duration
from vibflow.steps.grants.service import GrantService
from vibflow.steps.grants.store import GrantStore

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        return self.now


def service(tmp_path: Path, clock: Clock, rows: list[tuple[str, str]]) -> GrantService:
    return GrantService(
        GrantStore(tmp_path, clock=clock),
        audit=lambda event, gid, _counts: rows.append((event, gid)),
        redact=lambda text: (text.replace("hunter2", "[REDACTED]"), {"secret_hits": 1}),
        clock=clock,
        user=lambda: "dev",
    )


@pytest.mark.parametrize(
    ("text", "seconds"), [("30m", 1800), ("8h", 28800), ("7d", 604800), ("2w", 1209600)]
)
def test_durations_parse(text: str, seconds: int) -> None:
    """An expiry is a count and a unit (m, h, d, w)."""
    assert parse_duration(text) == timedelta(seconds=seconds)


@pytest.mark.parametrize("text", ["", "7", "d", "1y", "-1d", "0d", "400d", "1.5h", "7 days"])
def test_bad_durations_are_bad_input(text: str) -> None:
    """Anything else, zero, or more than a year is bad input, not a traceback."""
    with pytest.raises(VibflowError) as caught:
        parse_duration(text)
    assert caught.value.code is ErrorCode.BAD_INPUT


def test_only_denied_tools_are_grantable_and_cli_is_no_client() -> None:
    """Allowed tools need no grant; unknown ones are refused; `cli` is reserved (the
    grant guard lets the local terminal through, so no MCP server may claim it)."""
    assert set(GRANTABLE) == {
        "memory_full_read",
        "memory_write",
        "handoff_export",
        "recovery_apply",
    }
    assert check_grantable("recovery_apply") == "recovery_apply"
    for bad in ("memory_summary_read", "rm_rf", ""):
        with pytest.raises(VibflowError):
            check_grantable(bad)
    for bad in ("cli", "Claude", "", "a b", "x" * 65, "../x"):
        with pytest.raises(VibflowError):
            check_client(bad)
    assert check_client("claude-code") == "claude-code"


def test_a_grant_covers_its_client_and_tool_until_revoked_or_expired(tmp_path: Path) -> None:
    """A client-bound grant covers only that client; one without a client covers any;
    revoking by id or by tool ends it; an expired grant allows nothing. Each change is
    one audit row with the grant id; the reason is stored redacted."""
    clock, rows = Clock(), []
    grants = service(tmp_path, clock, rows)
    mine = grants.grant("recovery_apply", client="claude-code", reason="pw hunter2")
    assert mine.reason == "pw [REDACTED]"
    assert mine.user == "dev"
    assert grants.check("recovery_apply", "claude-code") == mine
    assert grants.check("recovery_apply", "cursor") is None
    assert grants.check("memory_write", "claude-code") is None
    anyone = grants.grant("memory_write", expires="1h")
    assert grants.check("memory_write", "cursor") == anyone
    clock.now = NOW + timedelta(hours=1, seconds=1)
    assert grants.check("memory_write", "cursor") is None
    assert [g.id for g in grants.revoke("recovery_apply")] == [mine.id]
    assert grants.check("recovery_apply", "claude-code") is None
    assert grants.revoke("recovery_apply") == []
    with pytest.raises(VibflowError):
        grants.revoke(mine.id)  # already revoked
    with pytest.raises(VibflowError):
        grants.revoke("grt_" + "0" * 32)
    assert rows == [
        ("grant.created", mine.id),
        ("grant.created", anyone.id),
        ("grant.revoked", mine.id),
    ]
    statuses = {g.id: g.status(clock.now) for g in grants.listing().grants}
    assert statuses == {mine.id: "revoked", anyone.id: "expired"}


@pytest.mark.parametrize(
    "content",
    [b"{not json", b'{"grants": "all"}', b'{"schema_version": 9, "grants": []}', b"\xff\xfe"],
)
def test_an_unreadable_grants_file_is_kept_and_allows_nothing(
    tmp_path: Path, content: bytes
) -> None:
    """A damaged grants.json allows nothing; it is moved aside under a new name (never
    overwritten) with a warning, and the next grant starts a fresh file."""
    clock, rows = Clock(), []
    grants = service(tmp_path, clock, rows)
    (tmp_path / "grants.json").write_bytes(content)
    assert grants.check("recovery_apply", "claude-code") is None
    kept = list(tmp_path.glob("grants.json.corrupt-*"))
    assert [p.read_bytes() for p in kept] == [content]
    made = grants.grant("recovery_apply")
    assert grants.check("recovery_apply", "x") == made
    assert list(tmp_path.glob("grants.json.corrupt-*")) == kept


def test_a_grants_path_that_is_no_file_is_left_alone_and_denies(tmp_path: Path) -> None:
    """A FIFO (or a folder) at grants.json is never opened or moved: nothing is granted,
    and a grant is refused with a sentence saying to move it."""
    clock, rows = Clock(), []
    grants = service(tmp_path, clock, rows)
    os.mkfifo(tmp_path / "grants.json")
    assert grants.check("recovery_apply", "x") is None
    assert grants.listing().warning
    with pytest.raises(VibflowError) as caught:
        grants.grant("recovery_apply")
    assert "Move it out of .vibflow" in caught.value.render()
    assert rows == []


def test_the_gate_takes_the_servers_flag_never_the_callers() -> None:
    """Allowed tools pass; denied ones need a grant; recovery_apply needs a grant and
    the flag the server was started with; the refusal names the command to run."""

    def granted(tool: str, client: str) -> str | None:
        return "grt_" + "1" * 32 if (tool, client) == ("recovery_apply", "agent") else None

    assert decide("runs_list", "agent", granted=granted, apply_flag_on=False).allowed
    denied = decide("memory_write", "agent", granted=granted, apply_flag_on=True)
    assert not denied.allowed
    assert "`vibflow grant memory_write --client agent`" in (denied.reason or "")
    off = decide("recovery_apply", "agent", granted=granted, apply_flag_on=False)
    assert not off.allowed
    assert off.grant_id
    assert "VIBFLOW_RECOVERY_APPLY=1" in (off.reason or "")
    on = decide("recovery_apply", "agent", granted=granted, apply_flag_on=True)
    assert (on.allowed, on.grant_id) == (True, "grt_" + "1" * 32)
    assert not decide("recovery_apply", "other", granted=granted, apply_flag_on=True).allowed
    assert set(CAPABILITIES) >= set(GRANTABLE)


def test_grants_file_is_the_documented_shape(tmp_path: Path) -> None:
    """grants.json: schema_version 1 and a list of grants with grt_ ids."""
    clock, rows = Clock(), []
    made = service(tmp_path, clock, rows).grant("handoff_export", client="cursor")
    body = json.loads((tmp_path / "grants.json").read_text(encoding="utf-8"))
    assert body["schema_version"] == 1
    assert body["grants"][0]["id"] == made.id
    assert body["grants"][0]["client"] == "cursor"
