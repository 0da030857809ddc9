"""`vibflow recap` (the project recap: built, redacted, stored) as a fresh process.

The project is the one ``triggers_check.py`` builds: a 20,000-file repository,
1,000 finished runs in the journal, 500 memory entries (50 decisions, 100
relevant files, 30 verifications, 120 risks, 200 observed events), an intent
set 7 hours ago and 200 files changed since. Measured round robin after a
warm-up, fresh processes:

* ``python -c pass`` — the floor every command pays;
* ``vibflow runs list`` — a vibflow command's own start-up;
* ``git status --porcelain`` and ``git diff --numstat`` since the intent —
  what a look at the tree costs, for scale (the recap runs the second once);
* ``vibflow recap`` and ``vibflow recap --json`` (each writes a new project
  recap: the journal grows by one recap per call, as it would for a user).

Each is reported as its median wall time and median CPU time (the process
and its git children, from ``wait4``), and the recap also as the median of
its per-round ratios to ``runs list`` and to ``python -c pass`` measured in
the same round — on a shared machine the ratios move far less than the
times. ``--base-venv`` adds ``runs list`` and both recaps from another venv
(an older vibflow) on its own copy of the project, back to back with this
one's (order swapped every round), and their per-round ratios head/base.

Usage::

    python benchmarks/recap.py [--files 20000] [--runs 1000] [--rounds 11]
        [--base-venv PATH] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchkit import GIT_ENV, REPO, compile_installed, git, measured_ok
from triggers_check import build_memory, build_repo, build_runs, drift

GOAL_PROCESS_S = 0.25


def timed(argv: list[str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU seconds (the process and its children) of one run; a failure ends it."""
    return measured_ok(argv, cwd, GIT_ENV)


def base_python(venv: str) -> str:
    python = Path(venv) / "bin" / "python"
    if not python.exists():
        raise SystemExit(f"no python in {venv}")
    # Its own checkout (an editable install) gets valid bytecode too.
    found = subprocess.run(
        [
            str(python),
            "-c",
            "import vibflow, pathlib; print(pathlib.Path(vibflow.__file__).parent)",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    compile_installed(python, Path(found).resolve().parent)
    return str(python)


def commands(
    root: Path, base_root: Path | None, base: str | None
) -> dict[str, tuple[list[str], Path]]:
    intent_sha = json.loads((root / ".vibflow" / "memory.json").read_text("utf-8"))[
        "active_intent"
    ]["head_at_update"]
    vib = [sys.executable, "-m", "vibflow"]
    found = {
        "python -c pass": ([sys.executable, "-c", "pass"], root),
        "git status --porcelain": (["git", "status", "--porcelain"], root),
        "git diff --numstat (since the intent)": (
            ["git", "diff", "--numstat", "--no-renames", intent_sha, "--"],
            root,
        ),
        "vibflow runs list": ([*vib, "runs", "list"], root),
        "vibflow recap": ([*vib, "recap"], root),
        "vibflow recap --json": ([*vib, "recap", "--json"], root),
    }
    if base is not None and base_root is not None:
        old = [base, "-m", "vibflow"]
        found["base: vibflow runs list"] = ([*old, "runs", "list"], base_root)
        found["base: vibflow recap"] = ([*old, "recap"], base_root)
        found["base: vibflow recap --json"] = ([*old, "recap", "--json"], base_root)
    return found


def pairs_first(names: list[str], swap: bool) -> list[str]:
    """Every head command next to its base twin, the base first every other round."""
    out: list[str] = []
    for name in names:
        if name.startswith("base: "):
            continue
        twin = f"base: {name}"
        both = [name, twin] if twin in names else [name]
        out += list(reversed(both)) if swap else both
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    ap.add_argument("--files", type=int, default=20_000)
    ap.add_argument("--runs", type=int, default=1_000)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--base-venv", default=None)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    compile_installed()
    base = base_python(args.base_venv) if args.base_venv else None
    # No background `git gc --auto` after the build's commits: it would repack the
    # objects while the project is copied for the base side.
    GIT_ENV.update(GIT_CONFIG_COUNT="1", GIT_CONFIG_KEY_0="gc.auto", GIT_CONFIG_VALUE_0="0")
    with tempfile.TemporaryDirectory(prefix="vibflow-bench-recap-") as tmp:
        root = Path(tmp) / "project"
        head = build_repo(root, args.files)
        build_runs(root, args.runs)
        build_memory(root, head)
        drift(root, args.files)
        base_root = Path(shutil.copytree(root, Path(tmp) / "base", symlinks=True)) if base else None
        todo = commands(root, base_root, base)
        for argv, cwd in todo.values():  # warm-up
            timed(argv, cwd)
        walls: dict[str, list[float]] = {k: [] for k in todo}
        cpus: dict[str, list[float]] = {k: [] for k in todo}
        for i in range(args.rounds):
            for name in pairs_first(list(todo), swap=i % 2 == 1):
                w, c = timed(*todo[name])
                walls[name].append(w)
                cpus[name].append(c)
        journal = (root / ".vibflow" / "runs.db").stat().st_size
    result = summarize(args, walls, cpus, journal)
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(render(args, result))


def _ratio(top: list[float], bottom: list[float]) -> float:
    return round(statistics.median(t / b for t, b in zip(top, bottom, strict=True)), 3)


def summarize(
    args: argparse.Namespace,
    walls: dict[str, list[float]],
    cpus: dict[str, list[float]],
    journal: int,
) -> dict[str, Any]:
    med = {k: statistics.median(v) for k, v in walls.items()}
    ratios: dict[str, float] = {}
    for name in ("vibflow recap", "vibflow recap --json"):
        ratios[f"{name} / runs list"] = _ratio(walls[name], walls["vibflow runs list"])
        ratios[f"{name} / python -c pass"] = _ratio(walls[name], walls["python -c pass"])
        ratios[f"{name} CPU / runs list CPU"] = _ratio(cpus[name], cpus["vibflow runs list"])
        if f"base: {name}" in walls:
            ratios[f"{name}: head / base"] = _ratio(walls[name], walls[f"base: {name}"])
            ratios[f"{name} CPU: head / base"] = _ratio(cpus[name], cpus[f"base: {name}"])
            ratios[f"base: {name} / base: runs list"] = _ratio(
                walls[f"base: {name}"], walls["base: vibflow runs list"]
            )
    return {
        "commit": git(REPO, "rev-parse", "--short", "HEAD"),
        "load_average": os.getloadavg()[0],
        "files": args.files,
        "runs": args.runs,
        "memory_entries": 500,
        "journal_bytes": journal,
        "rounds": args.rounds,
        "median_s": {k: round(v, 4) for k, v in med.items()},
        "median_cpu_s": {k: round(statistics.median(v), 4) for k, v in cpus.items()},
        "ratios": ratios,
        "recap_over_startup_ms": round((med["vibflow recap"] - med["vibflow runs list"]) * 1000, 1),
        "goal_process_s": GOAL_PROCESS_S,
        "meets_goal": max(med["vibflow recap"], med["vibflow recap --json"]) <= GOAL_PROCESS_S,
    }


def render(args: argparse.Namespace, r: dict[str, Any]) -> str:
    rows = "".join(
        f"  {k:<40} {v * 1000:7.0f} ms   CPU {r['median_cpu_s'][k] * 1000:5.0f} ms\n"
        for k, v in r["median_s"].items()
    )
    ratios = "".join(f"  {k:<52} {v:6.3f}\n" for k, v in r["ratios"].items())
    return (
        f"{args.files} files, {args.runs} runs (journal {r['journal_bytes'] / 1e6:.1f} MB), "
        f"500 memory entries; commit {r['commit']}, load {r['load_average']:.1f}\n"
        + rows
        + "per-round ratios (medians):\n"
        + ratios
        + f"recap over a command's start-up: {r['recap_over_startup_ms']} ms\n"
        f"goal (≤ {GOAL_PROCESS_S} s per process): {'met' if r['meets_goal'] else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
