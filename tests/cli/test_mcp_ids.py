"""The ids an MCP answer gives an agent are usable: a checkpoint's commit, tree and
base HEAD, a restore's ``from_commit`` and the recap headline naming it come back as
git wrote them (not ``[REDACTED…]``), and the agent can pass them on — while a
40-hex-digit secret planted in memory, even beside a real commit id, never leaves
(P0 gate 3)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from mcp import Client
from vibflow_testing.apply import APP, APPLY, commit_all
from vibflow_testing.cli import vf
from vibflow_testing.git import git
from vibflow_testing.mcp import call, mcp_rows, with_servers
from vibflow_testing.repo import write

#: Shaped like a commit id, names nothing in the repository: a secret.
HEX_SECRET = hashlib.sha1(b"staging db password", usedforsecurity=False).hexdigest()


def head(repo: Path, rev: str = "HEAD") -> str:
    return git(repo, "rev-parse", rev).strip()


def test_a_checkpoints_git_ids_come_back_as_git_wrote_them(repo: Path) -> None:
    """checkpoint_create answers its commit, tree and base HEAD in full, equal to
    git's own, and unmasked (no secret was counted for them)."""

    async def once(client: Client) -> tuple[bool, Any, str]:
        return await call(client, "checkpoint_create", {"message": "before the refactor"})

    failed, data, text = with_servers(repo, once)
    assert not failed, data
    assert "REDACTED" not in text
    assert data["base_head"] == head(repo)
    ref = f"refs/vibflow/checkpoints/{data['checkpoint_id']}"
    assert data["commit"] == head(repo, ref)
    assert data["tree"] == head(repo, ref + "^{tree}")
    (row,) = mcp_rows(repo)
    assert row["redaction"]["secret_hits"] == 0


def test_a_restore_from_the_last_commit_names_it_and_the_recap_too(repo: Path) -> None:
    """With no checkpoint before the drift, the restore comes from the last commit:
    its full id is in the choice's and the result's ``restore.from_commit`` and in
    the recap headline, and the run's recap read back names it as well."""
    for rel, body in APP.items():
        write(repo, rel, body)
    commit_all(repo)
    write(repo, "config.yaml", "shop:\n  currency: USD\n")
    write(repo, "src/services/auth.py", "def check(user, password):\n    return True\n")
    assert vf(repo, "grant", "recovery_apply").returncode == 0
    commit = head(repo)

    async def restore(client: Client) -> list[Any]:
        _, run, _ = await call(client, "recovery_apply", {})
        option = next(o for o in run["plan"]["options"] if o["level"] == 3 or o["level"] == 4)
        args = {"run_id": run["run_id"], "option_id": option["option_id"]}
        failed, at, _ = await call(client, "recovery_apply", args)
        assert not failed, at
        confirm = {"run_id": run["run_id"], "confirmation": at["confirmation_expected"]}
        failed, done, _ = await call(client, "recovery_apply", confirm)
        assert not failed, done
        runs = (await call(client, "runs_list", {}))[1]["runs"]
        recap_id = next(r["recap_id"] for r in runs if r["run_id"] == run["run_id"])
        recap = (await call(client, "recap_read", {"recap_id": recap_id}))[1]
        return [at, done, recap]

    at, done, recap = with_servers(repo, restore, env=APPLY)
    assert at["restore"]["from_commit"] == commit, at["restore"]
    assert done["restore"]["from_commit"] == commit
    assert commit in done["recap"]["headline"]
    assert commit in recap["recap"]["headline"]
    assert "REDACTED" not in json.dumps([at, done, recap])


def test_a_hex_secret_beside_a_commit_id_in_memory_never_leaves(repo: Path) -> None:
    """A decision naming the real HEAD commit and a 40-hex secret (planted past the
    write gate): every memory answer shows the commit id and never the secret, and
    the answer's audit row counts the one masked secret."""
    commit = head(repo)
    assert vf(repo, "memory", "decide", "Keep the cache", "--yes").returncode == 0
    path = repo / ".vibflow" / "memory.json"
    state = json.loads(path.read_text(encoding="utf-8"))
    state["decisions"][0]["text"] = f"fixed in {commit}; staging key {HEX_SECRET}"
    path.write_text(json.dumps(state), encoding="utf-8")
    assert vf(repo, "grant", "memory_full_read").returncode == 0

    async def reads(client: Client) -> list[tuple[bool, Any, str]]:
        return [
            await call(client, "memory_summary_read", {}),
            await call(client, "memory_full_read", {}),
            await call(client, "handoff", {}),
        ]

    answers = with_servers(repo, reads, rescan=1.0)
    for failed, _data, text in answers:
        assert not failed, text
        assert HEX_SECRET not in text
    for _failed, _data, text in answers[:2]:
        assert commit in text
    rows = mcp_rows(repo)
    memory_rows = [
        r for r in rows if r["event"] in ("mcp.memory_summary_read", "mcp.memory_full_read")
    ]
    assert all(r["redaction"]["secret_hits"] >= 1 for r in memory_rows), memory_rows
    rescans = [r["result"] for r in rows if r["event"] == "mcp.rescan"]
    assert rescans, "the memory answers were re-scanned"
    assert set(rescans) == {"ok"}  # the commit id the answers hold is no miss
