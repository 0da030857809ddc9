"""On a terminal, a wait prompts for the event and its inputs."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import time
from pathlib import Path

from vibflow_testutil import clean_env, harness_cmd


def _drive(
    repo: Path, args: list[str], answers: list[tuple[str, str]], env: dict[str, str]
) -> tuple[int, str]:
    """Run the CLI on a pseudo-terminal, answering each prompt when it appears."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        harness_cmd(*args),
        cwd=repo,
        env=clean_env(**env),
        stdin=follower,
        stdout=follower,
        stderr=follower,
        close_fds=True,
    )
    os.close(follower)
    seen = b""
    pending = list(answers)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(leader, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        if pending and pending[0][0].encode() in seen:
            prompt, reply = pending.pop(0)
            seen = seen.replace(prompt.encode(), b"<" + prompt.encode() + b">", 1)
            os.write(leader, reply.encode() + b"\n")
        if proc.poll() is not None and not ready:
            break
    code = proc.wait(timeout=30)
    os.close(leader)
    return code, seen.decode(errors="replace")


def test_terminal_run_prompts_at_each_wait_until_done(repo: Path) -> None:
    """`vibflow run` on a TTY asks for the event and inputs at every wait."""
    code, text = _drive(
        repo,
        ["run", "guarded_apply"],
        [
            ("Choose", "restore"),
            ("option (str)", "opt_1"),
            ("paths (list)", ""),
            ("Choose", "2"),  # events at confirm: cancel, confirm
            ("confirmation (str)", "APPLY now"),
        ],
        env={"VIBFLOW_TEST_APPLY": "1"},
    )
    assert code == 0, text
    assert "finished at 'result'" in text


def test_empty_answer_stops_and_leaves_the_run_waiting(repo: Path) -> None:
    """An empty answer stops prompting; the run stays waiting with its command."""
    code, text = _drive(repo, ["run", "guarded_apply"], [("Choose", "")], env={})
    assert code == 0, text
    assert "is waiting at 'choose'" in text
    assert "vibflow step run_" in text
