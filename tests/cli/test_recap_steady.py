"""A recap reads the tree and memory once: its own "triggers firing now" line and the
nudges printed after it share one `git diff` and one memory validation, while a
project that may change the tree between two trigger evaluations reads it afresh."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from vibflow_testing.cli import vf
from vibflow_testing.repo import write

from vibflow.wiring import Project

pytestmark = pytest.mark.cli


def _lines_since_intent(project: Project) -> object:
    found = project.triggers.check(["intent_outgrown"])
    leaves = {leaf.metric: leaf.reading for leaf in found[0].leaves}
    return leaves["diff_lines_since_intent"]


@pytest.fixture
def with_intent(repo: Path) -> Path:
    """An intent set 8 hours ago and 50 lines written since: `intent_outgrown` fires,
    and deciding so needs the line count since the intent's commit."""
    assert vf(repo, "memory", "intent", "tune the importer", "--yes").returncode == 0
    path = repo / ".vibflow" / "memory.json"
    data = json.loads(path.read_text("utf-8"))
    then = datetime.now(UTC) - timedelta(hours=8)
    data["active_intent"]["last_updated"] = then.isoformat().replace("+00:00", "Z")
    path.write_text(json.dumps(data), "utf-8")
    write(repo, "README.md", "".join(f"line {i}\n" for i in range(50)))
    return repo


def test_a_changing_project_rereads_and_a_steady_one_reads_once(with_intent: Path) -> None:
    """Between two evaluations the tree grows by 2 lines: seen unless the project is steady."""
    changing, steady = Project(with_intent), Project(with_intent)
    steady.steady = True
    first = (_lines_since_intent(changing), _lines_since_intent(steady))
    write(with_intent, "README.md", "".join(f"line {i}\n" for i in range(52)))
    assert _lines_since_intent(changing) == first[0] + 2
    assert _lines_since_intent(steady) == first[1]
    state = steady.memory_facts.state()
    assert steady.memory_facts.state() is state  # validated once
    assert changing.memory_facts.state() is not changing.memory_facts.state()


def test_recap_runs_git_diff_and_rev_list_once(with_intent: Path, tmp_path: Path) -> None:
    """`vibflow recap` with nudges firing: one `diff --numstat`, one `rev-list --count`."""
    trace = tmp_path / "git-trace.txt"
    done = vf(with_intent, "recap", env={"GIT_TRACE": str(trace)})
    assert done.returncode == 0, done.stderr
    assert "Nudge: The work has grown" in done.stdout
    built = [line for line in trace.read_text("utf-8").splitlines() if "built-in:" in line]
    assert sum("diff --numstat" in line for line in built) == 1
    assert sum("rev-list --count" in line for line in built) == 1
