"""Cold start before and after, paired: the same commands from two venvs, interleaved.

The commands whose start-up issues 10, 12, 14 and 17 bound, each a fresh
process of ``python -m vibflow`` from the *base* venv and from the *head*
venv, back to back (order swapped every round) on two identical copies of
each project, so both sides meet the same machine:

* ``--help`` and ``runs list`` in a fresh ``git init`` repository;
* ``recover --preview --json`` on a 52-file Python app with an intent, a
  checkpoint and an agent's drift (``preview_small.py``'s ``python-app``);
* ``recap``, ``handoff``, ``triggers check``, ``runs list`` and ``recover
  --preview --json`` on the project of ``triggers_check.py``: 20,000 files,
  1,000 runs, 500 memory entries, 200 files changed since the intent;

with ``python -c pass`` from each venv as the control (same code on both
sides: its ratio shows the noise). Reported per command: median wall and
CPU time (the process and its git children) of each side, and the median of
the per-round ratios head/base.

Usage::

    python benchmarks/coldstart_pairs.py --base-venv PATH [--head-venv .venv]
        [--rounds 11] [--files 20000] [--runs 1000] [--json]

``--base-venv`` is a venv with the older vibflow installed (e.g. a ``git
archive`` of the base commit with ``pip install -e`` into its own venv).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchkit import GIT_ENV, REPO, compile_installed, git, measured_ok
from preview_small import prepare_vibflow, python_app, write_repo
from triggers_check import build_memory, build_repo, build_runs, drift


def timed(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds (with children) of one process; a failure ends the run."""
    return measured_ok(argv, cwd, env)


def build(tmp: Path, files: int, runs: int, env: dict[str, str]) -> dict[str, Path]:
    """The three projects, built once with the head's vibflow (read by both)."""
    empty = tmp / "empty"
    empty.mkdir(parents=True)
    git(empty, "init", "-q")
    small = tmp / "python-app"
    app, app_drift, intent, explicit = python_app()
    write_repo(small, app)
    prepare_vibflow(small, intent, explicit, env)
    app_drift(small)
    big = tmp / "big"
    head = build_repo(big, files)
    build_runs(big, runs)
    build_memory(big, head)
    drift(big, files)
    # Each recap is stored and becomes the handoff's "last recap": recaps get
    # their own copy, so the handoff measured is the steady one handoff.py measures.
    recaps = Path(shutil.copytree(big, tmp / "big-recaps", symlinks=True))
    return {"empty": empty, "small": small, "big": big, "big-recaps": recaps}


COMMANDS: list[tuple[str, str, list[str]]] = [  # (label, project, vibflow arguments)
    ("--help", "empty", ["--help"]),
    ("runs list (empty repo)", "empty", ["runs", "list"]),
    ("recover --preview --json (52 files)", "small", ["recover", "--preview", "--json"]),
    ("recover --preview --json ({files:,} files)", "big", ["recover", "--preview", "--json"]),
    ("runs list ({runs:,} runs)", "big", ["runs", "list"]),
    ("triggers check", "big", ["triggers", "check"]),
    ("handoff", "big", ["handoff"]),
    ("recap", "big-recaps", ["recap"]),
]


def measure(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    env = {k: v for k, v in GIT_ENV.items() if not k.startswith("VIBFLOW_")}
    for noisy in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH", "VIRTUAL_ENV"):
        env.pop(noisy, None)
    sides = {"base": Path(args.base_venv), "head": Path(args.head_venv)}
    built = build(tmp / "built", args.files, args.runs, env)
    where = {
        side: {
            name: Path(shutil.copytree(p, tmp / side / name, symlinks=True))
            for name, p in built.items()
        }
        for side in sides
    }
    # The labels name the sizes this run built (--files, --runs).
    rows = [
        ("python -c pass (control)", "empty", None),
        *((label.format(files=args.files, runs=args.runs), p, a) for label, p, a in COMMANDS),
    ]
    walls: dict[tuple[str, str], list[float]] = {}
    cpus: dict[tuple[str, str], list[float]] = {}
    for round_no in range(args.warmup + args.rounds):
        for label, project, vibflow_args in rows:
            order = list(sides) if round_no % 2 == 0 else list(sides)[::-1]
            for side in order:
                python = str(sides[side] / "bin" / "python")
                argv = (
                    [python, "-c", "pass"]
                    if vibflow_args is None
                    else [python, "-m", "vibflow", *vibflow_args]
                )
                wall, cpu = timed(argv, where[side][project], env)
                if round_no >= args.warmup:
                    walls.setdefault((label, side), []).append(wall)
                    cpus.setdefault((label, side), []).append(cpu)
    results = {}
    for label, _, _ in rows:
        ratios = [
            h / b for h, b in zip(walls[(label, "head")], walls[(label, "base")], strict=True)
        ]
        results[label] = {
            **{f"{side}_ms": statistics.median(walls[(label, side)]) * 1000 for side in sides},
            **{f"{side}_cpu_ms": statistics.median(cpus[(label, side)]) * 1000 for side in sides},
            "head_over_base": statistics.median(ratios),
        }
    return {
        "meta": {
            "date_utc": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "head_commit": git(REPO, "rev-parse", "--short=12", "HEAD"),
            "base_venv": str(sides["base"]),
            "head_venv": str(sides["head"]),
            "rounds": args.rounds,
            "files": args.files,
            "runs": args.runs,
            "load_average": os.getloadavg(),
        },
        "results": results,
    }


def render(doc: dict[str, Any]) -> None:
    meta = doc["meta"]
    print(
        f"cold start, base vs head — {meta['date_utc']}, head {meta['head_commit']}, "
        f"{meta['rounds']} rounds, load {meta['load_average'][0]:.1f}"
    )
    print("| command | base ms | head ms | head/base | base CPU ms | head CPU ms |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, r in doc["results"].items():
        print(
            f"| {label} | {r['base_ms']:.0f} | {r['head_ms']:.0f} | {r['head_over_base']:.2f} "
            f"| {r['base_cpu_ms']:.0f} | {r['head_cpu_ms']:.0f} |"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    ap.add_argument("--base-venv", required=True)
    ap.add_argument("--head-venv", default=str(REPO / ".venv"))
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--files", type=int, default=20_000)
    ap.add_argument("--runs", type=int, default=1_000)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    compile_installed()
    with tempfile.TemporaryDirectory(prefix="vibflow-bench-pairs-") as tmp:
        doc = measure(args, Path(tmp))
    if args.json:
        print(json.dumps(doc, indent=2))
    else:
        render(doc)


if __name__ == "__main__":
    sys.exit(main())
