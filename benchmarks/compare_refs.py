"""Before/after: two versions of vibflow measured in the same run, round by round.

Each version gets its own checkout and venv: ``--base`` (a git ref) and
``--head`` (a git ref, or a checkout folder with its own ``.venv``; by default
the checkout this script lives in). A ref is checked out as a detached
worktree under ``build/bench-refs/<sha>/tree`` with a venv beside it
(``pip install -e``); both are reused on the next run. Every round measures
base and head back to back, the order swapped each round, so drift on a busy
machine hits both alike:

* cold start (``benchmarks/cold_start.py``'s commands): ``vibflow --help``,
  ``vibflow runs list`` and ``vibflow recap`` in a fresh ``git init``
  repository per version, ``--cold-reps`` pairs a round, ``python -c pass`` the control;
* transition overhead: ``benchmarks/transition_overhead.py --skip langgraph
  --skip dbos`` run by each venv's interpreter (the same script for both:
  vibflow's public ``Runner``/``Journal``/``AuditLog``/``load_flow`` API);
  its bare-SQLite-commit floor is the control;
* ``vibflow recover --explain --json`` on one generated repository
  (``benchmarks/recover_speed.py``'s builder), both versions on the same one.

The report gives each measure's median for base and head and the median of
the per-round ratios head/base, with their min and max: a control row (same
code on both sides) shows how far noise alone moves a ratio. Exit status 0
whatever the ratios are; this is a report.

Usage::

    .venv/bin/python benchmarks/compare_refs.py --base REF [--head REF_OR_DIR]
        [--rounds 7] [--files 20000] [--cold-reps 3] [--transition-runs 100] [--json]
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
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchkit import GIT_ENV, REPO, compile_installed, default_dirs, git
from cold_start import git_repo, run_once
from recover_speed import Layout, build

HERE = Path(__file__).resolve().parent
COLD = {"--help": ["--help"], "runs list": ["runs", "list"], "recap": ["recap"]}
TRANSITION = {  # measure name -> (transition_overhead.py result, its field)
    "transition FULL: per transition": ("vibflow_full", "per_transition_ms"),
    "transition FULL: fixed per run": ("vibflow_full", "fixed_ms"),
    "transition NORMAL: per transition": ("vibflow_normal", "per_transition_ms"),
    "transition NORMAL: fixed per run": ("vibflow_normal", "fixed_ms"),
}
CONTROLS = ("cold: python -c pass", "control: bare SQLite commit (FULL)")


@dataclass(frozen=True)
class Side:
    """One version under test: its label, source tree and venv."""

    name: str
    label: str
    tree: Path
    venv: Path

    def bin(self, exe: str) -> str:
        return str(self.venv / "bin" / exe)


def prepare_ref(name: str, ref: str, log: Any) -> Side:
    """A detached worktree and an editable venv for ``ref``, reused when present."""
    sha = git(REPO, "rev-parse", "--verify", f"{ref}^{{commit}}")
    home = REPO / "build" / "bench-refs" / sha
    tree, venv, stamp = home / "tree", home / "venv", home / ".installed"
    if not stamp.exists():
        log(f"{name}: preparing {ref} ({sha[:12]}) in {home} ...")
        home.mkdir(parents=True, exist_ok=True)
        if not (tree / ".git").exists():
            shutil.rmtree(tree, ignore_errors=True)
            git(REPO, "worktree", "add", "--force", "--detach", str(tree), sha)
        if not venv.exists():
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
        for what in (["--upgrade", "pip", "setuptools>=77", "wheel"], ["-e", str(tree)]):
            subprocess.run([*pip, *what], check=True, stdout=sys.stderr)  # stdout: the report
        stamp.touch()
    return Side(name, f"{ref} ({sha[:12]})", tree, venv)


def prepare_dir(name: str, tree: Path) -> Side:
    """A checkout used as it is, with its own ``.venv`` (``make .venv/.installed``)."""
    venv = tree / ".venv"
    if not (venv / "bin" / "vibflow").exists():
        raise SystemExit(f"{venv}/bin/vibflow does not exist; run `make .venv/.installed` there")
    sha = git(tree, "rev-parse", "--short=12", "HEAD")
    dirty = " + uncommitted changes" if git(tree, "status", "--porcelain", "-uno") else ""
    return Side(name, f"{tree} ({sha}{dirty})", tree, venv)


def clean_env() -> dict[str, str]:
    env = dict(GIT_ENV)
    for noisy in ("PYTHONDONTWRITEBYTECODE", "PYTHONPROFILEIMPORTTIME", "VIBFLOW_CRASH_AT"):
        env.pop(noisy, None)
    for leak in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"):  # each venv imports its own
        env.pop(leak, None)
    return env


def imported_from(side: Side, env: dict[str, str], cwd: Path) -> str:
    """The checkout this venv's interpreter imports vibflow's engine from."""
    code = "import pathlib, vibflow.engine as e; print(pathlib.Path(e.__file__).parents[1])"
    argv = [side.bin("python"), "-c", code]
    proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    return proc.stdout.strip() or f"import failed: {proc.stderr.strip()[-200:]}"


class Recorder:
    """Samples (ms) per measure and side, per round; failures by measure and side."""

    def __init__(self) -> None:
        self.samples: dict[str, dict[str, list[float | None]]] = {}
        self.failures: dict[str, str] = {}

    def add(self, measure: str, side: str, ms: float | None) -> None:
        per_side = self.samples.setdefault(measure, {"base": [], "head": []})
        per_side[side].append(ms)

    def fail(self, measure: str, side: str, why: str) -> None:
        self.failures.setdefault(f"{measure} [{side}]", why[-400:])

    def timed(
        self, measure: str, side: str, argv: list[str], cwd: Path, env: dict[str, str]
    ) -> None:
        """Run ``argv`` and record its wall time (ms) or its failure."""
        proc_ns, status, stderr = run_once(argv, cwd, env)
        if status != 0:
            self.fail(measure, side, f"exit {status}: {stderr.strip()}")
        self.add(measure, side, proc_ns / 1e6 if status == 0 else None)

    def summary(self) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for measure, per_side in self.samples.items():
            pairs = list(zip(per_side["base"], per_side["head"], strict=True))
            base = [b for b, _ in pairs if b is not None]
            head = [h for _, h in pairs if h is not None]
            ratios = [h / b for b, h in pairs if b is not None and h is not None and b > 0]
            out[measure] = {
                "base_median_ms": statistics.median(base) if base else None,
                "head_median_ms": statistics.median(head) if head else None,
                "ratio_median": statistics.median(ratios) if ratios else None,
                "ratio_min": min(ratios, default=None),
                "ratio_max": max(ratios, default=None),
                "rounds": len(ratios),
                "base_ms": per_side["base"],
                "head_ms": per_side["head"],
            }
        return out


def round_cold(rec: Recorder, side: Side, repo: Path, env: dict[str, str], keep: bool) -> None:
    record = rec if keep else Recorder()
    record.timed("cold: python -c pass", side.name, [side.bin("python"), "-c", "pass"], repo, env)
    for label, args in COLD.items():
        record.timed(f"cold: vibflow {label}", side.name, [side.bin("vibflow"), *args], repo, env)


def round_transition(
    rec: Recorder, side: Side, runs: int, warmup: int, cwd: Path, env: dict[str, str]
) -> None:
    argv = [side.bin("python"), str(HERE / "transition_overhead.py"), "--json"]
    argv += ["--skip", "langgraph", "--skip", "dbos", "--runs", str(runs), "--warmup", str(warmup)]
    proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    try:
        doc = json.loads(proc.stdout)
    except json.JSONDecodeError:
        doc = None
    for measure, (engine, field) in TRANSITION.items():
        value = doc["results"].get(engine, {}).get(field) if doc else None
        if value is None:
            rec.fail(measure, side.name, f"exit {proc.returncode}: {proc.stderr.strip()}")
        rec.add(measure, side.name, value)
    rec.add(CONTROLS[1], side.name, doc["floor"]["full_median_ms"] if doc else None)


def measure(args: argparse.Namespace, base: Side, head: Side, log: Any) -> dict[str, Any]:
    env = clean_env()
    sides = (base, head)
    for side in sides:
        compile_installed(side.bin("python"), side.tree)
    rec = Recorder()
    with tempfile.TemporaryDirectory(prefix="vibflow-compare-") as tmp_name:
        tmp = Path(tmp_name)
        imports = {s.name: imported_from(s, env, tmp) for s in sides}
        for side in sides:
            if Path(imports[side.name]).resolve() != side.tree.resolve():
                rec.fail("imports", side.name, f"vibflow comes from {imports[side.name]}")
        repos = {}
        for side in sides:
            (tmp / side.name).mkdir()
            repos[side.name] = git_repo(tmp / side.name, env)
        big = tmp / "big"
        big.mkdir()
        log(f"building the {args.files:,}-file repository ...")
        build(big, Layout(args.files, default_dirs(args.files)))
        recover = ["recover", "--explain", "--json"]
        for side in sides:  # warm-up: first runs create state, fill caches
            round_cold(rec, side, repos[side.name], env, keep=False)
            run_once([side.bin("vibflow"), *recover], big, env)
        for n in range(args.rounds):
            order = sides if n % 2 == 0 else sides[::-1]
            log(f"round {n + 1}/{args.rounds} ({order[0].name} first) ...")
            for _ in range(args.cold_reps):
                for side in order:
                    round_cold(rec, side, repos[side.name], env, keep=True)
            for side in order:
                rec.timed(
                    "recover --explain --json", side.name, [side.bin("vibflow"), *recover], big, env
                )
            for side in order:
                round_transition(rec, side, args.transition_runs, args.transition_warmup, tmp, env)
    return {
        "meta": {
            "date_utc": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "loadavg_at_end": os.getloadavg(),
            "rounds": args.rounds,
            "cold_reps": args.cold_reps,
            "files": args.files,
            "transition_runs": args.transition_runs,
            "base": base.label,
            "head": head.label,
            "imports": imports,
        },
        "results": rec.summary(),
        "failures": rec.failures,
    }


def _f(x: float | None, spec: str) -> str:
    return "-" if x is None else format(x, spec)


def render(doc: dict[str, Any]) -> None:
    meta = doc["meta"]
    print(f"vibflow before/after, {meta['rounds']} interleaved rounds, {meta['date_utc']}")
    print(f"python {meta['python']}, {meta['cpus']} cpus, load {meta['loadavg_at_end'][0]:.2f}")
    for name in ("base", "head"):
        print(f"  {name}: {meta[name]}  (imports {meta['imports'][name]})")
    print()
    header = f"{'measure':<36} {'base ms':>9} {'head ms':>9} {'head/base':>9}  {'spread':>11}"
    print(header)
    print("-" * len(header))
    for name, r in doc["results"].items():
        spread = f"{_f(r['ratio_min'], '.2f')}-{_f(r['ratio_max'], '.2f')}"
        print(
            f"{name:<36} {_f(r['base_median_ms'], '.3f'):>9} {_f(r['head_median_ms'], '.3f'):>9} "
            f"{_f(r['ratio_median'], '.3f'):>9}  {spread:>11}"
        )
    print()
    print(
        f"head/base: median of the per-round ratios ({meta['cold_reps']} per round for cold "
        "start); spread: their min-max."
    )
    print(f"Controls (same code on both sides, noise only): {', '.join(CONTROLS)}.")
    print(
        f"recover --explain ran on {meta['files']:,} files; transition overhead from "
        f"{meta['transition_runs']} runs of each chain per round."
    )
    for name, why in doc["failures"].items():
        print(f"\nFAILED {name}: {why}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="git ref of the 'before' version")
    parser.add_argument("--head", help="git ref or checkout folder (default: this checkout)")
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds")
    parser.add_argument("--files", type=int, default=20_000, help="recover repository size")
    parser.add_argument("--cold-reps", type=int, default=3, help="cold-start pairs per round")
    parser.add_argument("--transition-runs", type=int, default=100, help="runs per chain, round")
    parser.add_argument("--transition-warmup", type=int, default=10, help="discarded runs")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args(argv)

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    base = prepare_ref("base", args.base, log)
    if args.head is None:
        head = prepare_dir("head", REPO)
    elif Path(args.head).is_dir():
        head = prepare_dir("head", Path(args.head).resolve())
    else:
        head = prepare_ref("head", args.head, log)
    doc = measure(args, base, head, log)
    if args.json:
        print(json.dumps(doc, indent=2))
    else:
        render(doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
