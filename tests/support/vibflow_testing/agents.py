"""Driving vibflow's agent hooks as the agents do: their recorded JSON payloads
(``tests/agents/payloads``) fed to ``vibflow agent hook AGENT EVENT`` on stdin, one
real process per call, as the installed settings run it."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from vibflow_testing import TESTS
from vibflow_testing.cli import clean_env

PAYLOADS = TESTS / "agents" / "payloads"

#: Each agent's sample file for each thing a test makes it do.
SAMPLES = {
    "claude-code": {
        "session-start": "SessionStart",
        "turn-start": "UserPromptSubmit",
        "write": "PostToolUse.Write",
        "edit": "PostToolUse.Edit",
        "turn-end": "Stop",
        "session-end": "SessionEnd",
    },
    "gemini": {
        "session-start": "SessionStart",
        "turn-start": "BeforeAgent",
        "write": "AfterTool.write_file",
        "edit": "AfterTool.replace",
        "turn-end": "AfterAgent",
        "session-end": "SessionEnd",
    },
}
#: The hook event a sample is sent to (the others are their own event).
EVENT_OF = {"write": "tool-use", "edit": "tool-use"}


def payload(agent: str, sample: str, root: Path, file: Path | str = "") -> bytes:
    """The agent's recorded payload for ``sample``, about ``root`` (and ``file``)."""
    text = (PAYLOADS / agent / f"{SAMPLES[agent][sample]}.json").read_text("utf-8")
    return text.replace("<ROOT>", str(root)).replace("<FILE>", str(file)).encode()


def run_hook(
    root: Path,
    agent: str,
    sample: str,
    file: Path | str = "",
    *,
    raw: bytes | None = None,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    python_flags: Sequence[str] = (),
    name_event: bool = True,
) -> subprocess.CompletedProcess[bytes]:
    """One hook call exactly as the installed settings make it (the lean entry); a
    hook must always exit 0."""
    # Without the event name the hook reads it from the payload (an older install's form).
    event = [EVENT_OF.get(sample, sample)] if name_event else []
    proc = subprocess.run(
        [sys.executable, *python_flags, "-m", "vibflow", "agent", "hook", agent, *event],
        input=payload(agent, sample, root, file) if raw is None else raw,
        cwd=cwd or root,
        env=env or clean_env(),
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return proc


def touched_events(root: Path) -> list[dict[str, Any]]:
    """The ``touched_files`` events memory holds (what the hooks handed over)."""
    try:
        data = json.loads((root / ".vibflow" / "memory.json").read_text("utf-8"))
    except (OSError, ValueError):
        return []
    return [e for e in data.get("observed_context", []) if e.get("kind") == "touched_files"]


def wait_for_touched(root: Path, count: int = 1) -> list[dict[str, Any]]:
    """Wait (≤ 60 s) until memory holds ``count`` touched_files events: the hand-over
    runs in the background, off the agent's time."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = touched_events(root)
        if len(found) >= count:
            return found
        time.sleep(0.1)
    raise AssertionError(f"memory got {len(touched_events(root))} touched_files, not {count}")
