"""Guarded-apply restore speed: vibflow's per-file restore against ``git restore``.

The script builds a repository of ``--files`` small text files to restore (default
1,000, about 1 KB each) plus ``--untouched`` more that no one changes (default
1,000), commits it, takes a checkpoint with ``vibflow checkpoint create``, then
modifies every one of the ``--files`` files. Each repetition puts the same
modified content back first (untimed), so every measurement starts from the same
state. In the same run, medians of ``--reps`` repetitions after one discarded
warm-up, in a rotating order:

* **git restore** — ``git restore --source=<checkpoint commit> -- <paths>`` as a
  subprocess (the floor: git writes the files, no fsync, no lock);
* **vibflow restore (library)** — what the apply step does, without the flow, in
  this process: ``LeaseFile(...).acquire()``, ``restore.plan`` (``ls-tree``),
  ``restore.read_blobs`` (one ``cat-file --batch``), then for every file
  ``lease.check()`` and ``restore.write(..., lease.commit)`` (temp file, fsync,
  mode, rename under the lease mutex), and ``release()``;
* **vibflow step confirm (CLI)** — ``vibflow step RUN confirm --input
  confirmation=...`` as a user runs it, a fresh process: guards (lease
  acquisition, sandwich check, path contract), then the apply step (sandwich
  comparison, journal progress per file, renewals) and the result step. The run
  is brought to ``confirm`` before the timer starts (``vibflow run recover`` and
  ``vibflow step RUN choose``, which takes the sandwich checkpoint).

Every measurement is checked afterwards: all files back to the checkpoint's content
(the CLI row included: the flow restores the option's full path list).

``--breakdown`` times the library restore's phases (lease, ``plan``, ``read_blobs``,
per-file checks, per-file writes); ``--profile`` adds a cProfile of one library
restore and one CLI confirm (top functions by own time).

Goal: vibflow ≤ 1.5 x ``git restore``.

Usage (from the repository root, with the dev venv)::

    .venv/bin/python benchmarks/apply_speed.py [--files 1000] [--reps 5] [--breakdown]
        [--profile] [--json]
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import io
import json
import os
import platform
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchkit import APPLY_ENV, VIBFLOW, compile_installed, git, module_bytes, timed

from vibflow.steps.checkpoints import restore
from vibflow.steps.recovery.lease import LeaseFile
from vibflow.steps.workspace.git import Git

GOAL_RATIO = 1.5
VF_ENV = APPLY_ENV


def vibflow(root: Path, *args: str) -> dict[str, Any]:
    proc = subprocess.run(
        [*VIBFLOW, *args, "--json"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
        env=VF_ENV,
        stdin=subprocess.DEVNULL,
    )
    if proc.returncode != 0:
        raise SystemExit(f"vibflow {' '.join(args)} failed: {proc.stdout[-800:]} {proc.stderr}")
    data = json.loads(proc.stdout)
    assert isinstance(data, dict)
    return data


class Repo:
    """The benchmark repository: files to restore, untouched files, the checkpoint."""

    def __init__(self, root: Path, files: int, untouched: int) -> None:
        self.root = root
        self.paths = [f"app/p{i // 100:02d}/m{i:04d}.py" for i in range(files)]
        self.others = [f"lib/q{i // 100:02d}/u{i:04d}.py" for i in range(untouched)]
        for n, rel in enumerate(self.paths + self.others):
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(module_bytes(n, "original"))
        git(root, "init", "-q", "-b", "main")
        git(root, "config", "gc.auto", "0")
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", "generated")
        meta = vibflow(root, "checkpoint", "create")
        self.checkpoint_id: str = meta["checkpoint_id"]
        self.commit: str = meta["commit"]
        self.original = {
            rel: hashlib.sha256(module_bytes(n, "original")).hexdigest()
            for n, rel in enumerate(self.paths)
        }
        time.sleep(0.05)  # the agent's edits come after the checkpoint
        self.modify()

    def modify(self) -> None:
        """Put every restorable file back to the agent's version (untimed)."""
        for n, rel in enumerate(self.paths):
            (self.root / rel).write_bytes(module_bytes(n, "modified by the agent"))

    def restored_count(self) -> int:
        return sum(
            1
            for rel in self.paths
            if hashlib.sha256((self.root / rel).read_bytes()).hexdigest() == self.original[rel]
        )

    def check_all_restored(self, what: str) -> None:
        got = self.restored_count()
        if got != len(self.paths):
            raise SystemExit(f"{what} restored {got} of {len(self.paths)} files")


# -- the three ways to restore ------------------------------------------------------------------


def git_restore(repo: Repo) -> None:
    git(repo.root, "restore", f"--source={repo.commit}", "--", *repo.paths)


def vibflow_library(repo: Repo) -> None:
    """The apply step's restore without the flow: lease, plan, blobs, batched restore."""
    g = Git(repo.root)
    lease = LeaseFile(repo.root / ".vibflow" / "recovery", ttl_seconds=60).acquire(
        f"op_{uuid.uuid4().hex}"
    )
    items = restore.plan(g, repo.commit, repo.paths)
    blobs = restore.read_blobs(g, [i.sha for i in items if i.sha and i.action == "write"])
    restore.restore_items(
        repo.root,
        [(i, blobs.get(i.sha or "")) for i in items],
        lease.commit,
        on_batch=lease.renew_if_due,
        tag=lease.record.generation,
        scratch=lease.file.folder,
    )
    lease.release()


class CliCase:
    """A recover run brought to ``confirm`` (untimed), then confirmed (timed)."""

    def __init__(self, repo: Repo) -> None:
        run = vibflow(repo.root, "run", "recover")
        option = next(o for o in run["plan"]["options"] if o["level"] == 4)
        at = vibflow(
            repo.root, "step", run["run_id"], "choose", "--input", f"option={option['option_id']}"
        )
        assert (at["status"], at["state"]) == ("waiting", "confirm"), at["status"]
        self.run_id: str = run["run_id"]
        self.sandwich: str = at["sandwich_checkpoint_id"]
        self.confirmation: str = at["confirmation_expected"]
        assert self.confirmation == f"APPLY {repo.checkpoint_id}", self.confirmation
        self.paths_total: int = at["paths_total"]

    def argv(self) -> list[str]:
        return [
            "step",
            self.run_id,
            "confirm",
            "--input",
            f"confirmation={self.confirmation}",
            "--json",
        ]

    def confirm(self, repo: Repo) -> None:
        proc = subprocess.run(
            [*VIBFLOW, *self.argv()],
            cwd=repo.root,
            capture_output=True,
            text=True,
            check=False,
            env=VF_ENV,
            stdin=subprocess.DEVNULL,
        )
        if proc.returncode != 0:
            raise SystemExit(f"confirm failed: {proc.stdout[-1500:]} {proc.stderr}")
        done = json.loads(proc.stdout)
        if done["status"] != "done":
            raise SystemExit(f"confirm ended {done['status']}: {done.get('result')}")

    def forget_sandwich(self, repo: Repo) -> None:
        """Drop this run's sandwich (untimed): it holds the agent's version and predates the
        next repetition's edits, so the advisor would offer it as the safe checkpoint."""
        git(repo.root, "update-ref", "-d", f"refs/vibflow/checkpoints/{self.sandwich}")


# -- measuring ------------------------------------------------------------------------------------


def measure(repo: Repo, reps: int) -> tuple[dict[str, list[float]], int]:
    out: dict[str, list[float]] = {"git_restore": [], "vibflow_library": [], "vibflow_cli": []}
    restored_by_cli = 0

    def run_git(keep: bool) -> None:
        repo.modify()
        ms = timed(lambda: git_restore(repo))
        repo.check_all_restored("git restore")
        if keep:
            out["git_restore"].append(ms)

    def run_library(keep: bool) -> None:
        repo.modify()
        ms = timed(lambda: vibflow_library(repo))
        repo.check_all_restored("vibflow restore (library)")
        if keep:
            out["vibflow_library"].append(ms)

    def run_cli(keep: bool) -> None:
        nonlocal restored_by_cli
        repo.modify()
        case = CliCase(repo)
        repo.modify()  # the sandwich only read the tree; start from the same bytes anyway
        ms = timed(lambda: case.confirm(repo))
        restored_by_cli = repo.restored_count()
        case.forget_sandwich(repo)
        repo.check_all_restored("vibflow step confirm")
        if keep:
            out["vibflow_cli"].append(ms)

    order = [run_git, run_library, run_cli]
    for rep in range(reps + 1):  # repetition 0 is the discarded warm-up
        for fn in order[rep % 3 :] + order[: rep % 3]:
            fn(rep > 0)
    return out, restored_by_cli


PHASES = ("acquire", "plan", "read_blobs", "restore", "release")


def _phases_once(repo: Repo) -> dict[str, float]:
    g = Git(repo.root)
    spent = dict.fromkeys(PHASES, 0.0)

    def clock(name: str, fn: Callable[[], Any]) -> Any:
        t0 = time.perf_counter_ns()
        value = fn()
        spent[name] += (time.perf_counter_ns() - t0) / 1e6
        return value

    lease_file = LeaseFile(repo.root / ".vibflow" / "recovery", ttl_seconds=60)
    lease = clock("acquire", lambda: lease_file.acquire(f"op_{uuid.uuid4().hex}"))
    items = clock("plan", lambda: restore.plan(g, repo.commit, repo.paths))
    shas = [i.sha for i in items if i.sha and i.action == "write"]
    blobs = clock("read_blobs", lambda: restore.read_blobs(g, shas))
    work = [(i, blobs.get(i.sha or "")) for i in items]
    clock(
        "restore",
        lambda: restore.restore_items(
            repo.root,
            work,
            lease.commit,
            on_batch=lease.renew_if_due,
            tag=lease.record.generation,
            scratch=lease.file.folder,
        ),
    )
    clock("release", lease.release)
    return spent


def breakdown(repo: Repo, reps: int) -> dict[str, float]:
    """Where the library restore's time goes (medians over ``reps`` restores, ms): lease
    acquire/release, ``plan`` (ls-tree and matching), ``read_blobs``, the per-file
    ``lease.check()`` calls, and the per-file ``restore.write`` calls (compare, temp file,
    fsync, chmod, rename under the lease mutex)."""
    runs: list[dict[str, float]] = []
    for _ in range(reps):
        repo.modify()
        runs.append(_phases_once(repo))
        repo.check_all_restored("breakdown")
    return {name: round(statistics.median(r[name] for r in runs), 1) for name in PHASES}


def profile(repo: Repo, top: int = 14) -> dict[str, str]:
    """cProfile of one library restore (in process) and one CLI confirm (a subprocess)."""
    reports: dict[str, str] = {}
    repo.modify()
    prof = cProfile.Profile()
    prof.runcall(vibflow_library, repo)
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(top)
    reports["vibflow_library"] = buf.getvalue()
    repo.modify()
    case = CliCase(repo)
    repo.modify()
    with tempfile.NamedTemporaryFile(suffix=".prof", delete=False) as fh:
        dump = Path(fh.name)
    subprocess.run(
        [sys.executable, "-m", "cProfile", "-o", str(dump), "-m", "vibflow", *case.argv()],
        cwd=repo.root,
        env=VF_ENV,
        capture_output=True,
        check=True,
        stdin=subprocess.DEVNULL,
    )
    buf = io.StringIO()
    pstats.Stats(str(dump), stream=buf).sort_stats("tottime").print_stats(top)
    reports["vibflow_cli"] = buf.getvalue()
    dump.unlink()
    case.forget_sandwich(repo)
    return reports


def startup_ms(reps: int = 5) -> float:
    """``vibflow --help``: interpreter and CLI import only, for reading the CLI row."""
    runs = [
        timed(
            lambda: subprocess.run(
                [*VIBFLOW, "--help"], capture_output=True, check=True, env=VF_ENV
            )
        )
        for _ in range(reps)
    ]
    return statistics.median(runs)


def render(doc: dict[str, Any]) -> None:
    meta, med = doc["meta"], doc["median_ms"]
    print(f"date (UTC): {meta['date_utc']}")
    print(f"command:    {meta['command']}")
    print(
        f"machine:    {meta['cpus']} CPUs, {meta['platform']}, Python {meta['python']}, "
        f"git {meta['git']}, load {meta['load']}"
    )
    print(
        f"repository: {doc['files']} files restored (+{doc['untouched']} untouched), "
        f"{doc['reps']} repetitions (median ms, after one warm-up)\n"
    )
    base = med["git_restore"]
    rows = [
        ("git restore --source=<commit> -- <paths>", "git_restore"),
        ("vibflow restore (library: lease + atomic writes)", "vibflow_library"),
        ("vibflow step RUN confirm (CLI, fresh process)", "vibflow_cli"),
    ]
    print(f"| {'what':<50} | {'median ms':>10} | {'min..max':>17} | {'x git':>6} |")
    print(f"|{'-' * 52}|{'-' * 12}:|{'-' * 19}:|{'-' * 7}:|")
    for label, key in rows:
        lo, hi = min(doc["runs_ms"][key]), max(doc["runs_ms"][key])
        print(
            f"| {label:<50} | {med[key]:>10.1f} | {lo:>7.1f}..{hi:>8.1f} | "
            f"{med[key] / base:>5.2f}x |"
        )
    print(f"\nvibflow --help (startup only): {doc['startup_ms']:.1f} ms")
    if "breakdown_ms" in doc:
        parts = ", ".join(f"{k} {v:.1f}" for k, v in doc["breakdown_ms"].items())
        print(f"library restore breakdown (median ms): {parts}")
    print(f"CLI run restored {doc['cli_restored']} of {doc['files']} files")
    for key in ("vibflow_library", "vibflow_cli"):
        verdict = "met" if med[key] <= GOAL_RATIO * base else "missed"
        print(f"goal <= {GOAL_RATIO}x git restore, {key}: {verdict}")
    for name, text in doc.get("profile", {}).items():
        print(f"\n-- profile: {name} (sorted by own time) --\n{text}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Guarded-apply restore speed against git.")
    parser.add_argument("--files", type=int, default=1000, help="files to restore")
    parser.add_argument("--untouched", type=int, default=1000, help="files nobody changes")
    parser.add_argument("--reps", type=int, default=5, help="timed repetitions")
    parser.add_argument("--profile", action="store_true", help="add cProfile reports")
    parser.add_argument(
        "--breakdown", action="store_true", help="time the library restore's phases"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args(argv)
    compile_installed()
    with tempfile.TemporaryDirectory(prefix="vibflow-apply-bench-") as tmp:
        root = Path(tmp) / "project"
        root.mkdir()
        repo = Repo(root, args.files, args.untouched)
        runs, cli_restored = measure(repo, args.reps)
        doc: dict[str, Any] = {
            "meta": {
                "date_utc": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
                "command": " ".join([Path(sys.executable).name, *sys.argv]),
                "git": git(root, "--version").split()[-1],
                "python": platform.python_version(),
                "platform": platform.platform(),
                "cpus": os.cpu_count(),
                "load": " ".join(f"{x:.2f}" for x in os.getloadavg()),
            },
            "files": args.files,
            "untouched": args.untouched,
            "reps": args.reps,
            "runs_ms": runs,
            "median_ms": {k: statistics.median(v) for k, v in runs.items()},
            "startup_ms": startup_ms(),
            "cli_restored": cli_restored,
        }
        base = doc["median_ms"]["git_restore"]
        doc["ratio"] = {k: round(v / base, 2) for k, v in doc["median_ms"].items()}
        if args.breakdown:
            doc["breakdown_ms"] = breakdown(repo, max(3, args.reps))
        if args.profile:
            doc["profile"] = profile(repo)
    if args.json:
        print(json.dumps(doc, indent=2))
    else:
        render(doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
