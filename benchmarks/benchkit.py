"""What the benchmark scripts share: git with a fixed identity, the vibflow
command, a wall clock, and the folder count of the generated repositories."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

VIBFLOW = [sys.executable, "-m", "vibflow"]
GIT_ENV = {
    **os.environ,
    "LC_ALL": "C",
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
}


REPO = Path(__file__).resolve().parents[1]

#: vibflow's environment for restores: git's fixed identity, no inherited
#: VIBFLOW_* settings, and the restore switch on.
APPLY_ENV = {
    **{k: v for k, v in GIT_ENV.items() if not k.startswith("VIBFLOW_")},
    "VIBFLOW_RECOVERY_APPLY": "1",
}


def module_bytes(i: int, tag: str) -> bytes:
    """A ~1 KB Python module, the ``i``-th of a generated repository; ``tag`` marks
    which version of it this is (original, rewritten by an agent...)."""
    body = "".join(f"    value_{j} = {i * 31 + j}  # {tag}\n" for j in range(24))
    return f"# file {i} ({tag})\nclass Mod{i}:\n{body}".encode()


def compile_installed(python: str | Path = sys.executable, root: Path = REPO) -> None:
    """Give vibflow's modules valid bytecode caches, as ``pip install`` does.

    A process started with PYTHONDONTWRITEBYTECODE set (some sandboxes and CI
    images set it) never writes a ``.pyc``, so with an editable install every
    vibflow command would compile its modules from source again — ~30 ms of a
    user's run that an installed copy never pays. Compiling once up front makes
    every measured command read the caches, whatever the environment says.
    ``python`` and ``root`` name another interpreter and checkout (compare_refs.py).
    """
    subprocess.run(
        [str(python), "-m", "compileall", "-q", "-j", "0"]
        + [str(root / d) for d in ("vibflow", "engine", "steps")],
        check=True,
        stdout=subprocess.DEVNULL,
    )


def git(root: Path, *args: str, env: dict[str, str] | None = None) -> str:
    """``git -C root ARGS``; its output, stripped. A failure ends the benchmark."""
    proc = subprocess.run(
        ["git", "-C", str(root), *args],
        capture_output=True,
        text=True,
        check=False,
        env={**GIT_ENV, **(env or {})},
    )
    if proc.returncode != 0:
        raise SystemExit(f"git {' '.join(args)} failed ({proc.returncode}): {proc.stderr.strip()}")
    return proc.stdout.strip()


def measured(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float, int, str]:
    """One process: wall seconds, CPU seconds (it and its children, from ``wait4``),
    exit status and stderr."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime, code, err.decode("utf-8", "replace")


def measured_ok(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one process that must succeed (a failure ends the run)."""
    wall, cpu, code, err = measured(argv, cwd, env)
    if code != 0:
        raise SystemExit(f"{' '.join(argv)} failed in {cwd}: {err[-400:]}")
    return wall, cpu


def timed(fn: Callable[[], object]) -> float:
    """Wall time of ``fn()`` in milliseconds."""
    t0 = time.perf_counter_ns()
    fn()
    return (time.perf_counter_ns() - t0) / 1e6


def default_dirs(files: int) -> int:
    """400 folders for 20k files (50 each), 1,000 for 100k (100 each)."""
    return max(1, files // 50 if files <= 20_000 else files // 100)
