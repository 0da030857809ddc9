"""The agent's turn-start hook: how long the agent waits on it, against plain git.

A repository of ``--files`` small modules (default 20,000 in 400 folders) is
built and committed. One repetition, in a rotating order, times as fresh
processes:

* **hook, 10 changed** — 10 tracked files edited, then ``python -m vibflow
  agent hook claude-code turn-start`` fed Claude Code's documented
  ``UserPromptSubmit`` payload (a new turn: a checkpoint of the tree);
* **hook, nothing changed** — the same hook again right after (the last
  checkpoint is reused);
* **git status** — ``git status --porcelain`` in the same state;
* **shadow snapshot** — what shadow-repository checkpointers do per turn:
  ``git stash create`` plus ``git add -A`` into a copy of the index and
  ``git write-tree``.

p50 and p90 over ``--reps`` repetitions (after one discarded warm-up), and
the hook's ratio to ``git status`` in the same run.

Growth: ``--turns`` turns (default 500) of small edits (two files changed per
turn, a new file every tenth turn), recorded in-process through the same hook
handler (two checkpoints a turn, sessions of 10 turns): the bytes only the
checkpoints keep alive (``CheckpointStore.size_bytes``) and ``.git``'s size,
then the same after the turn retention (``agents.turns``: keep the last 5
sessions, 0 days) and ``git gc --prune=now``.

Usage (from the repository root, with the dev venv)::

    .venv/bin/python benchmarks/agent_hooks.py [--files N] [--reps 15] [--turns 500] [--json]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from benchkit import GIT_ENV, REPO, compile_installed, default_dirs, git, module_bytes, timed

PAYLOAD = REPO / "tests" / "agents" / "payloads" / "claude-code" / "UserPromptSubmit.json"


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
    time.sleep(1.1)  # out of git's racy-clean window
    git(work, "update-index", "-q", "--refresh", env={"GIT_OPTIONAL_LOCKS": "1"})
    return work


def path_of(work: Path, files: int, i: int) -> Path:
    return work / f"pkg{i % default_dirs(files):04d}" / f"mod{i:05d}.py"


def hook(work: Path, payload: bytes) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "vibflow", "agent", "hook", "claude-code", "turn-start"],
        input=payload,
        cwd=work,
        env={k: v for k, v in GIT_ENV.items() if not k.startswith("VIBFLOW_")},
        capture_output=True,
        check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"the hook failed: {proc.stderr!r}")


def shadow(work: Path, scratch: Path) -> None:
    subprocess.run(["git", "stash", "create"], cwd=work, capture_output=True, check=True)
    shutil.copy2(work / ".git" / "index", scratch)
    env = {**GIT_ENV, "GIT_INDEX_FILE": str(scratch)}
    subprocess.run(["git", "add", "-A"], cwd=work, env=env, capture_output=True, check=True)
    subprocess.run(["git", "write-tree"], cwd=work, env=env, capture_output=True, check=True)


def status(work: Path) -> None:
    subprocess.run(["git", "status", "--porcelain"], cwd=work, capture_output=True, check=True)


def speed(work: Path, files: int, reps: int) -> dict[str, list[float]]:
    payload = PAYLOAD.read_text("utf-8").replace("<ROOT>", str(work)).encode()
    scratch = work.parent / "shadow.index"
    out: dict[str, list[float]] = {"hook_10": [], "hook_nochange": [], "status": [], "shadow": []}
    for rep in range(reps + 1):

        def changed(rep: int = rep) -> None:
            for k in range(10):
                p = path_of(work, files, 1000 + rep * 10 + k)
                p.write_bytes(module_bytes(1000 + rep * 10 + k, f"turn {rep}"))
            hook(work, payload)

        order = [
            ("hook_10", changed),
            ("hook_nochange", lambda: hook(work, payload)),
            ("status", lambda: status(work)),
            ("shadow", lambda: shadow(work, scratch)),
        ]
        # Rotate the git baselines; the no-change hook always follows the changed one.
        tail = order[2:]
        tail = tail[rep % 2 :] + tail[: rep % 2]
        for name, fn in order[:2] + tail:
            ms = timed(fn)
            if rep:  # the first repetition warms caches and is discarded
                out[name].append(ms)
    return out


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
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    compile_installed()
    with tempfile.TemporaryDirectory(prefix="vibflow-agent-bench-") as tmp:
        work = build(Path(tmp), args.files)
        times = speed(work, args.files, args.reps)
        grown = growth(work, args.turns) if args.turns else None
    rows = {
        name: {"p50_ms": round(pct(v, 0.5), 1), "p90_ms": round(pct(v, 0.9), 1)}
        for name, v in times.items()
    }
    st = statistics.median(times["status"])
    result = {
        "files": args.files,
        "reps": args.reps,
        "times": rows,
        "hook_10_vs_status": round(statistics.median(times["hook_10"]) / st, 2),
        "hook_nochange_vs_status": round(statistics.median(times["hook_nochange"]) / st, 2),
        "hook_10_vs_shadow": round(
            statistics.median(times["hook_10"]) / statistics.median(times["shadow"]), 2
        ),
        "growth": grown,
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    for name, row in rows.items():
        print(f"{name:<14} p50 {row['p50_ms']:>7.1f} ms   p90 {row['p90_ms']:>7.1f} ms")
    print(json.dumps({k: v for k, v in result.items() if k != "times"}, indent=2))


if __name__ == "__main__":
    main()
