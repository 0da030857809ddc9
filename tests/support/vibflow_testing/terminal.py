"""The real CLI on a pseudo-terminal, answering its prompts as a person would.

``drive`` starts the harness CLI with stdin, stdout and stderr on a fresh
pseudo-terminal (so ``isatty()`` is true for all three), waits for each
expected prompt text, types the answer (a string, or a function of what was
shown since the last answer) and returns the exit code and the transcript.
"""

from __future__ import annotations

import os
import pty
import select
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from vibflow_testing.cli import clean_env, harness_cmd

Reply = str | Callable[[str], str]


def drive(
    repo: Path, args: list[str], answers: Sequence[tuple[str, Reply]], env: dict[str, str]
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
    seen = b""  # what came since the last answered prompt
    transcript = b""
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
            transcript += chunk
        if pending and pending[0][0].encode() in seen:
            prompt, reply = pending.pop(0)
            text = reply(seen.decode(errors="replace")) if callable(reply) else reply
            # Consume everything up to this prompt, so a repeated prompt (two
            # "Choose" waits) is only answered when it really appears again.
            at = seen.index(prompt.encode()) + len(prompt)
            seen = seen[at:]
            os.write(leader, text.encode() + b"\n")
        if proc.poll() is not None and not ready:
            break
    try:
        code = proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=30)
        raise AssertionError(transcript.decode(errors="replace")) from None
    finally:
        os.close(leader)
    return code, transcript.decode(errors="replace")
