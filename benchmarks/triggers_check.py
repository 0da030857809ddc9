"""`vibflow triggers check` on a big project, and the trigger evaluation in process.

The project: a 20,000-file repository (400 folders, committed), 1,000 finished
runs in the journal (each a run of the shipped ``trigger`` flow: started, shown,
dismissed — their audit rows included), 500 memory entries (50 decisions, 100
relevant files, 30 verifications, 120 risks, 200 observed events) and an intent
set 7 hours ago at HEAD, with 200 files changed since (so ``git diff`` has work).

Measured, round robin after warm-up (fresh processes, bytecode caches warm):

* ``python -c pass`` — the floor every command pays;
* ``vibflow runs list`` — a vibflow command's own start-up (CLI, policy, journal);
* ``git diff --numstat <intent commit>`` — the git work the check itself needs,
  the named baseline (ratio = check / this);
* ``vibflow triggers check`` (and ``--json``).

In process: the pure evaluation of every shipped trigger over readings taken
once (the ≤ 5 ms goal), and a whole ``TriggerService.check()`` with its metric
I/O (memory read, git), for reference. The first ``triggers check`` derives the
ignored-rate baseline from the whole audit; later ones read only new rows —
both are reported.

Usage::

    python benchmarks/triggers_check.py [--files 20000] [--runs 1000] [--rounds 11] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from benchkit import GIT_ENV, VIBFLOW, compile_installed, default_dirs, git, module_bytes

GOAL_PROCESS_S = 0.25
GOAL_EVAL_MS = 5.0


def build_repo(root: Path, files: int) -> str:
    root.mkdir()
    git(root, "init", "-q")
    dirs = default_dirs(files)
    for i in range(files):
        folder = root / "src" / f"pkg{i % dirs}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"mod{i}.py").write_bytes(module_bytes(i, "original"))
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    return git(root, "rev-parse", "HEAD")


def build_runs(root: Path, runs: int) -> None:
    """``runs`` finished runs of the shipped trigger flow, through the real runner."""
    from vibflow.wiring import Project

    policy = root / ".vibflow" / "policy.yaml"
    policy.parent.mkdir(exist_ok=True)
    # Built fast (no fsync per transition); the measured project has no policy file.
    policy.write_text("engine:\n  journal:\n    synchronous: NORMAL\n", "utf-8")
    project = Project(root)
    loaded = project.catalog.load("trigger")
    for _ in range(runs):
        run = project.runner.start(loaded, {"trigger": "stale_intent"})
        project.runner.send(run.run_id, "show", {})
        project.runner.send(run.run_id, "dismiss", {})
    policy.unlink()


def build_memory(root: Path, head: str) -> None:
    from vibflow.steps.memory.models import (
        ActiveIntent,
        Decision,
        MemoryState,
        ObservedEvent,
        RelevantFile,
        Risk,
        Verification,
    )

    now = datetime.now(UTC)
    ts = (now - timedelta(hours=7)).isoformat(timespec="seconds").replace("+00:00", "Z")
    state = MemoryState(
        active_intent=ActiveIntent(text="tune the importer", last_updated=ts, head_at_update=head),
        decisions=[Decision(text=f"decision {i}") for i in range(50)],
        relevant_files=[RelevantFile(path=f"src/pkg{i}/mod{i}.py") for i in range(100)],
        verification=[
            Verification(
                command=f"pytest -k t{i}", result="pass", related_files=[f"src/pkg{i}/mod{i}.py"]
            )
            for i in range(30)
        ],
        risks=[Risk(text=f"risk {i}") for i in range(120)],
        observed_context=[ObservedEvent(kind="patch_apply", at=ts) for _ in range(200)],
    )
    (root / ".vibflow" / "memory.json").write_text(state.model_dump_json(), "utf-8")


def drift(root: Path, files: int, changed: int = 200) -> None:
    dirs = default_dirs(files)
    for i in range(changed):
        (root / "src" / f"pkg{i % dirs}" / f"mod{i}.py").write_bytes(module_bytes(i, "agent"))


def wall(argv: list[str], cwd: Path) -> float:
    t0 = time.perf_counter_ns()
    proc = subprocess.run(argv, cwd=cwd, capture_output=True, env=GIT_ENV, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"{argv} failed: {proc.stderr.decode()[-400:]}")
    return (time.perf_counter_ns() - t0) / 1e9


def in_process(root: Path, reps: int = 2000) -> dict[str, float]:
    from vibflow.steps.triggers.conditions import evaluate
    from vibflow.steps.triggers.metrics import METRICS
    from vibflow.wiring import Project

    service = Project(root).triggers
    rules = service.policy.rules
    t0 = time.perf_counter_ns()
    service.check()
    check_ms = (time.perf_counter_ns() - t0) / 1e6
    now = datetime.now(UTC)
    inputs = service._inputs(now, now - timedelta(hours=1))
    readings = {
        leaf.metric: METRICS[leaf.metric].read(inputs)
        for rule in rules.values()
        for leaf in rule.when.leaves()
        if leaf.metric
    }
    samples = []
    for _ in range(reps):
        t0 = time.perf_counter_ns()
        for rule in rules.values():
            evaluate(rule.when, readings.__getitem__, rule.thresholds, [])
        samples.append((time.perf_counter_ns() - t0) / 1e6)
    return {
        "evaluate_all_ms_median": statistics.median(samples),
        "evaluate_all_ms_p99": sorted(samples)[int(reps * 0.99)],
        "check_with_metric_io_ms": check_ms,
        "triggers": len(rules),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    ap.add_argument("--files", type=int, default=20_000)
    ap.add_argument("--runs", type=int, default=1_000)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    compile_installed()
    with tempfile.TemporaryDirectory(prefix="vibflow-bench-triggers-") as tmp:
        root = Path(tmp) / "project"
        head = build_repo(root, args.files)
        build_runs(root, args.runs)
        build_memory(root, head)
        drift(root, args.files)
        audit_rows = sum(1 for _ in (root / ".vibflow" / "audit.jsonl").open("rb"))
        first = wall([*VIBFLOW, "triggers", "check"], root)  # derives the baseline from scratch
        commands: dict[str, list[str]] = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "git diff --numstat": ["git", "diff", "--numstat", "--no-renames", head, "--"],
            "vibflow runs list": [*VIBFLOW, "runs", "list"],
            "vibflow triggers check": [*VIBFLOW, "triggers", "check"],
            "vibflow triggers check --json": [*VIBFLOW, "triggers", "check", "--json"],
        }
        for argv in commands.values():  # warm-up
            wall(argv, root)
        times: dict[str, list[float]] = {k: [] for k in commands}
        for _ in range(args.rounds):
            for name, argv in commands.items():
                times[name].append(wall(argv, root))
        med = {k: statistics.median(v) for k, v in times.items()}
        proc = in_process(root)
    result: dict[str, Any] = {
        "files": args.files,
        "runs": args.runs,
        "memory_entries": 500,
        "audit_rows": audit_rows,
        "rounds": args.rounds,
        "first_check_s": round(first, 4),
        "median_s": {k: round(v, 4) for k, v in med.items()},
        "ratio_check_to_git_diff": round(
            med["vibflow triggers check"] / med["git diff --numstat"], 2
        ),
        "in_process": {k: round(v, 4) if isinstance(v, float) else v for k, v in proc.items()},
        "goal_process_s": GOAL_PROCESS_S,
        "goal_eval_ms": GOAL_EVAL_MS,
        "meets_goals": med["vibflow triggers check"] <= GOAL_PROCESS_S
        and proc["evaluate_all_ms_median"] <= GOAL_EVAL_MS,
    }
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(
        f"{args.files} files, {args.runs} runs ({audit_rows} audit rows), 500 memory entries\n"
        f"first `triggers check` (baseline derived from the whole audit): {first * 1000:.0f} ms\n"
        + "".join(f"  {k:<32} {v * 1000:7.0f} ms\n" for k, v in med.items())
        + f"ratio check / git diff: {result['ratio_check_to_git_diff']}\n"
        f"in process: evaluate all {proc['triggers']} triggers "
        f"{proc['evaluate_all_ms_median']:.4f} ms (p99 {proc['evaluate_all_ms_p99']:.4f}); "
        f"check with metric I/O {proc['check_with_metric_io_ms']:.1f} ms\n"
        f"goals (≤ {GOAL_PROCESS_S} s per process, ≤ {GOAL_EVAL_MS} ms evaluation): "
        f"{'met' if result['meets_goals'] else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
