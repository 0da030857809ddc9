"""Checkpoint speed and growth: vibflow's ``CheckpointStore`` against raw git.

For each repository size (default 20,000 files in 400 folders, then 100,000
files in 1,000 folders) the script builds a repository of small text files,
commits and packs it, then modifies 2.5 % of the tracked files and adds 0.5 %
untracked files (500 + 100 at 20k, 2,500 + 500 at 100k) and refreshes the
index outside git's racy window. That ``.git`` is saved as a template. Each
repetition restores the template ``.git`` (so objects written by an earlier
repetition never make a later one cheaper) and removes ``.vibflow/``; the work
tree is shared. One repetition times, in a rotating order:

* **vibflow first** — ``CheckpointStore.create`` in-process, first checkpoint
  (the user's index is copied to the private index, changed files hashed);
* **raw plumbing** — ``cp .git/index tmp; GIT_INDEX_FILE=tmp git add -A;
  git write-tree; git commit-tree`` (the floor vibflow is built on);
* **git stash create** — git's own snapshot (tracked files only);

and then, on the vibflow side of the same repetition:

* **vibflow no change** — a second create with nothing changed (reused);
* **git status** — ``git status --porcelain`` in the same state;
* **vibflow +10** — a create after 10 more tracked files changed (private
  index reused: only those are hashed).

A repetition uses its own 10 extra files and puts their content back
afterwards, so every repetition starts from the same content. Medians of
``--reps`` repetitions after one discarded warm-up repetition.

Growth on disk: ``du -sk .git`` on the restored template, after the first
checkpoint, and after 10 more checkpoints of 10 modified files each; plus
``CheckpointStore.size_bytes()`` and the private index's size.

Usage (from the repository root, with the dev venv)::

    .venv/bin/python benchmarks/checkpoint_speed.py [--files N] [--reps 5] [--json]
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

from benchkit import compile_installed, default_dirs, git, timed

from vibflow.steps.checkpoints.store import CheckpointStore
from vibflow.steps.workspace.root import state_dir

DEFAULT_SIZES = (20_000, 100_000)
GOAL_RATIO = 1.2
MEASURES = (
    "vibflow_first",
    "raw_plumbing",
    "stash_create",
    "vibflow_nochange",
    "git_status",
    "vibflow_plus10",
)


def _text(i: int, tag: str = "v1") -> str:
    return f"# file {i} {tag}\n" + "".join(f"line {j} of file {i}\n" for j in range(8))


class Layout:
    """Which files exist, which the workload modifies, and which are untracked."""

    def __init__(self, files: int, dirs: int) -> None:
        self.files = files
        self.dirs = dirs
        self.modified = files * 25 // 1000
        self.untracked = files * 5 // 1000
        step = max(1, files // self.modified) if self.modified else 1
        self.modified_ids = list(range(0, files, step))[: self.modified]
        taken = set(self.modified_ids)
        self.spare_ids = [i for i in range(files) if i not in taken]

    def path(self, i: int) -> str:
        return f"pkg{i % self.dirs:04d}/mod_{i:06d}.py"

    def untracked_path(self, i: int) -> str:
        return f"new{i % max(1, self.dirs // 10):04d}/__pycache__/gen_{i:05d}.txt"


def build(root: Path, layout: Layout) -> Path:
    """The working repository plus a saved template of its ``.git``."""
    work = root / "work"
    for d in range(layout.dirs):
        (work / f"pkg{d:04d}").mkdir(parents=True)
    for i in range(layout.files):
        (work / layout.path(i)).write_text(_text(i), encoding="utf-8")
    git(work, "init", "-q", "-b", "main")
    git(work, "config", "gc.auto", "0")  # no background gc racing the measurements
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "generated")
    git(work, "gc", "-q")
    for i in layout.modified_ids:
        (work / layout.path(i)).write_text(_text(i, "modified by the agent"), encoding="utf-8")
    for i in range(layout.untracked):
        path = work / layout.untracked_path(i)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_text(i, "untracked"), encoding="utf-8")
    time.sleep(1.1)  # leave git's racy-clean window, then store non-racy stat data
    git(work, "update-index", "-q", "--refresh", env={"GIT_OPTIONAL_LOCKS": "1"})
    shutil.copytree(work / ".git", root / "git-template", symlinks=True)
    return work


def restore(root: Path, work: Path) -> None:
    shutil.rmtree(work / ".git")
    shutil.copytree(root / "git-template", work / ".git", symlinks=True)
    shutil.rmtree(work / ".vibflow", ignore_errors=True)


def raw_plumbing(work: Path) -> None:
    tmp = work.parent / "raw-index"
    shutil.copyfile(work / ".git" / "index", tmp)
    env = {"GIT_INDEX_FILE": str(tmp)}
    git(work, "add", "-A", env=env)
    tree = git(work, "write-tree", env=env)
    git(work, "commit-tree", tree, "-p", "HEAD", "-m", "raw snapshot")
    tmp.unlink()


def vibflow_side(work: Path, layout: Layout, rep: int, out: dict[str, list[float]]) -> None:
    store = CheckpointStore(work, state_dir(work))
    first = timed(store.create)
    store = CheckpointStore(work, state_dir(work))
    metas: list[Any] = []
    nochange = timed(lambda: metas.append(store.create()))
    assert metas[-1].reused, "a no-change checkpoint must be reused"
    status = statistics.median(timed(lambda: git(work, "status", "--porcelain")) for _ in range(3))
    extra = layout.spare_ids[rep * 10 : rep * 10 + 10]
    for i in extra:
        (work / layout.path(i)).write_text(_text(i, f"rep {rep}"), encoding="utf-8")
    plus10 = timed(lambda: metas.append(store.create()))
    assert not metas[-1].reused
    for i in extra:
        (work / layout.path(i)).write_text(_text(i), encoding="utf-8")
    out["vibflow_first"].append(first)
    out["vibflow_nochange"].append(nochange)
    out["git_status"].append(status)
    out["vibflow_plus10"].append(plus10)


def one_repetition(
    root: Path, work: Path, layout: Layout, rep: int, out: dict[str, list[float]]
) -> None:
    def run_raw() -> None:
        restore(root, work)
        out["raw_plumbing"].append(timed(lambda: raw_plumbing(work)))

    def run_stash() -> None:
        restore(root, work)
        out["stash_create"].append(timed(lambda: git(work, "stash", "create")))

    def run_vibflow() -> None:
        restore(root, work)
        vibflow_side(work, layout, rep, out)

    order = [run_raw, run_stash, run_vibflow]
    for k in range(len(order)):
        order[(rep + k) % len(order)]()


def du_kb(path: Path) -> int:
    return int(
        subprocess.run(
            ["du", "-sk", str(path)], capture_output=True, text=True, check=True
        ).stdout.split()[0]
    )


def growth(root: Path, work: Path, layout: Layout) -> dict[str, Any]:
    """``du -sk .git`` before, after the first checkpoint and after 10 more."""
    restore(root, work)
    store = CheckpointStore(work, state_dir(work))
    before = du_kb(work / ".git")
    store.create("first")
    after_first = du_kb(work / ".git")
    store_first = store.size_bytes()
    spare = layout.spare_ids[-100:]
    for n in range(10):
        for i in spare[n * 10 : n * 10 + 10]:
            (work / layout.path(i)).write_text(_text(i, f"growth {n}"), encoding="utf-8")
        assert not store.create(f"growth {n}").reused
    after_ten = du_kb(work / ".git")
    for i in spare:
        (work / layout.path(i)).write_text(_text(i), encoding="utf-8")
    return {
        "git_kb_before": before,
        "git_kb_after_first_checkpoint": after_first,
        "git_kb_after_10_more": after_ten,
        "first_checkpoint_kb": after_first - before,
        "ten_checkpoints_kb": after_ten - after_first,
        "per_checkpoint_kb": (after_ten - after_first) / 10,
        "store_bytes_after_first": store_first,
        "store_bytes_after_10_more": store.size_bytes(),
        "store_bytes_per_later_checkpoint": (store.size_bytes() - store_first) // 10,
        "private_index_kb": (work / ".vibflow" / "checkpoints" / "index").stat().st_size // 1024,
        "user_index_kb": (work / ".git" / "index").stat().st_size // 1024,
    }


def measure_size(files: int, dirs: int, reps: int, keep: bool) -> dict[str, Any]:
    layout = Layout(files, dirs)
    root = Path(tempfile.mkdtemp(prefix=f"vibflow-ckpt-{files}-"))
    try:
        t0 = time.monotonic()
        work = build(root, layout)
        build_s = time.monotonic() - t0
        samples: dict[str, list[float]] = {m: [] for m in MEASURES}
        one_repetition(root, work, layout, reps, {m: [] for m in MEASURES})  # warm-up
        for rep in range(reps):
            one_repetition(root, work, layout, rep, samples)
        disk = growth(root, work, layout)
    finally:
        if not keep:
            shutil.rmtree(root, ignore_errors=True)
    median = {m: statistics.median(v) for m, v in samples.items()}
    return {
        "files": files,
        "dirs": dirs,
        "modified": layout.modified,
        "untracked": layout.untracked,
        "reps": reps,
        "build_s": round(build_s, 1),
        "median_ms": {m: round(v, 1) for m, v in median.items()},
        "samples_ms": {m: [round(x, 1) for x in v] for m, v in samples.items()},
        "ratios": {
            "vibflow_first_vs_raw": round(median["vibflow_first"] / median["raw_plumbing"], 2),
            "vibflow_first_vs_stash_create": round(
                median["vibflow_first"] / median["stash_create"], 2
            ),
            "nochange_vs_git_status": round(median["vibflow_nochange"] / median["git_status"], 2),
            "plus10_vs_raw": round(median["vibflow_plus10"] / median["raw_plumbing"], 2),
        },
        "disk": disk,
        "kept_at": str(root) if keep else None,
    }


def render(doc: dict[str, Any]) -> None:
    meta = doc["meta"]
    print(f"checkpoint speed, {meta['date_utc']}, git {meta['git']}, {meta['cpus']} cpus")
    print(f"command: {meta['command']}")
    for r in doc["sizes"]:
        print()
        print(
            f"{r['files']:,} files in {r['dirs']:,} folders, {r['modified']:,} modified, "
            f"{r['untracked']:,} untracked; median of {r['reps']} (build {r['build_s']} s)"
        )
        for m in MEASURES:
            samples = r["samples_ms"][m]
            print(
                f"  {m:<18} {r['median_ms'][m]:>9.1f} ms"
                f"   (min {min(samples):.1f}, max {max(samples):.1f})"
            )
        ratios = r["ratios"]
        goal = "MET" if ratios["vibflow_first_vs_raw"] <= GOAL_RATIO else "MISSED"
        print(f"  vibflow first / raw plumbing   {ratios['vibflow_first_vs_raw']:.2f}x  {goal}")
        goal = "MET" if ratios["nochange_vs_git_status"] <= GOAL_RATIO else "MISSED"
        print(f"  no-change / git status         {ratios['nochange_vs_git_status']:.2f}x  {goal}")
        print(f"  vibflow first / stash create   {ratios['vibflow_first_vs_stash_create']:.2f}x")
        print(f"  vibflow +10 / raw plumbing     {ratios['plus10_vs_raw']:.2f}x")
        d = r["disk"]
        print(
            f"  du -sk .git: {d['git_kb_before']} KB -> {d['git_kb_after_first_checkpoint']} KB "
            f"(first checkpoint) -> {d['git_kb_after_10_more']} KB (10 more, 10 files each: "
            f"{d['per_checkpoint_kb']:.1f} KB each)"
        )
        print(
            f"  store size_bytes: {d['store_bytes_after_first']:,} after the first, "
            f"{d['store_bytes_after_10_more']:,} after 10 more "
            f"({d['store_bytes_per_later_checkpoint']:,} B each); private index "
            f"{d['private_index_kb']} KB (user index {d['user_index_kb']} KB)"
        )
    if doc.get("growth"):
        print()
        print(f"growth {doc['growth']['from']:,} -> {doc['growth']['to']:,} files:")
        for m, x in doc["growth"]["factor"].items():
            print(f"  {m:<18} x{x:.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Checkpoint speed against raw git plumbing.")
    parser.add_argument(
        "--files",
        type=int,
        action="append",
        help="repository size (repeatable); default 20000 then 100000",
    )
    parser.add_argument("--dirs", type=int, help="folders (default: files/50, or /100 above 20k)")
    parser.add_argument("--reps", type=int, default=5, help="timed repetitions per size")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument("--keep", action="store_true", help="keep the generated repositories")
    args = parser.parse_args(argv)
    compile_installed()
    sizes = args.files or list(DEFAULT_SIZES)
    doc: dict[str, Any] = {
        "meta": {
            "date_utc": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "command": " ".join([Path(sys.executable).name, *sys.argv]),
            "git": subprocess.run(
                ["git", "--version"], capture_output=True, text=True, check=True
            ).stdout.split()[-1],
            "python": platform.python_version(),
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
        },
        "sizes": [
            measure_size(n, args.dirs or default_dirs(n), args.reps, args.keep) for n in sizes
        ],
    }
    if len(doc["sizes"]) >= 2:
        small, big = doc["sizes"][0], doc["sizes"][-1]
        doc["growth"] = {
            "from": small["files"],
            "to": big["files"],
            "factor": {m: round(big["median_ms"][m] / small["median_ms"][m], 2) for m in MEASURES},
        }
    if args.json:
        print(json.dumps(doc, indent=2))
    else:
        render(doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
