"""``vibflow recover --explain`` speed against ``git status``, and its growth.

For each repository size (default 20,000 files in 400 folders, then 100,000
files in 1,000 folders) the script builds a repository of small text files in
folders spread over the policy's path categories (``src/ui``,
``src/services``, ``lib``, ``tests``, ``docs``), commits and packs it, then
modifies 2.5 % of the tracked files and adds 0.5 % untracked ones (500 + 100
at 20k, 2,500 + 500 at 100k). Memory gets an active intent, a few explicit
relevant files (one of them a folder) and one observed patch, so the intent
zone, the category step and drift all do real work. The work tree is then
backdated and the index refreshed, so no measured command finds stat-dirty or
racily-clean entries to rewrite.

In the same run, each a median of ``--reps`` after one discarded warm-up:

* **git status** — ``git status --porcelain`` (git's own listing, the floor);
* **git status -uall** — the same, listing untracked files one by one as
  vibflow does;
* **vibflow startup** — ``vibflow --help`` (interpreter and CLI import only);
* **recover --explain** — ``vibflow recover --explain --json`` as a user runs
  it: a fresh process, git subprocesses, memory, checkpoints, planning,
  redaction, the audit row.

Then 1, 4 and 20 checkpoints are created (``vibflow checkpoint create``; one
already-modified file gets new content before each, so none is a reused
no-change checkpoint and the change counts stay the same) and ``recover
--explain`` is measured again after each step: it should stay flat in the
number of checkpoints (the peer went from 0.55 s to 24 s with four). Goal:
``recover --explain`` ≤ 2 x ``git status`` + 0.3 s at every point.

Last, every file of the work tree is written again with the same bytes (what
a formatter, a checkout or a restore does): git must hash each stat-dirty file
again until an index is refreshed. ``git status`` refreshes the user's index;
a preview never writes it, and keeps the refresh its own diff made in its index
copy instead (``steps/recovery/refreshed_index.py``). Measured: the first
``recover --explain`` after the touch, then the median of ``--reps`` more (same
goal, against ``git status`` once it has refreshed the index), and ``git status``
under ``GIT_OPTIONAL_LOCKS=0`` (it may not write the index: every run hashes).

Usage (from the repository root, with the dev venv)::

    .venv/bin/python benchmarks/recover_speed.py [--files N] [--reps 7] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchkit import GIT_ENV, VIBFLOW, compile_installed, default_dirs, git

DEFAULT_SIZES = (20_000, 100_000)
CHECKPOINT_STEPS = (1, 4, 20)
GOAL_FACTOR = 2.0
GOAL_SLACK_S = 0.3
AREAS = ("src/ui", "src/services", "lib", "tests", "docs")


def run(
    cmd: list[str], cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        cmd, cwd=cwd, capture_output=True, text=True, check=False, env={**GIT_ENV, **(env or {})}
    )
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.strip()}")
    return proc


def median_s(cmd: list[str], cwd: Path, reps: int, env: dict[str, str] | None = None) -> float:
    """Median wall time of ``cmd`` in seconds, after one discarded warm-up run."""
    run(cmd, cwd, env)
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        run(cmd, cwd, env)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _text(i: int, tag: str = "v1") -> str:
    return f"# file {i} {tag}\n" + "".join(f"line {j} of file {i}\n" for j in range(8))


class Layout:
    """Which files exist, which are modified, which are untracked, what memory names."""

    def __init__(self, files: int, dirs: int) -> None:
        self.files = files
        self.dirs = dirs
        self.modified = files * 25 // 1000
        self.untracked = files * 5 // 1000
        # Spread over the folders: consecutive picks land in different folders.
        step = max(1, files // max(1, self.modified))
        self.modified_ids = [k * step + k % step for k in range(self.modified)]

    def folder(self, d: int) -> str:
        return f"{AREAS[d % len(AREAS)]}/pkg{d:04d}"

    def path(self, i: int) -> str:
        return f"{self.folder(i % self.dirs)}/mod_{i:06d}.py"

    def untracked_path(self, k: int) -> str:
        return f"{self.folder((k * 7) % self.dirs)}/new_{k:05d}.py"

    def explicit(self) -> dict[str, str]:
        ui = [i for i in self.modified_ids if self.path(i).startswith("src/ui/")][:4]
        out = {self.path(i): f"screen {i} being reworked" for i in ui}
        out[self.folder(0)] = "the whole first UI package"
        return out


def build(root: Path, layout: Layout) -> dict[str, float]:
    """Create, commit and pack the repository, then apply the workload. Returns timings
    of the setup steps (seconds) for the report."""
    setup: dict[str, float] = {}
    t0 = time.perf_counter()
    for d in range(layout.dirs):
        (root / layout.folder(d)).mkdir(parents=True)
    for i in range(layout.files):
        (root / layout.path(i)).write_text(_text(i), encoding="utf-8")
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "gc.auto", "0")  # no background gc racing the measurements
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "generated")
    git(root, "gc", "-q")
    setup["create_commit_pack_s"] = time.perf_counter() - t0
    for i in layout.modified_ids:
        (root / layout.path(i)).write_text(_text(i, "changed by the agent"), encoding="utf-8")
    for k in range(layout.untracked):
        (root / layout.untracked_path(k)).write_text(_text(k, "new"), encoding="utf-8")
    write_memory(root, layout)
    settle(root)
    return setup


def write_memory(root: Path, layout: Layout) -> None:
    now = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    data = {
        "schema_version": 1,
        "active_intent": {
            "text": "Rework the first UI screens",
            "last_updated": now,
            "updated_by": "cli",
        },
        "relevant_files": [
            {"path": p, "why": why, "source": "explicit", "last_updated": now, "updated_by": "cli"}
            for p, why in layout.explicit().items()
        ],
        "observed_context": [
            {
                "kind": "patch_apply",
                "at": now,
                "source": "hook",
                "detail": {"paths": [layout.path(layout.modified_ids[-1])]},
            }
        ],
    }
    state = root / ".vibflow"
    state.mkdir(exist_ok=True)
    (state / ".gitignore").write_text("*\n", encoding="utf-8")
    (state / "memory.json").write_text(json.dumps(data), encoding="utf-8")


def settle(root: Path) -> None:
    """Backdate the work tree and refresh the index: nothing stat-dirty or racy is left
    for any measured command to rewrite, so every side starts from the same index."""
    past = time.time() - 120
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in (".git", ".vibflow")]
        for name in filenames:
            os.utime(Path(dirpath, name), (past, past))
    git(root, "update-index", "-q", "--refresh")


def touch_all(root: Path) -> None:
    """Every work-tree file written again with the same bytes, as a formatter or a
    checkout leaves it: same content, new modification time (so stat-dirty)."""
    now = time.time()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in (".git", ".vibflow")]
        for name in filenames:
            os.utime(Path(dirpath, name), (now, now))


def after_touch(root: Path, recover: list[str], reps: int) -> dict[str, float]:
    """``recover --explain`` after every file was touched: the first run, then the
    next ones; then ``git status`` without and with writing the index."""
    touch_all(root)
    t0 = time.perf_counter()
    run(recover, root)
    first = time.perf_counter() - t0
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        run(recover, root)
        times.append(time.perf_counter() - t0)
    no_write = median_s(
        ["git", "-C", str(root), "status", "--porcelain"],
        root,
        reps,
        env={"GIT_OPTIONAL_LOCKS": "0"},
    )
    t0 = time.perf_counter()
    run(["git", "-C", str(root), "status", "--porcelain"], root)
    status_first = time.perf_counter() - t0
    return {
        "recover_first_s": first,
        "recover_next_s": statistics.median(times),
        "git_status_no_index_write_s": no_write,
        "git_status_first_s": status_first,
    }


def checkpoint(root: Path, layout: Layout, n: int) -> None:
    """One new (never reused) checkpoint: give one already-modified file new content first."""
    target = root / layout.path(layout.modified_ids[n % len(layout.modified_ids)])
    target.write_text(_text(n, f"checkpoint round {n}"), encoding="utf-8")
    run([*VIBFLOW, "checkpoint", "create", "-m", f"bench {n}", "--json"], root)


def checkpoint_count(root: Path) -> int:
    out = git(root, "for-each-ref", "--format=%(refname)", "refs/vibflow/checkpoints/")
    return len(out.split())


def plan_counts(root: Path) -> dict[str, int]:
    plan = json.loads(run([*VIBFLOW, "recover", "--explain", "--json"], root).stdout)
    changed = {c["path"] for c in plan["changed"] if not c["generated"]}
    return {
        "changed": len(changed),
        "zone_entries": len(plan["intent_zone"]),
        "in_zone_changed": sum(1 for z in plan["intent_zone"] if z["path"] in changed),
        "drift": len(plan["drift_candidates"]),
        "generated": len(plan["excluded_generated"]),
    }


def git_calls_s(root: Path, reps: int) -> float:
    """The git listings the advisor runs, back to back (its git floor): HEAD, the
    diff (names and line counts in one run), untracked files, recent commits."""
    head = git(root, "rev-parse", "HEAD").strip()
    calls = [
        ["rev-parse", "--verify", "-q", "HEAD"],
        ["diff", "-z", "-M", "--raw", "--numstat", head, "--"],
        ["ls-files", "-z", "--others", "--exclude-standard"],
        ["log", "-n", "10", "--first-parent", "-z", "--name-only", "--since=14.days", head],
    ]
    env = {**GIT_ENV, "GIT_OPTIONAL_LOCKS": "0"}

    def once() -> None:
        for args in calls:
            subprocess.run(
                ["git", "-C", str(root), *args], capture_output=True, env=env, check=True
            )

    once()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        once()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def advise_inprocess_s(root: Path, reps: int) -> float:
    """``RecoveryAdvisor.advise()`` in this process (no interpreter start, no imports,
    no audit row): collecting, planning and redacting only."""
    from vibflow.wiring import Project

    Project(root).recovery.advise()
    times = []
    for _ in range(reps):
        project = Project(root)
        t0 = time.perf_counter()
        project.recovery.advise()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def measure(files: int, dirs: int, reps: int, keep: bool) -> dict[str, Any]:
    layout = Layout(files, dirs)
    tmp = Path(tempfile.mkdtemp(prefix=f"vibflow-recover-bench-{files}-"))
    root = tmp / "repo"
    root.mkdir()
    try:
        setup = build(root, layout)
        recover = [*VIBFLOW, "recover", "--explain", "--json"]
        status = median_s(["git", "-C", str(root), "status", "--porcelain"], root, reps)
        status_uall = median_s(
            ["git", "-C", str(root), "status", "--porcelain", "-uall"], root, reps
        )
        startup = median_s([*VIBFLOW, "--help"], root, reps)
        counts = plan_counts(root)
        git_floor = git_calls_s(root, reps)
        inprocess = advise_inprocess_s(root, reps)
        rows = [{"checkpoints": 0, "recover_s": median_s(recover, root, reps)}]
        made = 0
        for target in CHECKPOINT_STEPS:
            t0 = time.perf_counter()
            while made < target:
                made += 1
                checkpoint(root, layout, made)
            create_s = (time.perf_counter() - t0) / max(1, target - rows[-1]["checkpoints"])
            if checkpoint_count(root) != target:
                raise SystemExit(f"expected {target} checkpoints, found {checkpoint_count(root)}")
            settle(root)
            rows.append(
                {
                    "checkpoints": target,
                    "recover_s": median_s(recover, root, reps),
                    "checkpoint_create_s": create_s,
                }
            )
        touched = after_touch(root, recover, reps)
        goal = GOAL_FACTOR * status + GOAL_SLACK_S
        return {
            "files": files,
            "dirs": dirs,
            "modified": layout.modified,
            "untracked": layout.untracked,
            "plan": counts,
            "setup": setup,
            "git_status_s": status,
            "git_status_uall_s": status_uall,
            "vibflow_startup_s": startup,
            "advisor_git_calls_s": git_floor,
            "advise_inprocess_s": inprocess,
            "goal_s": goal,
            "rows": rows,
            "touched": touched,
            "goal_met": all(r["recover_s"] <= goal for r in rows)
            and touched["recover_next_s"] <= goal,
            "flat_ratio": rows[-1]["recover_s"] / rows[0]["recover_s"],
            "repo": str(root) if keep else None,
        }
    finally:
        if not keep:
            shutil.rmtree(tmp, ignore_errors=True)


def environment() -> dict[str, str]:
    return {
        "date_utc": datetime.now(UTC).strftime("%Y-%m-%dT%H:%MZ"),
        "python": platform.python_version(),
        "git": subprocess.run(
            ["git", "--version"], capture_output=True, text=True, check=False
        ).stdout.strip(),
        "cpus": str(os.cpu_count()),
        "platform": platform.platform(),
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
    }


def render(env: dict[str, str], results: list[dict[str, Any]]) -> str:
    out = [
        f"recover --explain speed — {env['date_utc']}, {env['cpus']} CPUs, "
        f"Python {env['python']}, {env['git']}",
        f"command: {env['command']}",
        "",
    ]
    for r in results:
        p = r["plan"]
        out += [
            f"{r['files']:,} files in {r['dirs']:,} folders, {r['modified']:,} modified, "
            f"{r['untracked']:,} untracked (plan: {p['changed']:,} changed, "
            f"{p['in_zone_changed']:,} in zone, {p['drift']:,} drift, "
            f"{p['zone_entries']:,} zone entries)",
            f"  git status --porcelain        {r['git_status_s']:.3f} s",
            f"  git status --porcelain -uall  {r['git_status_uall_s']:.3f} s",
            f"  vibflow --help (startup)      {r['vibflow_startup_s']:.3f} s",
            f"  advisor's git calls           {r['advisor_git_calls_s']:.3f} s",
            f"  advise() in-process           {r['advise_inprocess_s']:.3f} s",
            f"  goal: 2 x git status + 0.3 s  {r['goal_s']:.3f} s",
            "",
            "  | checkpoints | recover --explain --json | vs git status | create (each) | goal |",
            "  |---:|---:|---:|---:|:---:|",
        ]
        for row in r["rows"]:
            create = row.get("checkpoint_create_s")
            out.append(
                f"  | {row['checkpoints']} | {row['recover_s']:.3f} s "
                f"| {row['recover_s'] / r['git_status_s']:.1f}x "
                f"| {'—' if create is None else f'{create:.3f} s'} "
                f"| {'met' if row['recover_s'] <= r['goal_s'] else 'MISSED'} |"
            )
        t = r["touched"]
        out += [
            f"  flat in checkpoints: {CHECKPOINT_STEPS[-1]} vs 0 = {r['flat_ratio']:.2f}x",
            f"  every file touched (same bytes), {CHECKPOINT_STEPS[-1]} checkpoints: "
            f"recover --explain first {t['recover_first_s']:.3f} s, then "
            f"{t['recover_next_s']:.3f} s "
            f"({'met' if t['recover_next_s'] <= r['goal_s'] else 'MISSED'}); git status "
            f"without writing the index {t['git_status_no_index_write_s']:.3f} s each, "
            f"first that writes it {t['git_status_first_s']:.3f} s",
            "",
        ]
    if len(results) > 1:
        a, b = results[0], results[-1]
        scale = b["files"] / a["files"]
        out.append(
            f"growth {a['files']:,} → {b['files']:,} files ({scale:.0f}x): recover "
            f"{b['rows'][0]['recover_s'] / a['rows'][0]['recover_s']:.2f}x, git status "
            f"{b['git_status_s'] / a['git_status_s']:.2f}x"
        )
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--files",
        type=int,
        action="append",
        help="repository size in files (repeatable; default 20000 then 100000)",
    )
    parser.add_argument("--dirs", type=int, help="folders (default: files/50 up to 20k, else /100)")
    parser.add_argument("--reps", type=int, default=7, help="timed runs per measure (median)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--keep", action="store_true", help="keep the generated repositories")
    args = parser.parse_args(argv)
    compile_installed()
    sizes = args.files or list(DEFAULT_SIZES)
    env = environment()
    results = []
    for n in sizes:
        dirs = args.dirs or default_dirs(n)
        if not args.json:
            print(f"building and measuring {n:,} files in {dirs:,} folders ...", file=sys.stderr)
        results.append(measure(n, dirs, args.reps, args.keep))
    if args.json:
        print(json.dumps({"environment": env, "results": results}, indent=2))
    else:
        print(render(env, results), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
