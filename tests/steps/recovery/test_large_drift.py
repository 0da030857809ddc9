"""A drift of thousands of files runs the whole recover flow.

The run's context is bounded (``engine.context_max_bytes``, 64 KiB by default)
and rewritten at every transition; the plan it shows is kept beside the run.
Before that, ~2,000 drifted files stopped ``run recover`` at ``explain`` with
"the run context would grow to 92990 bytes".
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from vibflow_testing.apply import (
    APPLY,
    agent_rewrote,
    choose,
    confirm,
    ok_json,
    option,
    start,
    stored_option,
)
from vibflow_testing.cli import vf
from vibflow_testing.repo import write

pytestmark = pytest.mark.slow

#: Long enough names that every path list of the plan is far over the context bound.
N = 2500


def _name(i: int) -> str:
    return f"src/generated_by_nobody/some_long_module_folder/module_number_{i:05d}.py"


def _context_bytes(root: Path, run_id: str) -> int:
    with sqlite3.connect(root / ".vibflow" / "runs.db") as db:
        (context,) = db.execute("SELECT context FROM runs WHERE run_id = ?", (run_id,)).fetchone()
    return len(context.encode("utf-8") if isinstance(context, str) else context)


def test_a_drift_of_thousands_of_files_is_restored_by_the_whole_flow(repo: Path) -> None:
    names = [_name(i) for i in range(N)]
    agent_rewrote(repo, names)

    run = start(repo)
    assert run["plan"]["changed_total"] == N
    full = stored_option(repo, run, 4)
    assert len(full["affected_paths"]) == N
    assert option(run, 4)["affected_paths_total"] == N
    assert _context_bytes(repo, run["run_id"]) < 65536

    at = choose(repo, run, 4)
    assert at["paths_total"] == N
    done = ok_json(confirm(repo, at))
    assert done["status"] == "done", done
    assert done["result"]["files_modified"] == N
    assert done["result"]["review_total"] == 0
    for rel in names[::97]:
        assert (repo / rel).read_text(encoding="utf-8") == f"orig {rel}\n"
    assert _context_bytes(repo, run["run_id"]) < 65536


def test_each_run_restores_from_its_own_plan_when_two_are_in_flight(repo: Path) -> None:
    """A second recover run (which records its own preview) does not change what the
    first one restores: each run's plan is kept under its own id."""
    names = [f"src/mod/f{i:03d}.py" for i in range(120)]
    agent_rewrote(repo, names)
    first = start(repo)
    write(repo, "src/mod/f000.py", "edited again\n")
    second = start(repo)
    assert second["plan"]["plan_id"] != first["plan"]["plan_id"]

    at = choose(repo, first, 4)
    assert at["paths_total"] == len(names)
    done = ok_json(confirm(repo, at))
    assert done["status"] == "done", done
    assert all((repo / rel).read_text(encoding="utf-8") == f"orig {rel}\n" for rel in names)
    plans = repo / ".vibflow" / "recovery" / "plans"
    stored = json.loads((plans / f"{first['run_id']}.json").read_text(encoding="utf-8"))
    assert stored["plan_id"] == first["plan"]["plan_id"]


def test_a_saved_selection_chooses_a_subset_and_a_stale_one_is_refused(repo: Path) -> None:
    """`choose --input selection=ID` takes the subset saved beside the run under that
    id; an id that names no saved subset (or comes with paths too) is refused."""
    from vibflow.steps.recovery.plans import RunPlans

    names = [f"src/mod/f{i:03d}.py" for i in range(30)]
    agent_rewrote(repo, names)
    run = start(repo)
    opt = option(run, 4)["option_id"]
    plans = RunPlans(repo / ".vibflow" / "recovery" / "plans")
    chosen = names[:10]
    ident = plans.save_selection(run["run_id"], chosen)
    step = ["step", run["run_id"], "choose", "--input", f"option={opt}", "--json"]
    stale = vf(repo, *step, "--input", "selection=sel_" + "0" * 32, env=APPLY)
    assert stale.returncode == 3
    assert "not saved beside this run" in stale.stdout + stale.stderr
    both = vf(repo, *step, "--input", f"selection={ident}", "--input", "paths=x", env=APPLY)
    assert both.returncode == 3
    at = ok_json(vf(repo, *step, "--input", f"selection={ident}", env=APPLY))
    assert at["paths_total"] == len(chosen)
    done = ok_json(confirm(repo, at))
    assert done["result"]["files_modified"] == len(chosen)
    for rel in names:
        want = f"orig {rel}\n" if rel in chosen else f"agent {rel}\n"
        assert (repo / rel).read_text(encoding="utf-8") == want
