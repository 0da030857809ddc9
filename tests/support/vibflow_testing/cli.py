"""The real CLI (plus the test kit's steps and guards) as a subprocess, and readers of
what it leaves behind: the journal, the side-effect log, ``--json`` output."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

from vibflow_testing import forkserver
from vibflow_testing.flows import read_effects

HARNESS = Path(__file__).resolve().parent / "harness.py"

Cli = Callable[..., subprocess.CompletedProcess[str]]


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VIBFLOW_")}
    env.update(extra)
    return env


def harness_cmd(*args: str) -> list[str]:
    """The command line that runs ``vibflow ARGS`` with the test kit registered."""
    return [sys.executable, str(HARNESS), *args]


def cli_runner(repo: Path) -> Cli:
    """Run the harness CLI as a subprocess, by default inside ``repo``."""

    def run(
        *args: str,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
        stdin: str | None = None,
    ) -> subprocess.CompletedProcess[str]:
        return run_harness(args, cwd=cwd or repo, env=env, stdin=stdin)

    return run


def run_harness(
    args: tuple[str, ...],
    *,
    cwd: Path,
    env: dict[str, str] | None = None,
    stdin: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """``vibflow ARGS`` with the test kit registered, as its own process: forked from the
    kit's fork server (``forkserver``), or a fresh interpreter when that is switched off.
    ``stdin=None`` reads from the null device (never a terminal, so nothing prompts)."""
    full_env = clean_env(**(env or {}))
    if forkserver.enabled():
        return forkserver.run(list(args), cwd=cwd, env=full_env, stdin=stdin, timeout=120)
    return subprocess.run(
        harness_cmd(*args),
        cwd=cwd,
        env=full_env,
        stdin=subprocess.DEVNULL if stdin is None else None,
        capture_output=True,
        text=True,
        input=stdin,
        timeout=120,
        check=False,
    )


def vf(
    root: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """The harness CLI as a real process in ``root`` (stdin never a TTY, so nothing prompts)."""
    return run_harness(args, cwd=root, env=env)


def vf_bounded(root: Path, *args: str, max_bytes: int) -> subprocess.CompletedProcess[str]:
    """The CLI as a real process under a ``max_bytes`` address-space limit: a reader
    that follows /dev/zero fails fast instead of taking the machine's memory, and a
    hang fails the test through the timeout instead of stalling the suite."""
    import resource

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (max_bytes, max_bytes))

    return subprocess.run(
        harness_cmd(*args),
        cwd=root,
        env=clean_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        preexec_fn=cap,
    )


def vf_many(root: Path, *commands: tuple[str, ...]) -> list[subprocess.CompletedProcess[str]]:
    """Start every harness command as its own process before waiting for any of them."""
    procs = [
        subprocess.Popen(
            harness_cmd(*cmd),
            cwd=root,
            env=clean_env(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for cmd in commands
    ]
    out = []
    for cmd, proc in zip(commands, procs, strict=True):
        stdout, stderr = proc.communicate(timeout=120)
        out.append(subprocess.CompletedProcess(list(cmd), proc.returncode, stdout, stderr))
    return out


def query(root: Path, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Read the real journal directly (never creates the file)."""
    path = root / ".vibflow" / "runs.db"
    with closing(sqlite3.connect(f"file:{path}?mode=rw", uri=True, timeout=30)) as db:
        return db.execute(sql, args).fetchall()


def effects_of(root: Path, run_id: str) -> Counter[str]:
    """How many times each side effect of the test kit's steps ran for ``run_id``."""
    out: Counter[str] = Counter()
    for line in read_effects(root):
        parts = line.split()
        if parts[0] == run_id:
            out[" ".join(parts[1:-1])] += 1
    return out


def as_json(proc: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    try:
        data = json.loads(proc.stdout)
    except ValueError as exc:
        raise AssertionError(f"not JSON: {proc.stdout!r} / {proc.stderr!r}") from exc
    assert isinstance(data, dict)
    return data
