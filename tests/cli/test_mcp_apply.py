"""recovery_apply over MCP: the recover flow itself, gated by a grant *and* the
server's VIBFLOW_RECOVERY_APPLY — revoked or expired grants deny again, a caller's
``feature_enabled`` is never a gate, and a second apply at once is told busy."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from vibflow_testing.apply import APPLY, DRIFT, agent_rewrote, drifted, run_rows, tree_state
from vibflow_testing.cli import vf
from vibflow_testing.mcp import CLIENT, call, mcp_rows, with_servers


def grant(repo: Path, *args: str) -> str:
    proc = vf(repo, "grant", "recovery_apply", *args, "--json")
    assert proc.returncode == 0, proc.stderr
    return str(json.loads(proc.stdout)["id"])


async def restore_level3(client: Client) -> tuple[dict[str, Any], tuple[bool, Any, str]]:
    """Start a recover run, then choose its level-3 option and confirm in one call."""
    failed, run, _ = await call(client, "recovery_apply", {})
    assert not failed, run
    assert (run["status"], run["state"]) == ("waiting", "choose"), run
    option = next(o for o in run["plan"]["options"] if o["level"] == 3)
    safe = run["plan"]["safe_checkpoint_candidate"]["checkpoint_id"]
    step = {"run_id": run["run_id"], "option_id": option["option_id"]}
    answer = await call(client, "recovery_apply", {**step, "confirmation": f"APPLY {safe}"})
    return run, answer


def test_a_grant_applies_only_with_the_flag_on(repo: Path) -> None:
    """With a grant but the flag off, recovery_apply is refused naming the flag and
    nothing changes; with both, the same call restores the drifted files through the
    flow (sandwich, confirmation, lease), and both the answer's audit row and the
    flow's transition row carry the grant's id."""
    drifted(repo)
    grant_id = grant(repo, "--client", CLIENT, "--reason", "let the agent undo its drift")
    before = tree_state(repo)

    async def off(client: Client) -> tuple[bool, Any, str]:
        return await call(client, "recovery_apply", {})

    failed, data, _ = with_servers(repo, off)
    assert failed
    assert data["error"]["kind"] == "permission_denied"
    assert "VIBFLOW_RECOVERY_APPLY=1" in data["error"]["message"]
    assert tree_state(repo) == before

    async def on(client: Client) -> tuple[dict[str, Any], tuple[bool, Any, str]]:
        return await restore_level3(client)

    run, (failed, done, _) = with_servers(repo, on, env=APPLY)
    assert not failed, done
    assert (done["status"], done["state"]) == ("done", "result"), done
    assert done["applied"]["changed_files"] >= len(DRIFT)
    for rel in DRIFT:
        assert (repo / rel).read_text(encoding="utf-8") != DRIFT[rel], rel
    rows = [r for r in mcp_rows(repo) if r["event"] == "mcp.recovery_apply"]
    assert [r["result"] for r in rows] == ["refused", "waiting", "ok"]
    assert all(r["capability_grant_id"] == grant_id for r in rows)
    assert rows[-1]["run_id"] == run["run_id"]
    into_apply = [r for r in run_rows(repo, run["run_id"]) if r.get("to_state") == "apply"]
    assert into_apply[0]["capability_grant_id"] == grant_id
    assert into_apply[0]["tool"] == CLIENT
    assert vf(repo, "audit", "verify").returncode == 0


def test_feature_enabled_in_a_request_is_never_a_gate(repo: Path) -> None:
    """A caller that claims feature_enabled (true or false) gets neither more nor less:
    with a grant and the flag off it is still refused, nothing written; with the flag
    on, claiming false does not stop the server's own flag from deciding."""
    drifted(repo)
    grant(repo)  # any client
    before = tree_state(repo)

    async def claims(client: Client) -> list[tuple[bool, Any, str]]:
        return [
            await call(client, "recovery_apply", {"feature_enabled": True}),
            await call(client, "recovery_apply", {"feature_enabled": "1"}),
        ]

    for failed, data, _ in with_servers(repo, claims):
        assert failed
        assert data["error"]["kind"] == "schema"
    assert tree_state(repo) == before
    assert json.loads(vf(repo, "runs", "list", "--json").stdout)["runs"] == []

    async def honest(client: Client) -> tuple[bool, Any, str]:
        return await call(client, "recovery_apply", {})

    failed, data, _ = with_servers(repo, honest)  # the flag is off in the server
    assert failed
    assert "VIBFLOW_RECOVERY_APPLY" in data["error"]["message"]
    failed, data, _ = with_servers(repo, honest, env=APPLY)
    assert not failed
    assert data["state"] == "choose"


def test_revoked_and_expired_grants_deny_again(repo: Path) -> None:
    """After `vibflow revoke`, and after a grant's expiry, recovery_apply is refused
    again with the grant command; other clients never had it."""
    drifted(repo)
    grant_id = grant(repo, "--client", CLIENT)

    async def once(client: Client) -> tuple[bool, Any, str]:
        return await call(client, "recovery_apply", {})

    assert with_servers(repo, once, env=APPLY)[0] is False
    assert with_servers(repo, once, clients=("other-agent",), env=APPLY)[0] is True
    assert vf(repo, "revoke", grant_id).returncode == 0
    failed, data, _ = with_servers(repo, once, env=APPLY)
    assert failed
    assert data["error"]["kind"] == "permission_denied"

    grant(repo, "--client", CLIENT, "--expires", "1h")
    assert with_servers(repo, once, env=APPLY)[0] is False
    path = repo / ".vibflow" / "grants.json"
    body = json.loads(path.read_text(encoding="utf-8"))
    for g in body["grants"]:
        if g["revoked_at"] is None:
            g["expires_at"] = "2000-01-01T00:00:00.000000Z"
    path.write_text(json.dumps(body), encoding="utf-8")
    failed, data, _ = with_servers(repo, once, env=APPLY)
    assert failed
    assert f"vibflow grant recovery_apply --client {CLIENT}" in data["error"]["message"]
    listed = json.loads(vf(repo, "grants", "--all", "--json").stdout)["grants"]
    assert sorted(g["status"] for g in listed) == ["expired", "revoked"]


def test_a_corrupt_grants_file_is_kept_and_denies(repo: Path) -> None:
    """A grants.json that is not the grants format allows nothing; it is moved aside
    (kept, not overwritten) and the next grant starts a fresh file."""
    drifted(repo)
    path = repo / ".vibflow" / "grants.json"
    path.write_text('{"grants": [{"id": "grt_x", "tool": "recovery_apply"}]}', encoding="utf-8")

    async def once(client: Client) -> tuple[bool, Any, str]:
        return await call(client, "recovery_apply", {})

    failed, data, _ = with_servers(repo, once, env=APPLY)
    assert failed
    assert data["error"]["kind"] == "permission_denied"
    kept = list(path.parent.glob("grants.json.corrupt-*"))
    assert len(kept) == 1
    assert "grt_x" in kept[0].read_text(encoding="utf-8")
    grant(repo, "--client", CLIENT)
    assert with_servers(repo, once, env=APPLY)[0] is False
    assert len(list(path.parent.glob("grants.json.corrupt-*"))) == 1


def test_a_second_apply_at_once_is_busy_with_operation_and_eta(repo: Path) -> None:
    """Two clients (two servers) confirm restores at the same moment: one restores,
    the other is told busy with the holder's operation id and an ETA, and its run
    waits blocked at the confirmation; reads still answer while the restore runs."""
    # Enough files that one restore is still running when the other is confirmed.
    agent_rewrote(repo, [f"pkg/m{i}/f{j}.py" for i in range(30) for j in range(40)])
    grant(repo)

    async def pair(a: Client, b: Client) -> list[tuple[bool, Any, str]]:
        staged = []
        for client in (a, b):
            failed, run, _ = await call(client, "recovery_apply", {})
            assert not failed, run
            option = max(run["plan"]["options"], key=lambda o: o["level"])
            failed, at, _ = await call(
                client,
                "recovery_apply",
                {"run_id": run["run_id"], "option_id": option["option_id"]},
            )
            assert not failed, at
            assert at["state"] == "confirm", at
            staged.append((client, at))
        answers: list[tuple[bool, Any, str]] = [(False, None, "")] * 2
        reads: list[bool] = []

        async def confirm(i: int) -> None:
            client, at = staged[i]
            answers[i] = await call(
                client,
                "recovery_apply",
                {"run_id": at["run_id"], "confirmation": at["confirmation_expected"]},
            )
            reads.append((await call(client, "runs_list", {}))[0])

        async with anyio.create_task_group() as tg:
            tg.start_soon(confirm, 0)
            tg.start_soon(confirm, 1)
        assert reads == [False, False]
        return answers

    answers = with_servers(repo, pair, clients=("agent-a", "agent-b"), env=APPLY)
    outcomes = sorted((a[0], (a[1].get("error") or {}).get("kind", "")) for a in answers)
    assert outcomes == [(False, ""), (True, "busy")], answers
    busy = next(a[1]["error"] for a in answers if a[0])
    assert busy["code"] == "E202"
    assert busy["operation_id"].startswith("op_")
    # An ETA only from the running restore's own rate; before it has one, none at all.
    assert busy["eta_seconds"] > 0 if busy["eta_known"] else busy["eta_seconds"] is None
    assert busy["run"]["status"] == "blocked"
    assert busy["run"]["state"] == "confirm"
    results = sorted(r["result"] for r in mcp_rows(repo) if r["event"] == "mcp.recovery_apply")
    assert results.count("busy") == 1
