"""The whole recover flow on a large drift, against ``git restore`` of the same paths.

Builds a repository of ``--files`` tracked files (default 2,000; about 1 KB
each) plus ``--untouched`` more, records an intent with two relevant files,
commits, takes ``vibflow checkpoint create``, then lets a simulated agent
rewrite every one of the ``--files`` files. Then, per repetition (the drift
put back, untimed, before each):

* **vibflow** — the three commands a user types, each a fresh process:
  ``vibflow run recover --json`` (explain → recommend → preview, waits at
  choose), ``vibflow step RUN choose --input option=<full rollback>`` (route
  and the sandwich checkpoint) and ``vibflow step RUN confirm --input
  confirmation="APPLY <ckpt>"`` (guards, the apply, the result); wall time and
  peak memory (max RSS of the process, from ``wait4``) of each;
* **git restore** — ``git restore --source=<checkpoint commit> -- <paths>``
  of the same paths, in the same run (no sandwich, no lock, no fsync: the floor).

Every repetition is checked afterwards: all files back to the checkpoint's content.

Usage (from the repository root, with the dev venv)::

    .venv/bin/python benchmarks/recover_flow.py [--files 2000] [--untouched 500]
        [--reps 3] [--json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchkit import APPLY_ENV, GIT_ENV, VIBFLOW, compile_installed, git, module_bytes

VF_ENV = APPLY_ENV


def measured(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float, str]:
    """(wall ms, peak RSS MiB, stdout) of one process run to completion."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(
            cmd, cwd=cwd, env=env, stdout=out, stderr=err, stdin=subprocess.DEVNULL
        )
        _, status, usage = os.wait4(proc.pid, 0)
        wall = (time.perf_counter() - start) * 1000
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode("utf-8")
        if proc.returncode != 0:
            err.seek(0)
            raise SystemExit(
                f"{' '.join(cmd[2:])} failed ({proc.returncode}): {text[-600:]} "
                f"{err.read().decode()[-600:]}"
            )
    return wall, usage.ru_maxrss / 1024, text


def vibflow(root: Path, *args: str) -> tuple[float, float, dict[str, Any]]:
    wall, rss, text = measured([*VIBFLOW, *args, "--json"], root, VF_ENV)
    data = json.loads(text)
    assert isinstance(data, dict)
    return wall, rss, data


class Repo:
    def __init__(self, root: Path, files: int, untouched: int) -> None:
        self.root = root
        self.paths = [f"app/p{i // 200:03d}/m{i:05d}.py" for i in range(files)]
        others = [f"lib/q{i // 200:03d}/u{i:05d}.py" for i in range(untouched)]
        for n, rel in enumerate(self.paths + others):
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(module_bytes(n, "original"))
        git(root, "init", "-q", "-b", "main")
        git(root, "config", "gc.auto", "0")
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", "generated")
        measured([*VIBFLOW, "memory", "intent", "refactor the lib package", "--yes"], root, VF_ENV)
        for rel in others[:2]:
            measured(
                [*VIBFLOW, "memory", "relevant", rel, "being refactored", "--yes"], root, VF_ENV
            )
        _, _, meta = vibflow(root, "checkpoint", "create")
        self.commit: str = meta["commit"]
        self.original = {
            rel: hashlib.sha256(module_bytes(n, "original")).hexdigest()
            for n, rel in enumerate(self.paths)
        }
        time.sleep(0.05)  # the agent's edits come after the checkpoint

    def drift(self) -> None:
        for n, rel in enumerate(self.paths):
            (self.root / rel).write_bytes(module_bytes(n, "rewritten by the agent"))

    def check_restored(self, what: str) -> None:
        bad = sum(
            1
            for rel in self.paths
            if hashlib.sha256((self.root / rel).read_bytes()).hexdigest() != self.original[rel]
        )
        if bad:
            raise SystemExit(f"{what}: {bad} of {len(self.paths)} files not restored")


def flow_once(repo: Repo) -> dict[str, tuple[float, float]]:
    root = repo.root
    out: dict[str, tuple[float, float]] = {}
    wall, rss, run = vibflow(root, "run", "recover")
    out["run recover"] = (wall, rss)
    full = next(o for o in run["plan"]["options"] if o["level"] == 4)
    if full["affected_paths_total"] != len(repo.paths):
        raise SystemExit(f"full rollback lists {full['affected_paths_total']} paths")
    wall, rss, at = vibflow(
        root, "step", run["run_id"], "choose", "--input", f"option={full['option_id']}"
    )
    out["step choose"] = (wall, rss)
    wall, rss, done = vibflow(
        root,
        "step",
        run["run_id"],
        "confirm",
        "--input",
        f"confirmation={at['confirmation_expected']}",
    )
    out["step confirm"] = (wall, rss)
    if done["status"] != "done":
        raise SystemExit(f"the run ended {done['status']}: {done.get('error')}")
    repo.check_restored("vibflow")
    return out


def git_once(repo: Repo) -> tuple[float, float]:
    # The path list goes through a file: 50,000 paths exceed the argument limit.
    listing = repo.root / ".git" / "bench-paths"
    listing.write_text("".join(f"{p}\n" for p in repo.paths), encoding="utf-8")
    wall, rss, _ = measured(
        [
            "git",
            "restore",
            f"--source={repo.commit}",
            f"--pathspec-from-file={listing}",
        ],
        repo.root,
        GIT_ENV,
    )
    repo.check_restored("git restore")
    return wall, rss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--untouched", type=int, default=500)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    compile_installed()
    rows: dict[str, list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="vf-recover-flow-") as tmp:
        repo = Repo(Path(tmp), args.files, args.untouched)
        for rep in range(args.reps):
            # Alternate which goes first, so a busy machine hits both alike.
            order = ("vibflow", "git") if rep % 2 == 0 else ("git", "vibflow")
            for who in order:
                repo.drift()
                if who == "git":
                    rows.setdefault("git restore", []).append(git_once(repo))
                else:
                    for name, value in flow_once(repo).items():
                        rows.setdefault(name, []).append(value)
    flow_total = [
        sum(rows[n][i][0] for n in ("run recover", "step choose", "step confirm"))
        for i in range(args.reps)
    ]
    ratios = [t / g[0] for t, g in zip(flow_total, rows["git restore"], strict=True)]
    report: dict[str, Any] = {
        "files": args.files,
        "untouched": args.untouched,
        "reps": args.reps,
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores",
        "python": sys.version.split()[0],
        "median_ms": {n: round(statistics.median(v[0] for v in r), 1) for n, r in rows.items()},
        "peak_rss_mib": {n: round(max(v[1] for v in r), 1) for n, r in rows.items()},
        "flow_total_median_ms": round(statistics.median(flow_total), 1),
        "flow_vs_git_ratio_median": round(statistics.median(ratios), 1),
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"recover flow on a {args.files}-file drift ({args.reps} reps, {report['machine']})")
    for name in ("run recover", "step choose", "step confirm", "git restore"):
        print(
            f"  {name:<14} median {report['median_ms'][name]:>9.1f} ms   "
            f"peak RSS {report['peak_rss_mib'][name]:>7.1f} MiB"
        )
    print(
        f"  whole flow     median {report['flow_total_median_ms']:>9.1f} ms = "
        f"{report['flow_vs_git_ratio_median']}x git restore (median of per-rep ratios)"
    )


if __name__ == "__main__":
    main()
