"""``vibflow mcp serve`` latency, through the official MCP client over stdio.

The repository is the one ``recover_speed.py`` builds (default 20,000 files in
400 folders, 2.5 % modified, 0.5 % untracked, memory with an intent and
explicit files). One checkpoint is taken so the preview has a safe point.

In the same run:

* **git status** — ``git status --porcelain`` (the floor a preview stands on);
* **python start** — ``python -c pass`` (the interpreter alone, for the start);
* **SDK import** — ``python -c "import mcp.server.lowlevel, mcp.server.stdio"``:
  the floor the official SDK puts under any server's start;
* **start → first answer** — spawn ``vibflow mcp serve``, connect the SDK's
  ``Client`` (handshake), call ``memory_summary_read``: wall time until its
  answer, each from a fresh process (median of ``--starts``);
* **recovery_preview (warm)** — the same call again and again on one
  long-lived server (p50 and p90 of ``--reps`` after two discarded warm-ups);
* **memory_summary_read (warm)** — likewise (p50 of ``--reps * 5``).

Goals (issue 15): warm ``recovery_preview`` p50 ≤ 1.5 x ``git status`` + 40 ms;
warm ``memory_summary_read`` p50 ≤ 10 ms; start → first answer ≤ 0.5 s.
Everything is measured from the client's side: a JSON-RPC round trip over the
pipes is part of what an agent waits for.

Usage (from the repository root, with the dev venv)::

    .venv/bin/python benchmarks/mcp_latency.py [--files 20000] [--reps 15] [--starts 5]
        [--out benchmarks/results/mcp.md]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio
from benchkit import GIT_ENV, REPO, VIBFLOW, compile_installed, default_dirs, git
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from recover_speed import Layout, build, median_s, settle

GOAL_FACTOR, GOAL_SLACK_MS = 1.5, 40.0
GOAL_SUMMARY_MS = 10.0
GOAL_START_S = 0.5


def params(root: Path) -> StdioServerParameters:
    env = {k: v for k, v in GIT_ENV.items() if not k.startswith("VIBFLOW_")}
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "vibflow", "mcp", "serve", "--client", "bench", "--rescan-rate", "0"],
        cwd=str(root),
        env=env,
    )


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _children_cpu_s() -> float:
    """CPU (user + system) spent so far by this process's live children (the server)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for task in Path("/proc/self/task").iterdir():
        for pid in (task / "children").read_text().split():
            with contextlib.suppress(OSError):
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / tick
    return total


def cpu_s(argv: list[str], cwd: Path, reps: int) -> float:
    """Median CPU (user + system) of a command, from the children's rusage."""
    samples = []
    for _ in range(reps):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(argv, cwd=cwd, env=GIT_ENV, check=True, capture_output=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        samples.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(samples)


async def one_start(root: Path) -> dict[str, float]:
    """Spawn → handshake → first answer of a fresh server (seconds), and the CPU the
    server had used by its first answer."""
    with Path(os.devnull).open("w", encoding="utf-8") as errlog:
        t0 = time.perf_counter()
        async with Client(stdio_client(params(root), errlog=errlog)) as client:
            t1 = time.perf_counter()
            result = await client.call_tool("memory_summary_read", {})
            t2 = time.perf_counter()
            cpu = _children_cpu_s()
            assert not result.is_error, result
    return {"handshake_s": t1 - t0, "first_answer_s": t2 - t0, "server_cpu_s": cpu}


async def warm(root: Path, reps: int) -> dict[str, list[float]]:
    """Milliseconds per call on one long-lived server, after two warm-ups each."""
    out: dict[str, list[float]] = {"recovery_preview": [], "memory_summary_read": []}
    with Path(os.devnull).open("w", encoding="utf-8") as errlog:
        async with Client(stdio_client(params(root), errlog=errlog)) as client:
            for tool, n in (("recovery_preview", reps), ("memory_summary_read", reps * 5)):
                for i in range(n + 2):
                    t0 = time.perf_counter()
                    result = await client.call_tool(tool, {})
                    ms = (time.perf_counter() - t0) * 1000
                    assert not result.is_error, result.structured_content
                    if i >= 2:
                        out[tool].append(ms)
    return out


def measure(root: Path, reps: int, starts: int) -> dict[str, Any]:
    load_before = os.getloadavg()[0]
    git_status_s = median_s(["git", "status", "--porcelain"], root, reps)
    python_s = median_s([sys.executable, "-c", "pass"], root, reps)
    sdk_s = median_s(
        [sys.executable, "-c", "import mcp.server.lowlevel, mcp.server.stdio"], root, reps
    )
    sdk_cpu = cpu_s(
        [sys.executable, "-c", "import mcp.server.lowlevel, mcp.server.stdio"], root, reps
    )
    starts_s = [anyio.run(one_start, root) for _ in range(starts + 1)][1:]
    calls = anyio.run(warm, root, reps)
    preview, summary = calls["recovery_preview"], calls["memory_summary_read"]
    git_ms = git_status_s * 1000
    preview_goal = GOAL_FACTOR * git_ms + GOAL_SLACK_MS
    first = statistics.median(s["first_answer_s"] for s in starts_s)
    return {
        "git_status_ms": round(git_ms, 1),
        "python_start_ms": round(python_s * 1000, 1),
        "sdk_import_ms": round(sdk_s * 1000, 1),
        "handshake_s": round(statistics.median(s["handshake_s"] for s in starts_s), 3),
        "first_answer_s": round(first, 3),
        # CPU, robust to a shared machine: the server's by its first answer, and the
        # SDK import's alone; their difference is vibflow's own start (and the serving).
        "server_cpu_at_first_answer_s": round(
            statistics.median(s["server_cpu_s"] for s in starts_s), 3
        ),
        "sdk_import_cpu_s": round(sdk_cpu, 3),
        "preview_p50_ms": round(pct(preview, 0.5), 1),
        "preview_p90_ms": round(pct(preview, 0.9), 1),
        "preview_goal_ms": round(preview_goal, 1),
        "summary_p50_ms": round(pct(summary, 0.5), 2),
        "summary_p90_ms": round(pct(summary, 0.9), 2),
        "load_avg_1min": [round(load_before, 1), round(os.getloadavg()[0], 1)],
        "goals": {
            "recovery_preview": pct(preview, 0.5) <= preview_goal,
            "memory_summary_read": pct(summary, 0.5) <= GOAL_SUMMARY_MS,
            "start_to_first_answer": first <= GOAL_START_S,
        },
    }


def report(found: dict[str, Any], files: int, reps: int, starts: int) -> str:
    commit = git(REPO, "rev-parse", "--short", "HEAD")
    today = datetime.now(UTC).strftime("%Y-%m-%d")
    yes = {True: "met", False: "**not met**"}
    g = found["goals"]
    return f"""# MCP server latency (`benchmarks/mcp_latency.py`)

Command: `.venv/bin/python benchmarks/mcp_latency.py --files {files} --reps {reps} \
--starts {starts}` — {today}, commit {commit}, Python {platform.python_version()}, \
{os.cpu_count()} cores, 1-minute load average {found["load_avg_1min"][0]} at the start and \
{found["load_avg_1min"][1]} at the end (the machine was shared with other work).

Repository: {files:,} files in {default_dirs(files)} folders, 2.5 % modified, 0.5 % \
untracked, memory with an intent and explicit files, one checkpoint. Every time is taken \
from the official MCP client's side over stdio (a JSON-RPC round trip included).

| measurement | value | baseline (same run) | goal | |
|---|---|---|---|---|
| warm `recovery_preview` p50 (p90) | {found["preview_p50_ms"]} ms \
({found["preview_p90_ms"]} ms) | `git status --porcelain` {found["git_status_ms"]} ms | \
≤ 1.5 x git status + 40 ms = {found["preview_goal_ms"]} ms | {yes[g["recovery_preview"]]} |
| warm `memory_summary_read` p50 (p90) | {found["summary_p50_ms"]} ms \
({found["summary_p90_ms"]} ms) | — | ≤ 10 ms | {yes[g["memory_summary_read"]]} |
| start → first answer (median of {starts} fresh servers) | {found["first_answer_s"]} s \
(handshake done at {found["handshake_s"]} s) | `python -c pass` \
{found["python_start_ms"]} ms; importing the SDK alone {found["sdk_import_ms"]} ms | ≤ 0.5 s \
| {yes[g["start_to_first_answer"]]} |
| CPU by the first answer (median) | server {found["server_cpu_at_first_answer_s"]} s \
| the SDK import alone {found["sdk_import_cpu_s"]} s | — | |

Raw: `{json.dumps(found)}`
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=20_000)
    parser.add_argument("--reps", type=int, default=15)
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--out", type=Path, default=None, help="Write the Markdown report here.")
    args = parser.parse_args()
    compile_installed()
    base = Path(tempfile.mkdtemp(prefix="vibflow-mcp-bench-"))
    try:
        root = base / "repo"
        root.mkdir()
        build(root, Layout(args.files, default_dirs(args.files)))
        subprocess.run(
            [*VIBFLOW, "checkpoint", "create", "-m", "bench", "--json"],
            cwd=root,
            env=GIT_ENV,
            check=True,
            capture_output=True,
        )
        settle(root)
        found = measure(root, args.reps, args.starts)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    text = report(found, args.files, args.reps, args.starts)
    print(text)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
