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
* **recovery_preview (warm, one file touched)** — likewise, but before each
  call one of the modified files gets a new line (a different file each time,
  as an agent editing between two questions would): whatever the server keeps
  about that file no longer applies, and its diff, content rules and names are
  read again;
* **recovery_preview (warm, a new file each time)** — likewise, but before each
  call the agent adds a new file: the listings git gives move from one call to
  the next, so the server cannot work from the last ones while git lists
  (``steps/recovery/listings.py``) — the row to read beside the first;
* **recovery_preview (warm, the largest page)** — likewise, asking for the most
  a page holds (``limit`` 200 entries per list, fewer once the page's entries
  reach its byte budget); the two rows above take the answer's default first
  page (25 entries per list, with the lists' totals);
* **memory_summary_read (warm)** — likewise (p50 of ``--reps * 5``).

``--base-python`` names a second interpreter (another checkout's venv, e.g. the
``before`` venv ``compare_refs.py`` prepares under ``build/bench-refs/``): a
second server from it answers the same calls on the same repository, call for
call alternating with this one (the order swapped each round), and the report
gives both and their ratio.

Goals (issue 15): warm ``recovery_preview`` p50 ≤ 1.5 x ``git status`` + 40 ms;
warm ``memory_summary_read`` p50 ≤ 10 ms; start → first answer ≤ 0.5 s.
Everything is measured from the client's side: a JSON-RPC round trip over the
pipes is part of what an agent waits for.

Usage (from the repository root, with the dev venv)::

    .venv/bin/python benchmarks/mcp_latency.py [--files 20000] [--reps 15] [--starts 5]
        [--base-python build/bench-refs/<sha>/venv/bin/python] [--out benchmarks/results/mcp.md]
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


def params(root: Path, python: str = sys.executable) -> StdioServerParameters:
    env = {k: v for k, v in GIT_ENV.items() if not k.startswith("VIBFLOW_")}
    for leak in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"):  # each venv imports its own
        env.pop(leak, None)
    return StdioServerParameters(
        command=python,
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


#: The measurements of the warm loop: (name, tool, what the agent does before each
#: call — edit a changed file, add a new one, or nothing —, arguments).
#: ``recovery_preview`` answers one page of its plan (25 entries per list) unless asked
#: for more; ``recovery_preview_largest`` asks for the largest page (a base server is
#: sent ``{}``: one from before the pages answers with the whole plan).
LARGEST = {"limit": 200}
WARM: tuple[tuple[str, str, str | None, dict[str, Any]], ...] = (
    ("recovery_preview", "recovery_preview", None, {}),
    ("recovery_preview_touched", "recovery_preview", "edit", {}),
    ("recovery_preview_largest", "recovery_preview", None, LARGEST),
    ("memory_summary_read", "memory_summary_read", None, {}),
    # Last: the files it adds stay.
    ("recovery_preview_new_file", "recovery_preview", "new", {}),
)


class Toucher:
    """The agent between two calls: gives one modified file a new line (a different
    file each time), or adds a new file."""

    def __init__(self, root: Path, paths: list[str]) -> None:
        self.root, self.paths, self.n = root, paths, 0

    def __call__(self, what: str) -> None:
        if what == "new":
            path = self.root / f"src/agent_added_{self.n}.py"
            path.write_text(f"ADDED = {self.n}\n", encoding="utf-8")
        else:
            path = self.root / self.paths[self.n % len(self.paths)]
            with path.open("a", encoding="utf-8") as fh:
                fh.write(f"# touched between two requests ({self.n})\n")
        self.n += 1


async def warm(
    root: Path, reps: int, pythons: dict[str, str], touch: Toucher
) -> dict[str, dict[str, list[float]]]:
    """Milliseconds per call on each long-lived server (one per interpreter), call for
    call alternating between them, after two warm-ups each."""
    out = {side: {name: [] for name, _, _, _ in WARM} for side in pythons}
    with Path(os.devnull).open("w", encoding="utf-8") as errlog:
        async with contextlib.AsyncExitStack() as stack:
            clients = {
                side: await stack.enter_async_context(
                    Client(stdio_client(params(root, python), errlog=errlog))
                )
                for side, python in pythons.items()
            }
            for name, tool, between, args in WARM:
                n = reps * 5 if tool == "memory_summary_read" else reps
                for i in range(n + 2):
                    order = list(clients.items())
                    for side, client in order if i % 2 else order[::-1]:
                        if between is not None:
                            touch(between)
                        t0 = time.perf_counter()
                        sent = args if side == "head" else {}
                        result = await client.call_tool(tool, sent)
                        ms = (time.perf_counter() - t0) * 1000
                        assert not result.is_error, result.structured_content
                        if i >= 2:
                            out[side][name].append(ms)
    return out


def measure(
    root: Path, reps: int, starts: int, touch: Toucher, base_python: str | None = None
) -> dict[str, Any]:
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
    pythons = {"head": sys.executable}
    if base_python:
        pythons["base"] = base_python
    sides = anyio.run(warm, root, reps, pythons, touch)
    calls = sides["head"]
    preview, summary = calls["recovery_preview"], calls["memory_summary_read"]
    touched = calls["recovery_preview_touched"]
    largest = calls["recovery_preview_largest"]
    added = calls["recovery_preview_new_file"]
    git_ms = git_status_s * 1000
    preview_goal = GOAL_FACTOR * git_ms + GOAL_SLACK_MS
    first = statistics.median(s["first_answer_s"] for s in starts_s)
    base: dict[str, Any] = {}
    if "base" in sides:
        for name, values in sides["base"].items():
            pairs = [h / b for h, b in zip(sides["head"][name], values, strict=True)]
            base[name] = {
                "base_p50_ms": round(pct(values, 0.5), 1),
                "head_p50_ms": round(pct(sides["head"][name], 0.5), 1),
                "ratio_median": round(statistics.median(pairs), 3),
                "ratio_min_max": [round(min(pairs), 3), round(max(pairs), 3)],
            }
    return {
        "base_python": base_python,
        "paired": base,
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
        "preview_touched_p50_ms": round(pct(touched, 0.5), 1),
        "preview_touched_p90_ms": round(pct(touched, 0.9), 1),
        "preview_new_file_p50_ms": round(pct(added, 0.5), 1),
        "preview_new_file_p90_ms": round(pct(added, 0.9), 1),
        "preview_largest_p50_ms": round(pct(largest, 0.5), 1),
        "preview_largest_p90_ms": round(pct(largest, 0.9), 1),
        "summary_p50_ms": round(pct(summary, 0.5), 2),
        "summary_p90_ms": round(pct(summary, 0.9), 2),
        "load_avg_1min": [round(load_before, 1), round(os.getloadavg()[0], 1)],
        "goals": {
            "recovery_preview": pct(preview, 0.5) <= preview_goal,
            "recovery_preview_touched": pct(touched, 0.5) <= preview_goal,
            "recovery_preview_new_file": pct(added, 0.5) <= preview_goal,
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
| warm `recovery_preview`, one file touched before each call, p50 (p90) | \
{found["preview_touched_p50_ms"]} ms ({found["preview_touched_p90_ms"]} ms) | — | \
same | {yes[g["recovery_preview_touched"]]} |
| warm `recovery_preview`, a new file added before each call, p50 (p90) | \
{found["preview_new_file_p50_ms"]} ms ({found["preview_new_file_p90_ms"]} ms) | — | \
same | {yes[g["recovery_preview_new_file"]]} |
| warm `recovery_preview`, the largest page (`limit` 200), p50 (p90) | \
{found["preview_largest_p50_ms"]} ms ({found["preview_largest_p90_ms"]} ms) | — | — | |
| warm `memory_summary_read` p50 (p90) | {found["summary_p50_ms"]} ms \
({found["summary_p90_ms"]} ms) | — | ≤ 10 ms | {yes[g["memory_summary_read"]]} |
| start → first answer (median of {starts} fresh servers) | {found["first_answer_s"]} s \
(handshake done at {found["handshake_s"]} s) | `python -c pass` \
{found["python_start_ms"]} ms; importing the SDK alone {found["sdk_import_ms"]} ms | ≤ 0.5 s \
| {yes[g["start_to_first_answer"]]} |
| CPU by the first answer (median) | server {found["server_cpu_at_first_answer_s"]} s \
| the SDK import alone {found["sdk_import_cpu_s"]} s | — | |

{paired(found)}
Raw: `{json.dumps(found)}`
"""


def paired(found: dict[str, Any]) -> str:
    """The before/after table, when a base server answered the same calls."""
    if not found["paired"]:
        return ""
    rows = [
        f"| {name} | {p['base_p50_ms']} ms | {p['head_p50_ms']} ms | {p['ratio_median']} "
        f"({p['ratio_min_max'][0]} to {p['ratio_min_max'][1]}) |"
        for name, p in found["paired"].items()
    ]
    return (
        f"Paired with a second server from `{found['base_python']}` (base), call for call "
        "on the same repository:\n\n| warm call | base p50 | head p50 | head/base per call, "
        "median (min to max) |\n|---|---:|---:|---:|\n" + "\n".join(rows) + "\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=20_000)
    parser.add_argument("--reps", type=int, default=15)
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--out", type=Path, default=None, help="Write the Markdown report here.")
    parser.add_argument(
        "--base-python", help="a second server's interpreter, measured call for call beside"
    )
    args = parser.parse_args()
    compile_installed()
    base = Path(tempfile.mkdtemp(prefix="vibflow-mcp-bench-"))
    try:
        root = base / "repo"
        root.mkdir()
        layout = Layout(args.files, default_dirs(args.files))
        build(root, layout)
        subprocess.run(
            [*VIBFLOW, "checkpoint", "create", "-m", "bench", "--json"],
            cwd=root,
            env=GIT_ENV,
            check=True,
            capture_output=True,
        )
        settle(root)
        touch = Toucher(root, [layout.path(i) for i in layout.modified_ids])
        # The server runs in the repository: a relative interpreter path must not follow
        # it there (and abspath, not resolve: a venv's python is a link to keep).
        base_python = os.path.abspath(args.base_python) if args.base_python else None  # noqa: PTH100
        found = measure(root, args.reps, args.starts, touch, base_python)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    text = report(found, args.files, args.reps, args.starts)
    print(text)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
