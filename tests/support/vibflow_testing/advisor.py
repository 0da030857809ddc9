"""The read-only recovery advisor on real repositories, through the real CLI: the app the
scenarios change, memory written as a ``.vibflow/memory.json`` file where a test needs
a shape the CLI cannot make (an old timestamp, observed patch targets, a directory
entry), and readers of the ``recover --json`` plan."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from vibflow_testing.cli import Cli, as_json
from vibflow_testing.git import git
from vibflow_testing.repo import write

LOGIN = "".join(f"def field_{i}():\n    return '<input name=f{i}>'\n\n\n" for i in range(8))
APP = {
    "src/ui/login.py": LOGIN,
    "src/ui/header.py": "def header():\n    return '<h1>'\n",
    "src/services/auth.py": "def check(u, p):\n    return len(p) >= 8\n",
    "lib/util.py": "def clamp(x):\n    return max(0, x)\n",
    "config.yaml": "shop:\n  currency: EUR\n",
    "tests/test_login.py": "def test_form():\n    assert True\n",
}


def commit_app(root: Path, files: dict[str, str | bytes] | None = None) -> None:
    """Commit the app (``.vibflow/`` ignored, as vibflow's own .gitignore makes it)."""
    write(root, ".vibflow/.gitignore", "*\n")
    for rel, text in (files or APP).items():
        write(root, rel, text)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "app")


def iso(when: datetime) -> str:
    return when.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def set_memory(
    root: Path,
    *,
    intent: str | None = "Make the login form accessible",
    explicit: dict[str, str] | None = None,
    patches: list[str] | None = None,
    updated: datetime | None = None,
) -> None:
    """Write ``.vibflow/memory.json`` (schema v1) directly."""
    stamp = iso(updated or datetime.now(UTC))
    data: dict[str, Any] = {"schema_version": 1}
    if intent is not None:
        data["active_intent"] = {"text": intent, "last_updated": stamp, "updated_by": "cli"}
    data["relevant_files"] = [
        {"path": p, "why": why, "source": "explicit", "last_updated": stamp, "updated_by": "cli"}
        for p, why in (explicit or {}).items()
    ]
    if patches:
        data["observed_context"] = [
            {"kind": "patch_apply", "at": stamp, "source": "hook", "detail": {"paths": patches}}
        ]
    target = root / ".vibflow" / "memory.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def recover(cli: Cli, *args: str) -> dict[str, Any]:
    proc = cli("recover", *args, "--json")
    assert proc.returncode == 0, proc.stderr
    return as_json(proc)


def zone_of(plan: dict[str, Any]) -> dict[str, str]:
    return {z["path"]: z["source"] for z in plan["intent_zone"]}


def drift_of(plan: dict[str, Any]) -> set[str]:
    return {d["path"] for d in plan["drift_candidates"]}


def option(plan: dict[str, Any], level: int) -> dict[str, Any] | None:
    return next((o for o in plan["options"] if o["level"] == level), None)


def checkpoint(cli: Cli) -> str:
    proc = cli("checkpoint", "create", "-m", "test", "--json")
    assert proc.returncode == 0, proc.stderr
    return str(as_json(proc)["checkpoint_id"])


def settle() -> None:
    """Let the clock move on so a checkpoint and an edit are strictly ordered."""
    time.sleep(0.05)
