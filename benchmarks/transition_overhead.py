"""Durable transition overhead: vibflow against LangGraph, DBOS and a bare SQLite commit.

Every engine runs the same shape, a linear chain of no-op steps, durably on
SQLite in a fresh temporary directory, in this one process:

* vibflow: the real ``Runner`` with the real SQLite journal (WAL, ``synchronous``
  FULL, the default, and NORMAL) and the real audit file.
* LangGraph: a ``StateGraph`` of no-op nodes compiled with ``SqliteSaver``
  (langgraph-checkpoint-sqlite) and invoked with ``durability="sync"``, a new
  ``thread_id`` per run.
* DBOS Transact: a ``@DBOS.workflow`` calling no-op ``@DBOS.step`` functions,
  its SQLite system database with DBOS's own defaults.
* The floor: one ``INSERT`` committed on its own (autocommit) by plain
  ``sqlite3`` in WAL mode with ``synchronous=FULL``.

Per-transition and fixed costs come from a linear model. Each engine runs a
short chain (2 states: 1 transition) and a long one (10 states: 9
transitions); the two are timed alternately, run by run, so that drift in the
disk's fsync latency hits both alike. With ``t2``/``t10`` the median wall time
of a short/long run::

    per_transition = (t10 - t2) / 8
    fixed_per_run  = t2 - per_transition

For LangGraph a "state" is a node; for DBOS the chains are workflows of 1 and
9 steps. Warm-up runs are discarded; times are ``time.perf_counter_ns``.

Usage::

    python benchmarks/transition_overhead.py [--runs 200] [--warmup 20] [--json] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import itertools
import json
import os
import platform
import pstats
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypedDict

SHORT = 2  # states in the short chain (1 transition)
LONG = 10  # states in the long chain (9 transitions)

GOAL_FLOOR_RATIO = 1.3  # vibflow per transition <= 1.3x one bare commit
GOAL_LANGGRAPH = 4.0  # vibflow >= 4x faster per transition than LangGraph sync
GOAL_DBOS = 8.0  # vibflow >= 8x faster per transition than DBOS
GOAL_FIXED_MS = 1.0  # vibflow fixed cost per run <= 1 ms


@dataclass
class Measured:
    """One engine's medians (milliseconds) and the linear model derived from them."""

    engine: str
    per_transition_ms: float
    fixed_ms: float
    short_run_ms: float
    long_run_ms: float
    runs: int
    settings: str
    extra: dict[str, Any] = field(default_factory=dict)


def _ms(ns: float) -> float:
    return ns / 1e6


def paired(
    run_short: Callable[[], object], run_long: Callable[[], object], runs: int, warmup: int
) -> tuple[list[int], list[int]]:
    """Wall times (ns) of short and long runs, alternated run by run."""
    for _ in range(warmup):
        run_short()
        run_long()
    shorts: list[int] = []
    longs: list[int] = []
    clock = time.perf_counter_ns
    for _ in range(runs):
        t0 = clock()
        run_short()
        t1 = clock()
        run_long()
        t2 = clock()
        shorts.append(t1 - t0)
        longs.append(t2 - t1)
    return shorts, longs


def linear_model(
    engine: str, shorts: list[int], longs: list[int], settings: str, **extra: Any
) -> Measured:
    t_short = statistics.median(shorts)
    t_long = statistics.median(longs)
    per = (t_long - t_short) / (LONG - SHORT)
    fixed = t_short - per * (SHORT - 1)
    # A second estimate, robust to a skewed distribution: the median of the
    # per-pair differences.
    pair_per = statistics.median(
        (b - a) / (LONG - SHORT) for a, b in zip(shorts, longs, strict=True)
    )
    return Measured(
        engine=engine,
        per_transition_ms=_ms(per),
        fixed_ms=_ms(fixed),
        short_run_ms=_ms(t_short),
        long_run_ms=_ms(t_long),
        runs=len(shorts),
        settings=settings,
        extra={"per_transition_ms_paired_median": _ms(pair_per), **extra},
    )


# -- vibflow -----------------------------------------------------------------------


def flow_yaml(states: int) -> str:
    body = "".join(f"  s{i}: {{step: b.noop, on: {{done: s{i + 1}}}}}\n" for i in range(states - 1))
    return (
        f"flow: bench\nversion: 1\ninitial: s0\nstates:\n{body}  s{states - 1}: {{final: true}}\n"
    )


def _vibflow_noop(_ctx: object) -> str:
    return "done"


def vibflow_runner(root: Path, synchronous: str) -> tuple[Any, Any, Any]:
    """A real runner on a fresh journal and audit file, and the two loaded flows."""
    from vibflow.engine.audit import AuditLog
    from vibflow.engine.journal import Journal
    from vibflow.engine.loader import load_flow
    from vibflow.engine.registry import Registry
    from vibflow.engine.runner import Runner

    reg = Registry()
    reg.step("b.noop", idempotent=True)(_vibflow_noop)
    short = load_flow(flow_yaml(SHORT), "bench.yaml", reg)
    long_ = load_flow(flow_yaml(LONG), "bench.yaml", reg)
    root.mkdir(parents=True, exist_ok=True)
    journal = Journal(root / "runs.db", synchronous=synchronous)
    audit = AuditLog(root / "audit.jsonl", project_root_hash="0" * 64)
    runner = Runner(registry=reg, journal=journal, audit=audit, project_root=root, env={})
    return runner, short, long_


def bench_vibflow(root: Path, synchronous: str, runs: int, warmup: int) -> Measured:
    runner, short, long_ = vibflow_runner(root, synchronous)

    def run_short() -> None:
        run = runner.start(short)
        assert run.status == "done", run.status

    def run_long() -> None:
        run = runner.start(long_)
        assert run.status == "done", run.status

    try:
        shorts, longs = paired(run_short, run_long, runs, warmup)
        effective = runner.journal._db.execute("PRAGMA synchronous").fetchone()[0]
    finally:
        runner.journal.close()
    return linear_model(
        f"vibflow {synchronous}",
        shorts,
        longs,
        f"WAL, synchronous={synchronous} (PRAGMA reads {effective}), audit.jsonl",
    )


def profile_vibflow(root: Path, synchronous: str, runs: int, top: int = 15) -> str:
    """cProfile of ``runs`` long (10-state) vibflow runs: the top functions by tottime."""
    runner, _short, long_ = vibflow_runner(root, synchronous)
    try:
        for _ in range(10):
            runner.start(long_)
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(runs):
            runner.start(long_)
        prof.disable()
    finally:
        runner.journal.close()
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    return out.getvalue()


def breakdown_vibflow(root: Path, synchronous: str, runs: int, warmup: int) -> dict[str, float]:
    """Where a long (10-state) vibflow run spends its time, per run (median ms).

    The journal's and the audit log's methods are wrapped on the instances
    (none of them calls another wrapped one), so the parts add up to the run;
    ``other`` is the runner itself: the machine, guards, contexts, recaps.
    """
    runner, _short, long_ = vibflow_runner(root, synchronous)
    spent: dict[str, int] = {}
    clock = time.perf_counter_ns

    def wrap(obj: object, name: str, label: str) -> None:
        inner = getattr(obj, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            t0 = clock()
            try:
                return inner(*args, **kwargs)
            finally:
                spent[label] = spent.get(label, 0) + clock() - t0

        setattr(obj, name, timed)

    wrap(runner.journal, "create_run", "journal.create_run (commit)")
    wrap(runner.journal, "advance", "journal.advance (commit + re-read)")
    wrap(runner.journal, "release", "journal.release")
    wrap(runner.journal, "entries", "journal.entries (for recaps)")
    wrap(runner.journal, "done_items", "journal.done_items (reads)")
    wrap(runner.audit, "append", "audit.append")
    per_run: dict[str, list[int]] = {}
    try:
        for i in range(warmup + runs):
            spent.clear()
            t0 = clock()
            runner.start(long_)
            total = clock() - t0
            if i < warmup:
                continue
            parts = dict(spent)
            parts["other (runner, machine, recap)"] = total - sum(spent.values())
            parts["total"] = total
            for key, value in parts.items():
                per_run.setdefault(key, []).append(value)
    finally:
        runner.journal.close()
    return {key: _ms(statistics.median(values)) for key, values in per_run.items()}


# -- LangGraph ---------------------------------------------------------------------


class _GraphState(TypedDict):
    n: int


def _langgraph_noop(_state: _GraphState) -> None:
    return None


def bench_langgraph(root: Path, runs: int, warmup: int) -> Measured:
    from langgraph.checkpoint.sqlite import SqliteSaver
    from langgraph.graph import END, START, StateGraph

    root.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(root / "checkpoints.db", check_same_thread=False)
    saver = SqliteSaver(conn)

    def build(nodes: int) -> Any:
        graph = StateGraph(_GraphState)
        names = [f"n{i}" for i in range(nodes)]
        for name in names:
            graph.add_node(name, _langgraph_noop)
        graph.add_edge(START, names[0])
        for a, b in itertools.pairwise(names):
            graph.add_edge(a, b)
        graph.add_edge(names[-1], END)
        return graph.compile(checkpointer=saver)

    short, long_ = build(SHORT), build(LONG)

    def invoke(graph: Any) -> None:
        config = {"configurable": {"thread_id": uuid.uuid4().hex}}
        graph.invoke({"n": 0}, config, durability="sync")

    try:
        shorts, longs = paired(lambda: invoke(short), lambda: invoke(long_), runs, warmup)
        total = runs + warmup
        checkpoints = conn.execute("SELECT count(*) FROM checkpoints").fetchone()[0]
        sync = conn.execute("PRAGMA synchronous").fetchone()[0]
        mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
    finally:
        conn.close()
    import langgraph.version

    return linear_model(
        "langgraph sync",
        shorts,
        longs,
        f"SqliteSaver, durability=sync, journal_mode={mode}, PRAGMA synchronous={sync}",
        checkpoints_per_short_plus_long_run=checkpoints / total,
        version=langgraph.version.__version__,
    )


# -- DBOS --------------------------------------------------------------------------


def bench_dbos(root: Path, runs: int, warmup: int) -> Measured:
    from dbos import DBOS

    root.mkdir(parents=True, exist_ok=True)
    db_path = root / "dbos.sqlite"
    # Defaults except: no admin HTTP server (it would bind port 3001 and plays
    # no part in running a workflow) and warnings-only logs.
    DBOS(
        config={
            "name": "vibflow-bench",
            "system_database_url": f"sqlite:///{db_path}",
            "run_admin_server": False,
            "log_level": "WARNING",
        }
    )

    @DBOS.step()
    def noop() -> None:
        return None

    @DBOS.workflow()
    def short_wf() -> None:
        for _ in range(SHORT - 1):
            noop()

    @DBOS.workflow()
    def long_wf() -> None:
        for _ in range(LONG - 1):
            noop()

    DBOS.launch()
    try:
        shorts, longs = paired(short_wf, long_wf, runs, warmup)
    finally:
        DBOS.destroy()
    probe = sqlite3.connect(db_path)
    try:
        mode = probe.execute("PRAGMA journal_mode").fetchone()[0]
    finally:
        probe.close()
    from importlib.metadata import version

    return linear_model(
        "dbos",
        shorts,
        longs,
        f"SQLite system database, DBOS defaults (journal_mode={mode}, synchronous=FULL)",
        version=version("dbos"),
    )


# -- the floor ---------------------------------------------------------------------


def bench_floor(root: Path, commits: int, warmup: int, synchronous: str = "FULL") -> list[int]:
    """Wall time (ns) of each of ``commits`` single-INSERT autocommit transactions."""
    root.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(root / f"floor-{synchronous}.db", isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(f"PRAGMA synchronous={synchronous}")
        db.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)")
        clock = time.perf_counter_ns
        times: list[int] = []
        for i in range(warmup + commits):
            t0 = clock()
            db.execute("INSERT INTO t (v) VALUES (?)", ("x",))
            dt = clock() - t0
            if i >= warmup:
                times.append(dt)
    finally:
        db.close()
    return times


# -- report ------------------------------------------------------------------------


def _ratio(a: float | None, b: float | None) -> float | None:
    if a is None or b is None or b <= 0:
        return None
    return a / b


def _fmt(x: float | None, spec: str = ".3f") -> str:
    return "-" if x is None else format(x, spec)


def _verdict(value: float | None, ok: Callable[[float], bool]) -> bool | None:
    return None if value is None else ok(value)


def measure(args: argparse.Namespace, log: Callable[[str], None]) -> dict[str, Any]:
    """Run every benchmark; the whole outcome as one JSON-able document."""
    results: dict[str, Measured] = {}
    skipped: dict[str, str] = {}
    commits = args.runs * (LONG - 1)
    doc: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="vibflow-bench-") as tmp:
        base = Path(tmp)
        log(f"floor: {commits} commits (WAL, synchronous=FULL and NORMAL) ...")
        floor_pre = bench_floor(base / "floor-pre", commits, 50)
        floor_normal = bench_floor(base / "floor-normal", commits, 50, "NORMAL")
        for sync in ("FULL", "NORMAL"):
            log(f"vibflow {sync}: {args.runs} runs of {SHORT} and {LONG} states ...")
            results[f"vibflow_{sync.lower()}"] = bench_vibflow(
                base / f"vibflow-{sync}", sync, args.runs, args.warmup
            )
        comparisons: list[tuple[str, Callable[[Path, int, int], Measured]]] = [
            ("langgraph", bench_langgraph),
            ("dbos", bench_dbos),
        ]
        for name, bench in comparisons:
            if name in args.skip:
                skipped[name] = "skipped on the command line (--skip)"
                continue
            log(f"{name}: {args.runs} runs of {SHORT} and {LONG} states ...")
            try:
                results[name] = bench(base / name, args.runs, args.warmup)
            except ImportError as exc:
                skipped[name] = f"not installed ({exc}); run `pip install -e '.[bench]'`"
            except Exception as exc:  # noqa: BLE001 - a broken comparison must not stop the rest
                skipped[name] = f"failed to run: {type(exc).__name__}: {exc}"
            if name in skipped:
                log(f"  SKIPPED {name}: {skipped[name]}")
        log(f"floor again: {commits} commits ...")
        floor_post = bench_floor(base / "floor-post", commits, 50)
        if args.breakdown:
            doc["breakdown_ms_per_10_state_run"] = {}
            for sync in ("FULL", "NORMAL"):
                log(f"breakdown of vibflow {sync} over {args.runs} long runs ...")
                doc["breakdown_ms_per_10_state_run"][sync] = breakdown_vibflow(
                    base / f"breakdown-{sync}", sync, args.runs, args.warmup
                )
        if args.profile:
            doc["profile"] = {}
            for sync in ("FULL", "NORMAL"):
                log(f"profiling vibflow {sync} over {args.runs} long runs ...")
                doc["profile"][sync] = profile_vibflow(base / f"profile-{sync}", sync, args.runs)

    floor_ms = _ms(statistics.median(floor_pre + floor_post))
    vf = results["vibflow_full"]
    lg = results.get("langgraph")
    db = results.get("dbos")
    ratios = {
        "vibflow_full_per_transition_over_floor": _ratio(vf.per_transition_ms, floor_ms),
        "vibflow_normal_per_transition_over_floor": _ratio(
            results["vibflow_normal"].per_transition_ms, floor_ms
        ),
        "langgraph_over_vibflow_per_transition": _ratio(
            lg.per_transition_ms if lg else None, vf.per_transition_ms
        ),
        "langgraph_over_vibflow_10_state_run": _ratio(
            lg.long_run_ms if lg else None, vf.long_run_ms
        ),
        "dbos_over_vibflow_per_transition": _ratio(
            db.per_transition_ms if db else None, vf.per_transition_ms
        ),
        "dbos_over_vibflow_10_state_run": _ratio(db.long_run_ms if db else None, vf.long_run_ms),
    }
    goals = {
        f"vibflow FULL per transition <= {GOAL_FLOOR_RATIO}x floor": _verdict(
            ratios["vibflow_full_per_transition_over_floor"], lambda r: r <= GOAL_FLOOR_RATIO
        ),
        f">= {GOAL_LANGGRAPH:g}x faster than LangGraph sync (per transition)": _verdict(
            ratios["langgraph_over_vibflow_per_transition"], lambda r: r >= GOAL_LANGGRAPH
        ),
        f">= {GOAL_DBOS:g}x faster than DBOS (per transition)": _verdict(
            ratios["dbos_over_vibflow_per_transition"], lambda r: r >= GOAL_DBOS
        ),
        f"vibflow FULL fixed cost per run <= {GOAL_FIXED_MS:g} ms": _verdict(
            vf.fixed_ms, lambda ms: ms <= GOAL_FIXED_MS
        ),
    }
    doc.update(
        meta={
            "date_utc": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "python": platform.python_version(),
            "sqlite": sqlite3.sqlite_version,
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "runs": args.runs,
            "warmup": args.warmup,
            "floor_commits": len(floor_pre) + len(floor_post),
        },
        floor={
            "full_median_ms": floor_ms,
            "full_median_ms_before": _ms(statistics.median(floor_pre)),
            "full_median_ms_after": _ms(statistics.median(floor_post)),
            "normal_median_ms": _ms(statistics.median(floor_normal)),
        },
        results={k: asdict(v) for k, v in results.items()},
        ratios=ratios,
        goals=goals,
        skipped=skipped,
    )
    return doc


def render(doc: dict[str, Any]) -> None:
    meta, floor = doc["meta"], doc["floor"]
    print()
    print(
        f"Durable transition overhead: {meta['runs']} runs each of a {SHORT}- and a "
        f"{LONG}-state chain, medians, {meta['date_utc']}"
    )
    print(f"python {meta['python']}, sqlite {meta['sqlite']}, {meta['cpus']} cpus")
    print()
    header = (
        f"{'engine':<16} {'per transition':>15} {'fixed / run':>12} "
        f"{f'{SHORT}-state run':>13} {f'{LONG}-state run':>13}"
    )
    print(header)
    print("-" * len(header))
    for m in doc["results"].values():
        print(
            f"{m['engine']:<16} {m['per_transition_ms']:>12.3f} ms {m['fixed_ms']:>9.3f} ms "
            f"{m['short_run_ms']:>10.3f} ms {m['long_run_ms']:>10.3f} ms"
        )
    print(
        f"{'floor FULL':<16} {floor['full_median_ms']:>12.3f} ms"
        "   (one INSERT + COMMIT, WAL, synchronous=FULL)"
    )
    print(
        f"{'floor NORMAL':<16} {floor['normal_median_ms']:>12.3f} ms"
        "   (the same, synchronous=NORMAL)"
    )
    print(
        f"  floor FULL before / after the engines ran: {floor['full_median_ms_before']:.3f} / "
        f"{floor['full_median_ms_after']:.3f} ms"
    )
    print()
    print("settings:")
    for m in doc["results"].values():
        print(f"  {m['engine']}: {m['settings']}")
        paired_per = m["extra"]["per_transition_ms_paired_median"]
        print(f"    per transition as the median of per-pair differences: {paired_per:.3f} ms")
    print()
    print("ratios:")
    for key, value in doc["ratios"].items():
        print(f"  {key:<44} {_fmt(value, '.2f')}")
    print()
    print("goals:")
    for key, ok in doc["goals"].items():
        verdict = "not measured" if ok is None else ("MET" if ok else "MISSED")
        print(f"  {key:<62} {verdict}")
    for name, why in doc["skipped"].items():
        print(f"\nSKIPPED {name}: {why}")
    breakdown = doc.get("breakdown_ms_per_10_state_run")
    if breakdown:
        print()
        print(f"vibflow, where a {LONG}-state run goes (median ms per run):")
        syncs = list(breakdown)
        print(f"  {'part':<38}" + "".join(f"{s:>10}" for s in syncs))
        for key in breakdown[syncs[0]]:
            print(f"  {key:<38}" + "".join(f"{breakdown[s].get(key, 0.0):>10.3f}" for s in syncs))
    for sync, text in doc.get("profile", {}).items():
        print()
        print(f"cProfile, vibflow {sync}, {meta['runs']} runs of {LONG} states, top 15 by tottime:")
        print(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Durable transition overhead benchmark.")
    parser.add_argument("--runs", type=int, default=200, help="timed runs per chain length")
    parser.add_argument("--warmup", type=int, default=20, help="discarded runs per chain length")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument(
        "--breakdown",
        action="store_true",
        help="also time the journal, audit and runner parts of a 10-state vibflow run",
    )
    parser.add_argument(
        "--profile", action="store_true", help="also cProfile vibflow over --runs long runs"
    )
    parser.add_argument(
        "--skip", action="append", default=[], choices=["langgraph", "dbos"], help="leave one out"
    )
    args = parser.parse_args(argv)

    def log(msg: str) -> None:
        print(msg, file=sys.stderr if args.json else sys.stdout, flush=True)

    doc = measure(args, log)
    if args.json:
        print(json.dumps(doc, indent=2))
    else:
        render(doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
