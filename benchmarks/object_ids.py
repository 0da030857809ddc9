"""What leaving a repository's commit ids readable costs the redaction contract.

An answer that holds full-length hex ids (a checkpoint's commit, tree and base
HEAD; a restore's ``from_commit`` and the recap headline naming it) now asks
git once per answer which of them name objects (``cat-file --batch-check``)
before leaving them unmasked. In the same run, on a repository with some
history, for the same answer:

* **cold**: no memo (a CLI command, or the MCP server's first answer naming new
  ids) — the ids masked as before, against readable with a fresh per-request
  lookup (one git process);
* **warm**: the MCP server's scan memo already holding the answer's texts — the
  ids masked as before (a memo of its own), against readable (a fresh lookup
  per request, as the server builds one per request: it is never asked).

Each measure is the median of ``--reps`` calls, in interleaved rounds; the
report gives each readable measure's ratio to its masked baseline and the
milliseconds it adds.

Usage (from the repository root, with the dev venv)::

    .venv/bin/python benchmarks/object_ids.py [--reps 200] [--out FILE]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchkit import REPO, git

from vibflow.steps.redaction.contract import redact_payload
from vibflow.steps.redaction.objects import KnownObjects
from vibflow.steps.redaction.scans import ScanMemo
from vibflow.steps.workspace.git import Git


def build(root: Path, commits: int = 50) -> Path:
    root.mkdir(parents=True)
    git(root, "init", "-q")
    for i in range(commits):
        (root / f"f{i % 7}.txt").write_text(f"{i}\n", encoding="utf-8")
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", f"c{i}")
    return root


def answer(root: Path) -> dict[str, Any]:
    """A checkpoint answer and a restore result, as the MCP server sends them."""
    head = git(root, "rev-parse", "HEAD")
    tree = git(root, "rev-parse", "HEAD^{tree}")
    parent = git(root, "rev-parse", "HEAD~1")
    return {
        "kind": "checkpoint",
        "checkpoint_id": "ckpt_" + "a" * 32,
        "commit": head,
        "tree": tree,
        "base_head": parent,
        "message": "before the refactor",
        "restore": {"from_commit": parent, "level": 3},
        "recap": {"headline": f"recover restored 5 files from {parent}"},
        "paths": [f"src/module_{i}.py" for i in range(40)],
    }


def median_ms(fn: Callable[[], object], reps: int) -> float:
    samples = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1000)
    return statistics.median(samples)


def measure(root: Path, reps: int) -> dict[str, float]:
    data = answer(root)
    repo_git = Git(root)
    masked = redact_payload(data, root=root).value
    shown = redact_payload(data, root=root, objects=KnownObjects(repo_git.existing_objects))
    assert masked["commit"] != data["commit"]  # before: masked
    assert shown.value["commit"] == data["commit"]  # now: readable
    assert shown.counts.secret_hits == 0
    memo, masked_memo = ScanMemo(), ScanMemo()
    redact_payload(data, root=root, memo=memo, objects=KnownObjects(repo_git.existing_objects))
    redact_payload(data, root=root, memo=masked_memo)
    rounds: dict[str, list[float]] = {"masked": [], "cold": [], "masked_warm": [], "warm": []}
    for _ in range(5):  # interleaved rounds: drift on a busy machine hits all alike
        rounds["masked"].append(median_ms(lambda: redact_payload(data, root=root), reps))
        rounds["masked_warm"].append(
            median_ms(lambda: redact_payload(data, root=root, memo=masked_memo), reps)
        )
        rounds["cold"].append(
            median_ms(
                lambda: redact_payload(
                    data, root=root, objects=KnownObjects(repo_git.existing_objects)
                ),
                reps,
            )
        )
        rounds["warm"].append(
            median_ms(
                lambda: redact_payload(
                    data,
                    root=root,
                    memo=memo,
                    objects=KnownObjects(repo_git.existing_objects),
                ),
                reps,
            )
        )
    return {name: statistics.median(values) for name, values in rounds.items()}


def report(found: dict[str, float], reps: int) -> str:
    commit = git(REPO, "rev-parse", "--short", "HEAD")
    today = datetime.now(UTC).strftime("%Y-%m-%d")
    rows = "\n".join(
        f"| {label} | {found[base]:.2f} ms | {found[key]:.2f} ms | "
        f"{found[key] / found[base]:.2f} | {found[key] - found[base]:+.2f} ms |"
        for key, base, label in (
            ("cold", "masked", "no memo (one `cat-file --batch-check` per answer)"),
            ("warm", "masked_warm", "warm server memo (git not asked)"),
        )
    )
    return f"""## Readable commit ids: the redaction cost (`benchmarks/object_ids.py`)

Command: `.venv/bin/python benchmarks/object_ids.py --reps {reps}` — {today}, commit {commit}.
One answer holding three commit ids and a tree id (a checkpoint and a restore's recap),
redacted; median of 5 interleaved rounds of {reps} calls each.

| redaction of the answer | ids masked (before) | ids readable | ratio | added |
|---|---|---|---|---|
{rows}
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=200)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="vibflow-objids-") as tmp:
        found = measure(build(Path(tmp) / "repo"), args.reps)
    text = report(found, args.reps)
    print(text)
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
