"""A warm server's recovery_preview keeps what cannot change (git_memo) and nothing else:
through one long-lived server, each edit of the tree, the index, HEAD, the checkpoint
set or the policy gives the same plan as a cold `vibflow recover --preview --json`."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from vibflow_testing.apply import drifted
from vibflow_testing.cli import vf
from vibflow_testing.git import git
from vibflow_testing.mcp import call, with_servers
from vibflow_testing.repo import write

from vibflow.mcp.server import McpApp
from vibflow.steps.recovery.plans import page_form


def comparable(plan: dict[str, Any]) -> dict[str, Any]:
    """The plan without what is fresh in every plan by design (its random ids)."""
    plan = {k: v for k, v in plan.items() if k not in ("plan_id", "warnings")}
    plan["options"] = [{**o, "option_id": None} for o in plan["options"]]
    return plan


def cold(repo: Path) -> dict[str, Any]:
    """A fresh process's plan, as the server's first page of it (the default limit)."""
    proc = vf(repo, "recover", "--preview", "--json")
    assert proc.returncode == 0, proc.stderr
    return comparable(page_form(json.loads(proc.stdout), 0, 25))


def test_warm_previews_equal_cold_ones_across_every_kind_of_change(repo: Path) -> None:
    """Edits, deletions, a new file, staging, a commit, a new checkpoint, a policy change
    and back again: after each, the warm server's plan equals a fresh process's plan."""
    drifted(repo)
    edits: list[tuple[str, Callable[[], object]]] = [
        ("nothing changed", lambda: None),
        ("a file edited", lambda: write(repo, "src/ui/login.py", "def render():\n    pass\n")),
        ("a new file", lambda: write(repo, "src/services/new.py", "X = 1\n")),
        ("a file deleted", (repo / "config.yaml").unlink),
        ("the index", lambda: git(repo, "add", "src/services/new.py")),
        ("a checkpoint", lambda: vf(repo, "checkpoint", "create", "-m", "mid")),
        ("HEAD", lambda: git(repo, "commit", "-q", "-am", "agent work")),
        ("after the commit", lambda: write(repo, "bin/deploy.sh", "#!/bin/sh\necho again\n")),
        (
            "the policy",
            lambda: write(
                repo, ".vibflow/policy.yaml", "recovery:\n  categories:\n    ui: ['bin/**']\n"
            ),
        ),
        ("an old file restored", lambda: write(repo, "config.yaml", "shop:\n  currency: EUR\n")),
    ]

    async def body(client: Client) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
        seen = []
        for what, edit in edits:
            edit()
            failed, warm, _ = await call(client, "recovery_preview", {})
            assert not failed, (what, warm)
            seen.append((what, comparable(warm), cold(repo)))
        return seen

    for what, warm, fresh in with_servers(repo, body):
        assert warm == fresh, what


def test_a_warm_preview_is_recorded_for_feedback(repo: Path) -> None:
    """The plan a recovery_preview answered with is the one kept for `vibflow recover
    feedback` (written after the answer, finished before the server exits)."""
    drifted(repo)

    async def body(client: Client) -> list[str]:
        ids = []
        for _ in range(3):
            _, plan, _ = await call(client, "recovery_preview", {})
            ids.append(plan["plan_id"])
        return ids

    ids = with_servers(repo, body)
    kept = json.loads((repo / ".vibflow" / "recovery" / "last_preview.json").read_text())
    assert kept["plan"]["plan_id"] == ids[-1]
    label = kept["plan"]["drift_candidates"][0]
    path = label if isinstance(label, str) else label["path"]
    proc = vf(repo, "recover", "feedback", ids[-1], "--wrong", path)
    assert proc.returncode == 0, proc.stderr


def test_a_policy_rewritten_with_its_old_size_and_time_is_read_again(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server keeps the parsed policy by the file's state; a rewrite that puts
    size and modification time back (`cp -p`, `touch -r`) still moves its change
    time, and the next preview reads the new policy."""
    from vibflow.mcp import projects

    monkeypatch.setattr(projects, "RACY_SECONDS", 0.0)  # read back at once, on purpose
    write(repo, "bin/x.sh", "echo x\n")
    write(repo, "lib/y.py", "Y = 1\n")
    policy = repo / ".vibflow" / "policy.yaml"
    write(repo, ".vibflow/policy.yaml", "recovery:\n  categories:\n    ui: ['bin/**']\n")
    app = McpApp(repo, "probe", env=dict(os.environ), rescan_rate=0)

    def categories() -> dict[str, Any]:
        page = app.call("recovery_preview", {"limit": 200}).structured_content
        assert page is not None
        return {c["path"]: c.get("category") for c in page["changed"]}

    try:
        assert categories()["bin/x.sh"] == "ui"
        st = policy.stat()
        with policy.open("r+", encoding="utf-8") as fh:
            fh.write("recovery:\n  categories:\n    ui: ['lib/**']\n")
        os.utime(policy, ns=(st.st_atime_ns, st.st_mtime_ns))
        assert policy.stat().st_size == st.st_size
        seen = categories()
        assert (seen["bin/x.sh"], seen["lib/y.py"]) == (None, "ui")
    finally:
        app.close()
