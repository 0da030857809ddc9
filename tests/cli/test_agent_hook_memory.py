"""A closed turn's files reach memory off the agent's time: the turn-end hook returns
without memory's write path, a detached hand-over appends the files as observed
context once per turn, and the session's end hands over whatever is left before its
recap. Real hook processes on a real repository."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from vibflow_testing.agents import run_hook, touched_events, wait_for_touched
from vibflow_testing.repo import init_repo, write

pytestmark = pytest.mark.cli
#: The claude-code sample each hook event is driven with.
SAMPLE = {
    "turn-start": "turn-start",
    "tool-use": "edit",
    "turn-end": "turn-end",
    "session-end": "session-end",
}


def hook(root: Path, event: str, file: Path | None = None) -> str:
    """One hook call as Claude Code makes it; the modules it imported (-X importtime)."""
    proc = run_hook(
        root, "claude-code", SAMPLE[event], file or "", python_flags=("-X", "importtime")
    )
    return proc.stderr.decode("utf-8", "replace")


def test_turn_files_reach_memory_once_each_off_the_agents_time(tmp_path: Path) -> None:
    """Turn-end imports no memory code; the background hand-over appends each turn's
    files once (two turns, two events, in order), and session-end leaves none behind."""
    root = init_repo(tmp_path / "proj", {"a.py": "a\n", "b.py": "b\n"}, old=True)
    for n, name in enumerate(("a.py", "b.py"), 1):
        hook(root, "turn-start")
        write(root, name, f"edited {n}\n")
        hook(root, "tool-use", root / name)
        imported = hook(root, "turn-end")
        assert "vibflow.steps.memory" not in imported, "turn-end ran memory's write path"
        assert "pydantic" not in imported
        found = wait_for_touched(root, n)
    assert [e["detail"]["paths"] for e in found] == [["a.py"], ["b.py"]]
    assert {e["source"] for e in found} == {"agent.claude-code"}

    hook(root, "turn-start")
    write(root, "a.py", "edited 3\n")
    hook(root, "tool-use", root / "a.py")
    hook(root, "session-end")  # closes turn 3 and hands it over before returning
    assert [e["detail"]["paths"] for e in touched_events(root)] == [["a.py"], ["b.py"], ["a.py"]]
    time.sleep(1)  # a late background hand-over must find nothing left to add
    assert len(touched_events(root)) == 3
