"""The busy answer of a second recovery_apply tells the truth about the running
restore: its operation id as it is (usable, not redacted), its files done of total,
and an ETA from its own rate — or, before it has reported a rate, that the ETA is
not known (never the lease's 60 s passed off as one). Two real clients, a restore
slowed by the engine's VIBFLOW_SLOW_ITEM seam."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from vibflow_testing.apply import APPLY, agent_rewrote
from vibflow_testing.cli import clean_env, vf
from vibflow_testing.mcp import call, with_servers

FILES = [f"pkg/m{i // 50}/f{i:03d}.py" for i in range(300)]  # three batches of 128 and more
SLOW = {"VIBFLOW_SLOW_ITEM": "0.02"}  # A's server only: about 6 s of restore
OPERATION = re.compile(r"op_[0-9a-f]{32}")


async def staged(client: Client) -> dict[str, Any]:
    """A recover run of ``client`` chosen up to its confirmation (the widest option)."""
    failed, run, _ = await call(client, "recovery_apply", {})
    assert not failed, run
    option = max(run["plan"]["options"], key=lambda o: o["level"])
    args = {"run_id": run["run_id"], "option_id": option["option_id"]}
    failed, at, _ = await call(client, "recovery_apply", args)
    assert not failed, at
    assert at["state"] == "confirm", at
    return dict(at)


async def confirm(client: Client, at: dict[str, Any]) -> tuple[bool, Any, str]:
    args = {"run_id": at["run_id"], "confirmation": at["confirmation_expected"]}
    return await call(client, "recovery_apply", args)


def progress(repo: Path) -> dict[str, Any] | None:
    try:
        found = json.loads((repo / ".vibflow/recovery/progress.json").read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def test_busy_mid_restore_gives_the_restores_progress_and_eta(repo: Path) -> None:
    """B confirms while A's slowed restore is part-way: B is told busy with A's
    operation id (readable), A's files done of total and an ETA from A's rate; A's
    restore then finishes."""
    agent_rewrote(repo, FILES)
    assert vf(repo, "grant", "recovery_apply").returncode == 0

    async def pair(a: Client, b: Client) -> tuple[Any, Any]:
        at_a, at_b = await staged(a), await staged(b)
        answers: dict[str, Any] = {}

        async def first() -> None:
            answers["a"] = await confirm(a, at_a)

        async with anyio.create_task_group() as tg:
            tg.start_soon(first)
            # Wait for A's rate: a report after its first files, past the first one.
            with anyio.fail_after(60):
                while True:
                    seen = progress(repo)
                    if seen and seen["done"] > seen["first_done"] and seen["at"] != seen["started"]:
                        break
                    await anyio.sleep(0.05)
            answers["b"] = await confirm(b, at_b)
        return answers["a"], answers["b"]

    clients = ("agent-a", "agent-b")
    a, b = with_servers(repo, pair, clients=clients, env=APPLY, envs={"agent-a": SLOW})
    assert a[0] is False, a
    assert a[1]["status"] == "done", a
    failed, data, _ = b
    assert failed, {k: data.get(k) for k in ("status", "state", "applied", "blocked_reason")}
    busy = data["error"]
    assert busy["kind"] == "busy"
    assert busy["code"] == "E202"
    assert OPERATION.fullmatch(busy["operation_id"]), busy["operation_id"]
    assert busy["operation_id"] in busy["message"]
    assert busy["eta_known"] is True
    assert busy["eta_seconds"] > 0
    done, total = busy["progress"]["files_done"], busy["progress"]["files_total"]
    assert total >= len(FILES)
    assert 0 < done < total
    assert f"{done} of {total} files done" in busy["message"]
    # The message was written when the lock was refused, the field a moment later.
    assert re.search(r"try again in about \d+ s\b", busy["message"]), busy["message"]


# A live process that holds the project's lease and never reports progress.
HOLDER = r"""
import sys, time
from pathlib import Path
from vibflow.steps.recovery.lease import LeaseFile
folder = Path(sys.argv[1])
lease = LeaseFile(folder, ttl_seconds=60).acquire(sys.argv[2])
print("held", flush=True)
while not (folder / "stop").exists():
    time.sleep(0.02)
lease.release()
"""


def test_busy_before_any_progress_says_the_eta_is_unknown(repo: Path) -> None:
    """A restore that has reported nothing yet (a lease holder with no progress): the
    busy answer's ETA is null and said to be unknown; no number of seconds is given
    as an estimate."""
    agent_rewrote(repo, FILES[:3])
    assert vf(repo, "grant", "recovery_apply").returncode == 0
    folder = repo / ".vibflow" / "recovery"
    op = "op_" + "7" * 8 + "a" * 24
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(folder), op],
        env=clean_env(),
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "held"

        async def once(client: Client) -> tuple[bool, Any, str]:
            return await confirm(client, await staged(client))

        failed, data, _ = with_servers(repo, once, env=APPLY)
    finally:
        (folder / "stop").touch()
        holder.communicate(timeout=30)
    assert failed
    busy = data["error"]
    assert busy["operation_id"] == op
    assert busy["eta_seconds"] is None
    assert busy["eta_known"] is False
    assert busy["progress"] is None
    text = busy["message"] + " " + (busy["hint"] or "")
    assert "not known yet" in text
    assert not re.search(r"\d+ s\b", text), text
