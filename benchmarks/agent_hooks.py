"""The agent's hooks: how long the agent waits on each, against plain git.

A repository of ``--files`` small modules (default 20,000 in 400 folders) is
built and committed. One repetition, in a rotating order, times as fresh
processes (``python -m vibflow agent hook claude-code EVENT`` fed Claude
Code's documented payloads):

* **turn-start, 10 changed** — 10 tracked files edited, then the
  ``UserPromptSubmit`` hook (a new turn: a checkpoint of the tree);
* **turn-start, nothing changed** — the same hook again right after (the last
  checkpoint is reused);
* **tool-use** — one tracked file edited, then the ``PostToolUse`` hook of an
  ``Edit`` naming it (the file recorded through the path contract);
* **turn-end** — the ``Stop`` hook right after (a checkpoint after the turn,
  one file changed, and the turn's files handed to memory);
* **memory hand-over** — how long after turn-end returned the turn's files
  reach memory: the hook hands them over in a detached background process
  (``--observe-pending``), off the agent's time; the benchmark waits for it
  before the next step, as an agent's next prompt would come later anyway,
  so it never competes with a measured hook;
* **turn-start, a new untracked file** — one new file (not ignored) written,
  then the ``UserPromptSubmit`` hook: the file's content is scanned for
  secrets before it may enter the checkpoint;
* **git status** — ``git status --porcelain`` in the same state;
* **shadow snapshot** — what shadow-repository checkpointers do per turn:
  ``git stash create`` plus ``git add -A`` into a copy of the index and
  ``git write-tree``;
* **python** — ``python -c pass``: the interpreter's own start, the floor
  under every hook.

p50 and p90 of wall time over ``--reps`` repetitions (after one discarded
warm-up), the CPU time the process and its children used (p50; steadier
than wall time on a shared machine), and each hook's ratio to ``git status``
in the same run.

Growth: ``--turns`` turns (default 500) of small edits (two files changed per
turn, a new file every tenth turn), recorded in-process through the same hook
handler (two checkpoints a turn, sessions of 10 turns): the bytes only the
checkpoints keep alive (``CheckpointStore.size_bytes``) and ``.git``'s size,
then the same after the turn retention (``agents.turns``: keep the last 5
sessions, 0 days) and ``git gc --prune=now``.

Usage (from the repository root, with the dev venv)::

    .venv/bin/python benchmarks/agent_hooks.py [--files N] [--reps 15] [--turns 500] [--json]

``--turns 0`` skips the growth part. ``--base-python PY`` also times the
hooks with another checkout's interpreter (the version before), round by
round in alternating order, on its own identical repository given the same
edits; ``base_over_head`` is its median over this version's.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from benchkit import GIT_ENV, REPO, compile_installed, default_dirs, git, module_bytes, timed

PAYLOADS = REPO / "tests" / "agents" / "payloads" / "claude-code"
EVENTS = {
    "turn-start": "UserPromptSubmit.json",
    "tool-use": "PostToolUse.Edit.json",
    "turn-end": "Stop.json",
}
NAMES = {
    "hook_10": "turn-start, 10 changed",
    "hook_nochange": "turn-start, nothing changed",
    "tool_use": "tool-use (PostToolUse, one Edit)",
    "turn_end": "turn-end (Stop, one file changed)",
    "observed": "memory hand-over after turn-end (background)",
    "hook_new": "turn-start, a new untracked file",
    "status": "git status --porcelain",
    "shadow": "shadow snapshot (stash create + add -A + write-tree)",
    "python": "python -c pass",
}


def build(root: Path, files: int) -> Path:
    work = root / "work"
    dirs = default_dirs(files)
    for d in range(dirs):
        (work / f"pkg{d:04d}").mkdir(parents=True)
    for i in range(files):
        (work / f"pkg{i % dirs:04d}" / f"mod{i:05d}.py").write_bytes(module_bytes(i, "v1"))
    git(work, "init", "-q", "-b", "main")
    git(work, "config", "gc.auto", "0")
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "generated")
    git(work, "gc", "-q")
    (work / "notes").mkdir()
    time.sleep(1.1)  # out of git's racy-clean window
    git(work, "update-index", "-q", "--refresh", env={"GIT_OPTIONAL_LOCKS": "1"})
    return work


def path_of(work: Path, files: int, i: int) -> Path:
    return work / f"pkg{i % default_dirs(files):04d}" / f"mod{i:05d}.py"


def payload(work: Path, event: str, file: Path | None = None) -> bytes:
    text = (PAYLOADS / EVENTS[event]).read_text("utf-8").replace("<ROOT>", str(work))
    return text.replace("<FILE>", str(file or "")).encode()


def hook(work: Path, event: str, data: bytes, python: str = sys.executable) -> None:
    proc = subprocess.run(
        [python, "-m", "vibflow", "agent", "hook", "claude-code", event],
        input=data,
        cwd=work,
        env={k: v for k, v in GIT_ENV.items() if not k.startswith("VIBFLOW_")},
        capture_output=True,
        check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"the hook failed: {proc.stderr!r}")


def background_done(limit: float = 30.0) -> None:
    """Wait until no ``vibflow agent hook --observe-pending`` runs (Linux: /proc)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        running = False
        for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
            with contextlib.suppress(OSError):
                if b"--observe-pending" in cmdline.read_bytes():
                    running = True
                    break
        if not running:
            return
        time.sleep(0.005)


def shadow(work: Path, scratch: Path) -> None:
    subprocess.run(["git", "stash", "create"], cwd=work, capture_output=True, check=True)
    shutil.copy2(work / ".git" / "index", scratch)
    env = {**GIT_ENV, "GIT_INDEX_FILE": str(scratch)}
    subprocess.run(["git", "add", "-A"], cwd=work, env=env, capture_output=True, check=True)
    subprocess.run(["git", "write-tree"], cwd=work, env=env, capture_output=True, check=True)


def status(work: Path) -> None:
    subprocess.run(["git", "status", "--porcelain"], cwd=work, capture_output=True, check=True)


def cpu_timed(fn: Callable[[], object]) -> tuple[float, float]:
    """(wall ms, CPU ms of the child processes ``fn`` waited for)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = timed(fn)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu * 1000


Samples = dict[str, list[float]]
Step = tuple[str, Callable[[], object]]


def turn_steps(work: Path, files: int, n: int, python: str, prefix: str = "") -> list[Step]:
    """One agent turn's hooks as ``python`` runs them: 10 files edited, turn-start,
    turn-start again, one file edited, tool-use naming it, turn-end; then a new
    untracked file and turn-start."""
    start = payload(work, "turn-start")
    end = payload(work, "turn-end")
    edited = path_of(work, files, 5000 + n)
    used = payload(work, "tool-use", edited)

    def ten() -> None:
        for k in range(10):
            i = 1000 + n * 10 + k
            path_of(work, files, i).write_bytes(module_bytes(i, f"turn {n}"))

    return [
        ("edit", ten),
        (prefix + "hook_10", lambda: hook(work, "turn-start", start, python)),
        (prefix + "hook_nochange", lambda: hook(work, "turn-start", start, python)),
        ("edit", lambda: edited.write_bytes(module_bytes(5000 + n, f"tool {n}"))),
        (prefix + "tool_use", lambda: hook(work, "tool-use", used, python)),
        (prefix + "turn_end", lambda: hook(work, "turn-end", end, python)),
        (prefix + "observed", background_done),
        ("edit", lambda: (work / "notes" / f"n{n}.txt").write_text(f"note {n}\n")),
        (prefix + "hook_new", lambda: hook(work, "turn-start", start, python)),
    ]


def speed(
    work: Path, files: int, reps: int, base: str | None, base_work: Path | None = None
) -> tuple[Samples, Samples]:
    scratch = work.parent / "shadow.index"
    wall: Samples = {}
    cpu: Samples = {}
    for rep in range(reps + 1):
        turns = [turn_steps(work, files, rep, sys.executable)]
        if base:
            # The version before, first every other round, on its own copy of the
            # repository given the same edits: sharing one would let each version's
            # private snapshot index and scan cache (whose formats may differ) be
            # rewritten by the other between two of its turns, which no real
            # project sees.
            turns.append(turn_steps(base_work or work, files, rep, base, "base_"))
            turns = turns[rep % 2 :] + turns[: rep % 2]
        baselines: list[Step] = [
            ("status", lambda: status(work)),
            ("shadow", lambda: shadow(work, scratch)),
            ("python", lambda: subprocess.run([sys.executable, "-c", "pass"], check=True)),
        ]
        # Rotate the baselines; the hooks keep the order a turn has.
        turn = rep % len(baselines)
        steps = [s for t in turns for s in t] + baselines[turn:] + baselines[:turn]
        if base and base_work is not None:
            # The base's repository sees the same git commands (unmeasured): the
            # benchmark's own `git status` rewrites the user's index, which makes
            # the next turn seed its private index again.
            steps += [
                ("edit", lambda: status(base_work)),
                ("edit", lambda: shadow(base_work, scratch)),
            ]
        for name, fn in steps:
            if name == "edit":
                fn()
                continue
            ms, spent = cpu_timed(fn)
            if rep:  # the first repetition warms caches and is discarded
                wall.setdefault(name, []).append(ms)
                cpu.setdefault(name, []).append(spent)
    return wall, cpu


def growth(work: Path, turns: int) -> dict[str, Any]:
    from vibflow.agent_hook import _Call, _services
    from vibflow.steps.agents.hook import HookHandler
    from vibflow.steps.agents.payloads import HookEvent
    from vibflow.steps.checkpoints.store import CheckpointStore
    from vibflow.steps.workspace.root import state_dir

    state = state_dir(work)
    settings = {
        "timeout": 60.0,
        "keep_sessions": 10_000,
        "keep_days": 3650,
        "max_turns": 1_000_000,
        "checkpoints": None,
    }
    call = _Call("claude-code", "bench")
    services = _services(call, work, state, settings)
    services.observe = None  # memory is not what is measured here
    handler = HookHandler(services)
    git_before = du(work / ".git")
    for n in range(turns):
        session = f"bench-{n // 10}"
        handler.handle(HookEvent("claude-code", "turn_start", session))
        for k in range(2):
            p = work / f"pkg{(n * 2 + k) % 400:04d}" / f"mod{(n * 2 + k) % 20000:05d}.py"
            p.write_bytes(p.read_bytes() + f"# turn {n}\n".encode())
        if n % 10 == 0:
            (work / "new").mkdir(exist_ok=True)
            (work / "new" / f"f{n}.py").write_text(f"x = {n}\n")
        handler.handle(HookEvent("claude-code", "turn_end", session))
    store = CheckpointStore(work, state)
    kept_before = len(store.all())
    bytes_before = store.size_bytes()
    git_after = du(work / ".git")
    pins = services.records.pinned_checkpoints(
        keep_sessions=5, keep_days=0, max_turns=2000, now=datetime.now(UTC)
    )
    # Past the grace period a new turn checkpoint has before its turn pins it.
    later = datetime.now(UTC) + timedelta(minutes=11)
    pruned = CheckpointStore(work, state, pins=lambda: pins).prune(now=later)
    bytes_after = store.size_bytes()
    git(work, "gc", "-q", "--prune=now")
    return {
        "turns": turns,
        "checkpoints": kept_before,
        "store_bytes": bytes_before,
        "git_bytes_before_turns": git_before,
        "git_bytes_after_turns": git_after,
        "pruned": len(pruned),
        "checkpoints_after_retention": len(store.all()),
        "store_bytes_after_retention": bytes_after,
        "git_bytes_after_retention_and_gc": du(work / ".git"),
    }


def du(path: Path) -> int:
    total = 0
    for dirpath, _, names in os.walk(path):
        for name in names:
            with contextlib.suppress(OSError):  # a file gc removed meanwhile
                total += (Path(dirpath) / name).stat().st_size
    return total


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=20_000)
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--turns", type=int, default=500)
    ap.add_argument(
        "--base-python",
        help="also time the hooks with this interpreter (another checkout's venv: the "
        "version before), round by round on the same repository",
    )
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    compile_installed()
    if args.base_python:
        compile_installed(args.base_python, Path(args.base_python).resolve().parents[2])
    with tempfile.TemporaryDirectory(prefix="vibflow-agent-bench-") as tmp:
        work = build(Path(tmp), args.files)
        base_work = build(Path(tmp) / "base", args.files) if args.base_python else None
        times, cpu = speed(work, args.files, args.reps, args.base_python, base_work)
        grown = growth(work, args.turns) if args.turns else None
    st = statistics.median(times["status"])
    rows = {
        name: {
            "p50_ms": round(pct(v, 0.5), 1),
            "p90_ms": round(pct(v, 0.9), 1),
            "cpu_p50_ms": round(pct(cpu[name], 0.5), 1),
            "vs_status": round(statistics.median(v) / st, 2),
        }
        for name, v in times.items()
    }
    result = {
        "files": args.files,
        "reps": args.reps,
        "times": rows,
        "hook_10_vs_status": rows["hook_10"]["vs_status"],
        "hook_nochange_vs_status": rows["hook_nochange"]["vs_status"],
        "hook_10_vs_shadow": round(
            statistics.median(times["hook_10"]) / statistics.median(times["shadow"]), 2
        ),
        "base_over_head": {
            name: round(statistics.median(times["base_" + name]) / statistics.median(v), 2)
            for name, v in times.items()
            if "base_" + name in times
        },
        "growth": grown,
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{'':<52} {'p50':>9} {'p90':>9} {'cpu p50':>9} {'x status':>9}")
    for name, row in rows.items():
        label = NAMES[name.removeprefix("base_")] + (" [base]" if name.startswith("base_") else "")
        print(
            f"{label:<52} {row['p50_ms']:>6.1f} ms {row['p90_ms']:>6.1f} ms"
            f" {row['cpu_p50_ms']:>6.1f} ms {row['vs_status']:>8.2f}x"
        )
    print(json.dumps({k: v for k, v in result.items() if k != "times"}, indent=2))


if __name__ == "__main__":
    main()
