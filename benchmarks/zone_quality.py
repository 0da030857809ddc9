"""Recommendation quality on the scenario corpus (``tests/scenarios``).

Builds every scenario (a small generated repository in a temp folder, its
history, memory, checkpoints and an agent's edits; no downloads), asks the
recovery advisor for its plan in-process, and scores it against the
scenario's truth file: drift recall, precision (per-scenario mean and
pooled), explicit files labelled drift (P0), excluded paths leaked into the
zone/drift/restore options, whether the safe checkpoint is the right one, and
the plan's wall time. The held-out third (written and committed before the
zone was tuned) and the tuned rest are reported apart, and so are a few
scenarios written after the tuning (``scenarios_fresh``; not in the test's
thresholds — the exit status follows the corpus alone).

With ``--process``, each scenario is also timed as a user runs it: a fresh
``vibflow recover --preview --json`` process, median of ``--reps``.

With ``--hooks``, every scenario is built as if the agent hooks were installed:
each of the agent's edits (``Scene.agent``) is one recorded turn, with a
checkpoint before and after it (``vibflow agent run``'s wrapping); the user's
checkpoints stay theirs. Scenarios whose authors wrote the user's own edits with
``agent()`` then count those as the agent's too.

Usage (from the repository root, with the dev venv)::

    .venv/bin/python benchmarks/zone_quality.py [--process] [--reps 5] [--out FILE]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from benchkit import GIT_ENV, REPO, VIBFLOW, compile_installed

sys.path[:0] = [str(REPO / "tests" / "support"), str(REPO / "tests" / "scenarios")]

from corpus import ALL_FRESH, CORPUS  # noqa: E402 - the corpus lives with the tests
from zone_scorer import Row, run, table, totals  # noqa: E402


def process_ms(root: Path, reps: int) -> float:
    """Median wall time (ms) of a fresh ``recover --preview --json`` in ``root``."""
    cmd = [*VIBFLOW, "recover", "--preview", "--json"]
    subprocess.run(cmd, cwd=root, env=GIT_ENV, capture_output=True, check=True)  # warm-up
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        subprocess.run(cmd, cwd=root, env=GIT_ENV, capture_output=True, check=True)
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--process", action="store_true", help="also time a fresh CLI process")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--out", type=Path, help="write the Markdown report here too")
    parser.add_argument(
        "--hooks", action="store_true", help="the agent's edits are turns the hooks record"
    )
    args = parser.parse_args()
    compile_installed()
    with tempfile.TemporaryDirectory(prefix="vibflow-zone-") as tmp:
        base = Path(tmp)
        rows: list[Row] = run(CORPUS, base, hooks=args.hooks)
        fresh: list[Row] = run(ALL_FRESH, base, hooks=args.hooks)
        report = table(rows + fresh)
        if args.process:
            per = {s.name: process_ms(base / s.name / "repo", args.reps) for s in CORPUS}
            report += (
                f"\nFresh `vibflow recover --preview --json` per scenario (median of {args.reps}): "
                f"median {statistics.median(per.values()):.0f} ms, "
                f"min {min(per.values()):.0f} ms, max {max(per.values()):.0f} ms.\n"
            )
    commit = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    header = (
        f"Command: `.venv/bin/python benchmarks/zone_quality.py"
        f"{' --process' if args.process else ''}{' --hooks' if args.hooks else ''}` · "
        f"{datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')} · commit {commit}\n\n"
    )
    print(header + report)
    if args.out:
        args.out.write_text(header + report, encoding="utf-8")
    failed = totals(rows).failures()
    if failed:
        raise SystemExit("thresholds not met: " + "; ".join(failed))


if __name__ == "__main__":
    main()
