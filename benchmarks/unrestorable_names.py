"""What leaving unrestorable names out of a recovery plan costs, per changed file.

Every plan now asks the path contract's no-filesystem rules (``contract.refusal``,
through ``restorable.unrestorable``) about each changed file and each rename's
old name, so a name the confirmation would refuse is never offered. This times
that screen over N changed files (a few renames and a few odd names among
them) against, in the same run, the baseline it sits beside: building the
plan's options from the same changes (``options.build_options``). Also timed,
for scale: the screen without its plain-ASCII fast path (every name through
every stage), which is what asking the contract name by name would cost.

    .venv/bin/python benchmarks/unrestorable_names.py [--files 20000] [--reps 15]
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from collections.abc import Callable

from vibflow.steps.paths import contract
from vibflow.steps.paths.contract import DEFAULT_POLICY
from vibflow.steps.recovery.models import ChangedFile, DriftCandidate, SafeCheckpointCandidate
from vibflow.steps.recovery.options import build_options
from vibflow.steps.recovery.restorable import unrestorable

SAFE = SafeCheckpointCandidate(
    checkpoint_id="ckpt_" + "1" * 32,
    created_at="2026-01-01T00:00:00Z",
    predates_change=True,
    metadata_complete=True,
)


def changes(n: int) -> list[ChangedFile]:
    """``n`` changed files in 100 folders: one in 50 renamed, one in 500 oddly named."""
    out = []
    for i in range(n):
        path = f"src/pkg_{i % 100}/module_number_{i}.py"
        if i % 500 == 7:
            out.append(ChangedFile(path=f"notes/draft\t{i}.md", status="untracked"))
        elif i % 50 == 3:
            out.append(ChangedFile(path=path, status="renamed", old_path=f"old/{i}.py"))
        else:
            out.append(ChangedFile(path=path, status="modified"))
    return out


def median_ms(fn: Callable[[], object], reps: int) -> float:
    fn()  # warm: regex compilation, caches
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=20_000)
    parser.add_argument("--reps", type=int, default=15)
    args = parser.parse_args()
    changed = changes(args.files)
    drift = [DriftCandidate(path=c.path, why_outside_zone="outside") for c in changed]
    left = unrestorable(changed, DEFAULT_POLICY)

    def options() -> object:
        return build_options(changed, drift, SAFE, apply_blocked_reason=None, unsaved=set(left))

    screen = median_ms(lambda: unrestorable(changed, DEFAULT_POLICY), args.reps)
    baseline = median_ms(options, args.reps)
    plain = contract._PLAIN  # the stages alone: a fast path that never matches
    contract._PLAIN = re.compile(r"(?!)")
    try:
        slow = median_ms(lambda: unrestorable(changed, DEFAULT_POLICY), args.reps)
    finally:
        contract._PLAIN = plain
    print(f"changed files: {args.files:,} ({len(left)} names left out)")
    print(f"build_options (baseline):           {baseline:8.1f} ms")
    print(
        f"unrestorable names screen:          {screen:8.1f} ms  "
        f"({screen / baseline:.2f} x baseline, {screen * 1000 / args.files:.2f} µs per file)"
    )
    print(
        f"  same, without the plain fast path: {slow:8.1f} ms  ({slow / baseline:.2f} x baseline)"
    )


if __name__ == "__main__":
    main()
