"""`vibflow recap` (the project recap: built, redacted, stored) as a fresh process.

The project is the one ``triggers_check.py`` builds: a 20,000-file repository,
1,000 finished runs in the journal, 500 memory entries (50 decisions, 100
relevant files, 30 verifications, 120 risks, 200 observed events), an intent
set 7 hours ago and 200 files changed since. Measured round robin after a
warm-up, fresh processes:

* ``python -c pass`` — the floor every command pays;
* ``vibflow runs list`` — a vibflow command's own start-up;
* ``git status --porcelain`` — what a look at the tree costs, for scale;
* ``vibflow recap`` and ``vibflow recap --json`` (each writes a new project
  recap: the journal grows by one recap per call, as it would for a user).

Usage::

    python benchmarks/recap.py [--files 20000] [--runs 1000] [--rounds 11] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchkit import VIBFLOW, compile_installed
from triggers_check import build_memory, build_repo, build_runs, drift, wall

GOAL_PROCESS_S = 0.25


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    ap.add_argument("--files", type=int, default=20_000)
    ap.add_argument("--runs", type=int, default=1_000)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    compile_installed()
    with tempfile.TemporaryDirectory(prefix="vibflow-bench-recap-") as tmp:
        root = Path(tmp) / "project"
        head = build_repo(root, args.files)
        build_runs(root, args.runs)
        build_memory(root, head)
        drift(root, args.files)
        commands: dict[str, list[str]] = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "git status --porcelain": ["git", "status", "--porcelain"],
            "vibflow runs list": [*VIBFLOW, "runs", "list"],
            "vibflow recap": [*VIBFLOW, "recap"],
            "vibflow recap --json": [*VIBFLOW, "recap", "--json"],
        }
        for argv in commands.values():  # warm-up
            wall(argv, root)
        times: dict[str, list[float]] = {k: [] for k in commands}
        for _ in range(args.rounds):
            for name, argv in commands.items():
                times[name].append(wall(argv, root))
        med = {k: statistics.median(v) for k, v in times.items()}
        journal = (root / ".vibflow" / "runs.db").stat().st_size
    result: dict[str, Any] = {
        "files": args.files,
        "runs": args.runs,
        "memory_entries": 500,
        "journal_bytes": journal,
        "rounds": args.rounds,
        "median_s": {k: round(v, 4) for k, v in med.items()},
        "recap_over_startup_ms": round((med["vibflow recap"] - med["vibflow runs list"]) * 1000, 1),
        "goal_process_s": GOAL_PROCESS_S,
        "meets_goal": max(med["vibflow recap"], med["vibflow recap --json"]) <= GOAL_PROCESS_S,
    }
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(
        f"{args.files} files, {args.runs} runs (journal {journal / 1e6:.1f} MB), "
        "500 memory entries\n"
        + "".join(f"  {k:<36} {v * 1000:7.0f} ms\n" for k, v in med.items())
        + f"recap over a command's start-up: {result['recap_over_startup_ms']} ms\n"
        f"goal (≤ {GOAL_PROCESS_S} s per process): "
        f"{'met' if result['meets_goal'] else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
