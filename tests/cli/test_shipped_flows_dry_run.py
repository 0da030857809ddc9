"""Every shipped flow dry-runs in a real project: exit 0, and nothing written.

Issue 11 found `vibflow run recover --dry-run` crashing (`KeyError:
'recovery'`: the dry run's steps could not reach their services). Each flow
shipped in ``flows/`` is dry-run here in a git repository with a checkpoint
and a drift, through the real CLI; the run journal, the audit rail, memory and
the recovery records must be byte-identical afterwards and no run is listed.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import pytest
from vibflow_testing.cli import as_json, vf
from vibflow_testing.repo import write

SHIPPED = sorted(
    p.name.removesuffix(".yaml")
    for p in files("vibflow.flows").iterdir()
    if p.name.endswith(".yaml")
)
# The diff's scratch index is git's own cache of file stats (nothing of the user's,
# rebuilt at will); every other file under .vibflow/ must stay as it was.
SCRATCH = {Path("recovery/diff.index")}


def snapshot(root: Path) -> dict[Path, bytes]:
    state = root / ".vibflow"
    return {
        p.relative_to(state): p.read_bytes()
        for p in sorted(state.rglob("*"))
        if p.is_file() and p.relative_to(state) not in SCRATCH
    }


@pytest.fixture
def drifted(repo: Path) -> Path:
    write(repo, "src/app.py", "print('v1')\n")
    assert vf(repo, "checkpoint", "create", "-m", "before").returncode == 0
    write(repo, "src/app.py", "print('v2')\n")
    write(repo, "config.yaml", "debug: true\n")
    return repo


def test_the_shipped_flows_are_found() -> None:
    """The parametrization below sees the shipped flows (recover at least)."""
    assert "recover" in SHIPPED


@pytest.mark.parametrize("flow", SHIPPED)
def test_a_dry_run_of_each_shipped_flow_succeeds_and_writes_nothing(
    drifted: Path, flow: str
) -> None:
    """`run FLOW --dry-run --json` exits 0, walks the flow, and leaves .vibflow/ as it was."""
    before = snapshot(drifted)
    proc = vf(drifted, "run", flow, "--dry-run", "--json")
    assert proc.returncode == 0, proc.stderr
    report = as_json(proc)
    assert report["flow"] == flow
    assert report["path"], "the dry run walked no state"
    assert report["ended"] in {"final", "wait", "blocked"}
    assert snapshot(drifted) == before
    runs = as_json(vf(drifted, "runs", "list", "--json"))["runs"]
    assert runs == []
