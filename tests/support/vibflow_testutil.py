"""Helpers shared by tests (conftest.py is not importable under importlib mode)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

SUPPORT = Path(__file__).parent
TESTS = SUPPORT.parent
FLOWS = TESTS / "flows"
HARNESS = SUPPORT / "vibflow_harness.py"

Cli = Callable[..., subprocess.CompletedProcess[str]]


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True
    ).stdout


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VIBFLOW_")}
    env.update(extra)
    return env


def harness_cmd(*args: str) -> list[str]:
    return [sys.executable, str(HARNESS), *args]


def vf(
    root: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """The harness CLI as a real process in ``root`` (stdin never a TTY, so nothing prompts)."""
    return subprocess.run(
        harness_cmd(*args),
        cwd=root,
        env=clean_env(**(env or {})),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def as_json(proc: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    try:
        data = json.loads(proc.stdout)
    except ValueError as exc:
        raise AssertionError(f"not JSON: {proc.stdout!r} / {proc.stderr!r}") from exc
    assert isinstance(data, dict)
    return data
