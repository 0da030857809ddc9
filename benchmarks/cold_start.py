"""CLI cold start: how long a fresh ``vibflow`` process takes to answer.

Each command runs as a real subprocess of the venv's console script, round
robin (one of each per round, so drift in the machine hits all alike), after
warm-up rounds that also leave the bytecode cache warm, as it is for a user:

* ``python -c pass`` (the venv's interpreter): the floor every command pays;
* ``vibflow --help``;
* ``vibflow runs list`` and ``vibflow recap`` inside a fresh ``git init``
  repository in a temporary directory.

It reports median wall times and the difference over ``python -c pass``, and
the modules that dominate ``python -X importtime -m vibflow runs list``
(cumulative microseconds, the median over a few runs) so slow imports show.

Usage::

    python benchmarks/cold_start.py [--runs 15] [--json] [--venv PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchkit import compile_installed

REPO = Path(__file__).resolve().parents[1]
GOAL_S = 0.25  # each vibflow command answers within 0.25 s
IMPORTTIME_RUNS = 5
_IMPORTTIME = re.compile(r"^import time:\s+(\d+)\s+\|\s+(\d+)\s+\|(\s*)(\S.*)$")


def run_once(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, int, str]:
    """Wall time (ns), exit status and stderr of one subprocess."""
    t0 = time.perf_counter_ns()
    proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    return time.perf_counter_ns() - t0, proc.returncode, proc.stderr


def git_repo(root: Path, env: dict[str, str]) -> Path:
    repo = root / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], env=env, check=True)
    return repo


def top_imports(
    python: Path, repo: Path, env: dict[str, str], top: int = 10
) -> list[dict[str, Any]]:
    """The ``top`` modules by cumulative import time of ``vibflow runs list``."""
    samples: dict[str, list[int]] = {}
    selfs: dict[str, list[int]] = {}
    depth: dict[str, int] = {}
    for _ in range(IMPORTTIME_RUNS):
        _, _, stderr = run_once(
            [str(python), "-X", "importtime", "-m", "vibflow", "runs", "list"], repo, env
        )
        for line in stderr.splitlines():
            match = _IMPORTTIME.match(line)
            if match is None:
                continue
            self_us, cumulative_us, indent, module = match.groups()
            samples.setdefault(module, []).append(int(cumulative_us))
            selfs.setdefault(module, []).append(int(self_us))
            depth[module] = len(indent) // 2
    ranked = sorted(samples, key=lambda m: statistics.median(samples[m]), reverse=True)
    return [
        {
            "module": module,
            "cumulative_ms": statistics.median(samples[module]) / 1000,
            "self_ms": statistics.median(selfs[module]) / 1000,
            "depth": depth[module],
        }
        for module in ranked[:top]
    ]


def measure(args: argparse.Namespace) -> dict[str, Any]:
    venv = Path(args.venv)
    python, vibflow = venv / "bin" / "python", venv / "bin" / "vibflow"
    for exe in (python, vibflow):
        if not exe.exists():
            raise SystemExit(f"{exe} does not exist; run `make test` (or pass --venv)")
    env = dict(os.environ)
    for noisy in ("PYTHONDONTWRITEBYTECODE", "PYTHONPROFILEIMPORTTIME", "VIBFLOW_CRASH_AT"):
        env.pop(noisy, None)
    with tempfile.TemporaryDirectory(prefix="vibflow-cold-") as tmp:
        repo = git_repo(Path(tmp), env)
        commands: dict[str, tuple[list[str], Path]] = {
            "python -c pass": ([str(python), "-c", "pass"], repo),
            "vibflow --help": ([str(vibflow), "--help"], repo),
            "vibflow runs list": ([str(vibflow), "runs", "list"], repo),
            "vibflow recap": ([str(vibflow), "recap"], repo),
        }
        times: dict[str, list[int]] = {name: [] for name in commands}
        failures: dict[str, str] = {}
        for round_no in range(args.warmup + args.runs):
            for name, (argv, cwd) in commands.items():
                elapsed, status, stderr = run_once(argv, cwd, env)
                if status != 0:
                    failures[name] = f"exit {status}: {stderr.strip()[-300:]}"
                if round_no >= args.warmup:
                    times[name].append(elapsed)
        imports = top_imports(python, repo, env)

    base = statistics.median(times["python -c pass"]) / 1e9
    results = {}
    for name, samples in times.items():
        median_s = statistics.median(samples) / 1e9
        results[name] = {
            "median_s": median_s,
            "min_s": min(samples) / 1e9,
            "max_s": max(samples) / 1e9,
            "over_python_s": median_s - base,
            "goal_met": None if name == "python -c pass" else median_s <= GOAL_S,
        }
    return {
        "meta": {
            "date_utc": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "python": platform.python_version(),
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "runs": args.runs,
            "warmup": args.warmup,
            "venv": str(venv),
            "goal_s": GOAL_S,
        },
        "results": results,
        "failures": failures,
        "top_imports_runs_list": imports,
    }


def render(doc: dict[str, Any]) -> None:
    meta = doc["meta"]
    print(
        f"CLI cold start: {meta['runs']} runs each (after {meta['warmup']} warm-up rounds), "
        f"medians, {meta['date_utc']}"
    )
    print(f"python {meta['python']}, {meta['cpus']} cpus, venv {meta['venv']}")
    print()
    header = f"{'command':<20} {'median':>9} {'min':>9} {'max':>9} {'over python':>12}  goal"
    print(header)
    print("-" * len(header))
    for name, r in doc["results"].items():
        goal = {None: "", True: f"MET (<= {GOAL_S} s)", False: f"MISSED (> {GOAL_S} s)"}[
            r["goal_met"]
        ]
        print(
            f"{name:<20} {r['median_s']:>8.3f}s {r['min_s']:>8.3f}s {r['max_s']:>8.3f}s "
            f"{r['over_python_s']:>+11.3f}s  {goal}"
        )
    for name, why in doc["failures"].items():
        print(f"\nFAILED {name}: {why}")
    print()
    print(
        f"top 10 imports of `python -X importtime -m vibflow runs list` "
        f"(median of {IMPORTTIME_RUNS} runs):"
    )
    print(f"  {'cumulative':>10} {'self':>8}  module")
    for row in doc["top_imports_runs_list"]:
        indent = "  " * row["depth"]
        print(f"  {row['cumulative_ms']:>8.1f}ms {row['self_ms']:>6.1f}ms  {indent}{row['module']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="CLI cold start benchmark.")
    parser.add_argument("--runs", type=int, default=15, help="timed runs per command")
    parser.add_argument("--warmup", type=int, default=2, help="discarded rounds")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument("--venv", default=str(REPO / ".venv"), help="the venv to run")
    args = parser.parse_args(argv)
    compile_installed()
    doc = measure(args)
    if args.json:
        print(json.dumps(doc, indent=2))
    else:
        render(doc)
    return 1 if doc["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
