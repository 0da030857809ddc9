"""What telling your own edits from the agent's costs a recovery preview.

A repository of ``--files`` small modules is built and committed, memory gets an
intent and one explicit file, and ``--turns`` agent turns are recorded through
the real hooks (Claude Code's documented payloads, one process per hook): each
turn edits one module with its Edit tool, the last one also drifts into
another; then the user edits a file after the last turn. A fresh
``vibflow recover --preview --json`` is then timed, round by round in
alternating order:

* **with records** — ``.vibflow/agents.db`` in place: the plan reads the recent
  turns and the user's edit is in scope (``user_edit``);
* **without records** — the same repository with ``agents.db`` moved aside: no
  turn is read at all (nor the last-turn note), the edit is drift;
* **before** (with ``--base-python PY``: another checkout's interpreter, e.g.
  main's venv) — the version without this evidence, on the same repository
  with its records: the baseline the added cost is measured against.

Also timed in-process: ``evidence_yours.find`` alone (the one ``diff-tree
--stdin`` over every stretch and the comparison with the last turn's end
checkpoint). Reported: medians (ms), and the ratio with / without.

Usage (from the repository root, with the dev venv)::

    .venv/bin/python benchmarks/user_edits_cost.py [--files 2000] [--turns 10] [--reps 9]
        [--base-python ../main/.venv/bin/python]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from benchkit import GIT_ENV, REPO, VIBFLOW, compile_installed, git, measured_ok, timed

PAYLOADS = REPO / "tests" / "agents" / "payloads" / "claude-code"
EVENTS = {
    "turn-start": "UserPromptSubmit.json",
    "tool-use": "PostToolUse.Edit.json",
    "turn-end": "Stop.json",
}
ENV = {k: v for k, v in GIT_ENV.items() if not k.startswith("VIBFLOW_")}


def hook(work: Path, event: str, file: Path | None = None) -> None:
    text = (PAYLOADS / EVENTS[event]).read_text("utf-8").replace("<ROOT>", str(work))
    data = text.replace("<FILE>", str(file or "")).encode()
    proc = subprocess.run(
        [*VIBFLOW, "agent", "hook", "claude-code", event],
        input=data,
        cwd=work,
        env=ENV,
        capture_output=True,
        check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"the hook failed: {proc.stderr!r}")


def vf(work: Path, *args: str) -> str:
    proc = subprocess.run(
        [*VIBFLOW, *args], cwd=work, env=ENV, capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        raise SystemExit(f"vibflow {' '.join(args)} failed: {proc.stderr}")
    return proc.stdout


def build(root: Path, files: int, turns: int) -> Path:
    work = root / "work"
    for i in range(files):
        path = work / f"pkg{i % 40:02d}" / f"mod{i:05d}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"value = {i}\n", encoding="utf-8")
    (work / "notes.md").write_text("my notes\n", encoding="utf-8")
    git(work, "init", "-q", "-b", "main")
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "generated")
    vf(work, "memory", "intent", "Make module zero return two", "--yes")
    vf(work, "memory", "relevant", "pkg00/mod00000.py", "the module", "--yes")
    for n in range(turns):
        hook(work, "turn-start")
        edited = work / "pkg00" / "mod00000.py"
        edited.write_text(f"value = 2  # turn {n}\n", encoding="utf-8")
        hook(work, "tool-use", edited)
        if n == turns - 1:
            drift = work / "pkg01" / "mod00001.py"
            drift.write_text("value = 'drift'\n", encoding="utf-8")
            hook(work, "tool-use", drift)
        hook(work, "turn-end")
    with (work / "notes.md").open("a", encoding="utf-8") as fh:
        fh.write("a line I added myself\n")
    return work


def check(work: Path, *, with_records: bool) -> None:
    plan = json.loads(vf(work, "recover", "--preview", "--json"))
    zone = {z["path"]: z["source"] for z in plan["intent_zone"]}
    got = zone.get("notes.md")
    want = "user_edit" if with_records else None
    if got != want:
        raise SystemExit(f"notes.md is {got!r} in the zone, expected {want!r}")


def in_process(work: Path, reps: int) -> float:
    """Median ms of ``evidence_yours.find`` on the repository as the advisor reads it."""
    from vibflow.agent_wiring import recorded_turns
    from vibflow.steps.recovery import evidence_yours
    from vibflow.steps.workspace.git import Git
    from vibflow.wiring import Project

    project = Project.discover(work)
    plan = project.recovery.advise().plan
    turns = evidence_yours.Turns(recorded_turns(project)(), project.checkpoints.all())
    mtimes = {c.path: os.lstat(work / c.path).st_mtime for c in plan.changed}
    git_ = Git(work)
    times = [
        timed(lambda: evidence_yours.find(work, git_, turns, plan.changed, mtimes))
        for _ in range(reps)
    ]
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--reps", type=int, default=9)
    parser.add_argument("--base-python", help="the version before, measured in the same rounds")
    args = parser.parse_args()
    compile_installed()
    if args.base_python:
        base_root = Path(args.base_python).resolve().parents[2]
        compile_installed(args.base_python, base_root)
    with tempfile.TemporaryDirectory(prefix="vibflow-yours-") as tmp:
        work = build(Path(tmp), args.files, args.turns)
        records = work / ".vibflow" / "agents.db"
        aside = work / ".vibflow" / "agents.db.aside"
        tail = ["-m", "vibflow", "recover", "--preview", "--json"]
        runs = {
            "with": ([sys.executable, *tail], True),
            "without": ([sys.executable, *tail], False),
        }
        if args.base_python:
            runs["before"] = ([args.base_python, *tail], True)
        check(work, with_records=True)
        times: dict[str, list[float]] = {name: [] for name in runs}
        for rep in range(args.reps + 1):
            order = list(runs) if rep % 2 == 0 else list(reversed(runs))
            for name in order:
                argv, on = runs[name]
                if not on:
                    records.rename(aside)
                try:
                    wall, _ = measured_ok(argv, work, ENV)
                finally:
                    if not on:
                        aside.rename(records)
                if rep:  # the first round warms the caches
                    times[name].append(wall * 1000)
        records.rename(aside)
        check(work, with_records=False)
        aside.rename(records)
        alone = in_process(work, args.reps)
    med = {name: statistics.median(t) for name, t in times.items()}
    print(f"files {args.files}, turns {args.turns}, reps {args.reps}")
    print("| preview (fresh process) | median ms |")
    print("|---|---:|")
    print(f"| this version, with turn records (user_edit evidence) | {med['with']:.0f} |")
    print(f"| this version, without turn records | {med['without']:.0f} |")
    if "before" in med:
        print(f"| the version before (--base-python), with turn records | {med['before']:.0f} |")
        print(f"| ratio this / before, with records | {med['with'] / med['before']:.2f} |")
    print(f"| evidence_yours.find alone (in-process) | {alone:.1f} |")


if __name__ == "__main__":
    main()
