"""``vibflow recover --preview --json`` with many recorded agent turns, paired
against another vibflow in the same run.

With the agent hooks installed, every preview reads the recent turns' records
and diffs the trees of their checkpoints (``steps/recovery/evidence_yours``),
and a checkpoint of yours that holds the agent's drift may be stepped back from
(``steps/recovery/turn_proof``). This builds one repository (``--files`` Python
files), an intent, and ``--turns`` agent turns recorded through the real hook
handler (``vibflow agent run``'s wrapping), each rewriting one file, then times
fresh preview processes of this vibflow and of ``--base`` (another install's
``vibflow``), alternating, after two warm-up rounds. Reported: each one's
median and minimum, and head over base (the median of the per-round ratios).

Usage::

    python benchmarks/preview_turns.py --base /path/to/base-venv/bin/vibflow
        [--turns 40] [--files 200] [--rounds 12]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchkit import GIT_ENV, VIBFLOW, git

_TURNS = """
import sys
from pathlib import Path
from vibflow.agent_hook import run_wrapped
root, turns = Path(sys.argv[1]), int(sys.argv[2])
for t in range(turns):
    target = root / "src" / f"m{t % 10}" / f"f{t}.py"
    def edit(target=target, t=t):
        target.write_text(f"x = {t}  # turn\\n", encoding="utf-8")
        return 0
    run_wrapped(root, "claude-code", edit)
"""


def build(root: Path, files: int, turns: int) -> None:
    for i in range(files):
        folder = root / "src" / f"m{i % 10}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"f{i}.py").write_text(f"x = {i}\n", encoding="utf-8")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    for args in (
        ("memory", "intent", "tune f1", "--yes"),
        ("memory", "relevant", "src/m1/f1.py", "it", "--yes"),
    ):
        subprocess.run([*VIBFLOW, *args], cwd=root, env=GIT_ENV, check=True, capture_output=True)
    subprocess.run(
        [sys.executable, "-c", _TURNS, str(root), str(turns)], cwd=root, env=GIT_ENV, check=True
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the other install's vibflow command")
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=12)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="vibflow-turns-") as tmp:
        root = Path(tmp) / "project"
        root.mkdir()
        build(root, args.files, args.turns)
        commands = {"head": [*VIBFLOW], "base": [args.base]}
        times: dict[str, list[float]] = {"head": [], "base": []}
        ratios: list[float] = []
        for n in range(args.rounds + 2):
            order = ["head", "base"] if n % 2 else ["base", "head"]
            took: dict[str, float] = {}
            for name in order:
                start = time.perf_counter()
                subprocess.run(
                    [*commands[name], "recover", "--preview", "--json"],
                    cwd=root,
                    env=GIT_ENV,
                    check=True,
                    capture_output=True,
                )
                took[name] = time.perf_counter() - start
            if n >= 2:
                for name, seconds in took.items():
                    times[name].append(seconds)
                ratios.append(took["head"] / took["base"])
    print(f"{args.files} files, {args.turns} recorded turns, {args.rounds} rounds")
    for name, values in times.items():
        print(
            f"  {name}: median {statistics.median(values) * 1000:.0f} ms, "
            f"min {min(values) * 1000:.0f} ms"
        )
    print(f"  head / base: {statistics.median(ratios):.3f} (median of per-round ratios)")


if __name__ == "__main__":
    main()
