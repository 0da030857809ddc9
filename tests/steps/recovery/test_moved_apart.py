"""A file of yours moved and rewritten past git's rename detection (``moved_apart``).

The pure pairing, then real repositories through the real CLI: the new place is
in scope (for review), and the recommended partial restore leaves it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from vibflow_testing.advisor import checkpoint, commit_app, drift_of, recover, set_memory, zone_of
from vibflow_testing.apply import choose, confirm, ok_json, start, stored_option
from vibflow_testing.cli import Cli
from vibflow_testing.git import git

from vibflow.steps.recovery.moved_apart import moves

REPORT = "def report(rows):\n    return len(rows)\n"
REWRITTEN = (
    "import io\n\n\nclass Writer:\n    def write_rows(self, rows):\n"
    "        out = io.StringIO()\n        for r in rows:\n"
    "            out.write(','.join(r))\n        return out.getvalue()\n"
)


def test_the_same_stem_then_the_same_name_then_the_one_new_file_of_its_kind() -> None:
    assert moves(["src/report.js"], ["src/report.ts", "src/other.ts"]) == {
        "src/report.ts": ("src/report.js", "has its name")
    }
    assert moves(["src/report.py"], ["src/reports/report.py", "lib/x.py"]) == {
        "src/reports/report.py": ("src/report.py", "has its file name, in another folder")
    }
    assert moves(["src/report.py"], ["src/writer.py", "docs/x.md"]) == {
        "src/writer.py": ("src/report.py", "is the one new file of its kind beside it")
    }


def test_two_candidates_decide_nothing_and_each_side_pairs_once() -> None:
    assert moves(["src/report.py"], ["src/a.py", "src/b.py"]) == {}
    assert moves(["src/report.py"], ["x/report.py", "y/report.py"]) == {}
    assert moves(["src/report.py"], ["src/notes.md"]) == {}  # another kind
    assert moves(["src/Makefile"], ["src/Rakefile"]) == {}  # no suffix: no kind
    # Two deleted files, one new file of their kind: the first to ask takes it,
    # and the second finds none left.
    found = moves(["src/a.py", "src/b.py"], ["src/c.py"])
    assert list(found.values()) == [("src/a.py", "is the one new file of its kind beside it")]


@pytest.fixture
def moved(repo: Path, cli: Cli) -> Path:
    """``src/report.py`` is yours; the agent moved it to ``src/writer.py`` and rewrote it
    (git cannot pair them), and retitled the dashboard beside it."""
    commit_app(
        repo,
        {
            "src/report.py": REPORT,
            "src/dashboard.py": "def dashboard():\n    return 1\n",
            "settings.toml": "x = 1\n",
        },
    )
    set_memory(repo, intent="Add a CSV export to the report", explicit={"src/report.py": "mine"})
    checkpoint(cli)
    git(repo, "mv", "src/report.py", "src/writer.py")
    (repo / "src" / "writer.py").write_text(REWRITTEN, encoding="utf-8")
    (repo / "src" / "dashboard.py").write_text("def dashboard():\n    return 2\n")
    return repo


@pytest.mark.usefixtures("moved")
def test_the_new_place_of_your_deleted_file_is_in_scope_for_review(cli: Cli) -> None:
    plan = recover(cli, "--explain")
    assert zone_of(plan)["src/writer.py"] == "name_proximity"
    entry = next(z for z in plan["intent_zone"] if z["path"] == "src/writer.py")
    assert entry["requires_user_review"] is True
    assert "your 'src/report.py' was deleted" in entry["reason"]
    assert drift_of(plan) == {"src/dashboard.py"}


def test_the_recommended_restore_keeps_the_moved_file(moved: Path) -> None:
    run = start(moved)
    assert stored_option(moved, run, 3)["affected_paths"] == ["src/dashboard.py"]
    done = ok_json(confirm(moved, choose(moved, run, 3)))
    assert done["status"] == "done", done
    assert (moved / "src" / "writer.py").read_text(encoding="utf-8") == REWRITTEN
    assert (moved / "src" / "dashboard.py").read_text() == "def dashboard():\n    return 1\n"
