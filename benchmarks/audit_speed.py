"""`vibflow audit verify` and `vibflow audit summary` on a 10 MB audit log, as fresh processes.

The log is built through the real ``AuditLog`` (anchored in the journal) with
the mix a busy project writes over a month: run transitions of the recover
flow (a guarded apply every 9 rows, with its sandwich id), memory writes,
recovery previews with path and redaction counts, handoffs with the intent's
freshness, MCP memory responses and re-scans, feedback labels — every row
inside the default 30-day window, so the summary weighs all of them. Measured
round robin after a warm-up, fresh processes, against baselines on the same
file in the same run:

* ``wc -l`` — reading the file;
* ``python -c`` parsing every line with ``json.loads`` — the least a Python
  reader of the log pays (the baseline the ratios use);
* ``vibflow audit verify`` (every row validated as count-only, re-hashed,
  chained, the end checked against the journal's anchor) and
  ``vibflow audit summary`` (the same pass, plus each P0 SLO's counting).

Goal (issue 15): each ≤ 1 s.

Usage::

    python benchmarks/audit_speed.py [--mb 10] [--rounds 7] [--json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import resource
import statistics
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from benchkit import GIT_ENV, VIBFLOW, compile_installed, git, timed

from vibflow.engine.audit import AuditLog, LabelCounts, PathsCount, RedactionCounts, Row
from vibflow.engine.audit import project_root_hash as root_hash
from vibflow.engine.journal import Journal

GOAL_S = 1.0


def rows_of_run(i: int) -> list[Row]:
    run = {"run_id": f"run_{i:032x}", "flow": "recover"}
    states = ["explain", "recommend", "preview", "choose", "route", "sandwich", "confirm"]
    out: list[Row] = [("run_started", {**run, "transition_seq": 0, "to_state": "explain"})]
    for n, (a, b) in enumerate(itertools.pairwise(states), start=1):
        out.append(
            (
                "transition",
                {**run, "transition_seq": n, "from_state": a, "via": "done", "to_state": b},
            )
        )
    out.append(
        (
            "transition",
            {
                **run,
                "transition_seq": 7,
                "from_state": "confirm",
                "via": "confirm",
                "to_state": "apply",
                "result": "ok",
                "sandwich_checkpoint_id": f"ckpt_{i:032x}",
                "paths_count": PathsCount(total=5),
            },
        )
    )
    return out


def other_rows(i: int) -> list[Row]:
    return [
        ("memory_write", {"result": "ok"}),
        (
            "recovery_preview",
            {
                "result": "ok",
                "paths_count": PathsCount(in_zone=3, drift=2, total=5),
                "circuit_breaker_state": "active",
                "redaction": RedactionCounts(privacy_hits=1),
            },
        ),
        (
            "handoff_written",
            {"result": "ok", "intent_stale": i % 3 == 0, "stale_labelled": i % 3 == 0},
        ),
        ("mcp.memory_summary_read", {"result": "ok", "redaction": RedactionCounts()}),
        ("mcp.rescan", {"result": "ok"}),
        ("drift_feedback", {"result": "ok", "labels": LabelCounts(judged=2)}),
    ]


def build(root: Path, megabytes: int) -> tuple[int, int]:
    """A git project whose audit log holds ``megabytes`` MB; (rows, bytes)."""
    root.mkdir(parents=True)
    git(root, "init", "-q")
    (root / "README.md").write_text("bench\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "init")
    journal = Journal(root / ".vibflow" / "runs.db")
    now = datetime.now(UTC)
    moment = [now - timedelta(days=29)]
    log = AuditLog(
        root / ".vibflow" / "audit.jsonl",
        project_root_hash=root_hash(root),
        clock=lambda: moment[0],
        anchor=lambda: journal,
    )
    target = megabytes * 1024 * 1024
    i = rows = 0
    while not log.path.exists() or log.path.stat().st_size < target:
        batch: list[Row] = []
        for _ in range(50):
            i += 1
            batch += rows_of_run(i) + other_rows(i)
        log.append_many(batch)
        rows += len(batch)
        moment[0] = min(now, moment[0] + timedelta(minutes=20))
    journal.close()
    return rows, log.path.stat().st_size


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    ap.add_argument("--mb", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    compile_installed()
    with tempfile.TemporaryDirectory(prefix="vibflow-bench-audit-") as tmp:
        root = Path(tmp) / "project"
        rows, size = build(root, args.mb)
        log = str(root / ".vibflow" / "audit.jsonl")
        parse = f"import json\nfor line in open({log!r}, 'rb'): json.loads(line)"
        commands: dict[str, list[str]] = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "wc -l": ["wc", "-l", log],
            "python json.loads every line": [sys.executable, "-c", parse],
            "vibflow audit verify": [*VIBFLOW, "audit", "verify"],
            "vibflow audit summary": [*VIBFLOW, "audit", "summary"],
        }

        def run(cmd: list[str]) -> None:
            proc = subprocess.run(cmd, cwd=root, env=GIT_ENV, capture_output=True, check=False)
            if proc.returncode != 0:
                sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stdout!r}")

        for cmd in commands.values():  # warm-up
            run(cmd)
        times: dict[str, list[float]] = {name: [] for name in commands}
        cpu: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.rounds):
            for name, cmd in commands.items():
                before = _child_cpu()
                times[name].append(timed(lambda cmd=cmd: run(cmd)))
                cpu[name].append(_child_cpu() - before)
        # benchkit.timed answers in milliseconds.
        med = {name: statistics.median(ts) / 1000 for name, ts in times.items()}
        med_cpu = {name: statistics.median(ts) for name, ts in cpu.items()}
        base = med["python json.loads every line"]
        result: dict[str, Any] = {
            "rows": rows,
            "bytes": size,
            "rounds": args.rounds,
            "median_s": med,
            "ratio_to_json_parse": {n: t / base for n, t in med.items()},
            # CPU (user + system) of the process: on a shared machine, wall time
            # also counts the time spent waiting for a core.
            "median_cpu_s": med_cpu,
            "goal_s": GOAL_S,
            "met": {n: med[n] <= GOAL_S for n in ("vibflow audit verify", "vibflow audit summary")},
        }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"audit log: {rows} rows, {size / 1024 / 1024:.1f} MB; {args.rounds} rounds, median")
    for name, t in med.items():
        print(
            f"  {name:<32} {t * 1000:8.0f} ms  ({t / base:4.2f}x json parse)"
            f"  cpu {med_cpu[name] * 1000:6.0f} ms"
        )
    for name, ok in result["met"].items():
        print(f"  {name}: goal ≤ {GOAL_S:.1f} s {'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()
