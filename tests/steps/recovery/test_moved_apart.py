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

from vibflow.steps.recovery.moved_apart import moves, similar

REPORT = "".join(f"def part_{i}(rows):\n    return rows[{i}]\n\n\n" for i in range(8))
REWRITTEN = (
    "import io\n\n\nclass Writer:\n    def write_rows(self, rows):\n"
    "        out = io.StringIO()\n        for r in rows:\n"
    "            out.write(','.join(r))\n        return out.getvalue()\n"
)


def test_most_lines_in_common_then_the_same_stem_beside_it() -> None:
    moved = REPORT + "# one line more\n"
    assert moves({"src/report.py": REPORT}, {"lib/writer.py": moved, "src/x.py": "a\nb\nc\n"}) == {
        "lib/writer.py": ("src/report.py", "holds most of its lines")
    }
    assert moves({"src/report.js": REPORT}, {"src/report.ts": REWRITTEN, "src/o.ts": None}) == {
        "src/report.ts": ("src/report.js", "has its name, beside it")
    }


def test_a_rewrite_under_another_name_or_two_candidates_decide_nothing() -> None:
    assert moves({"src/report.py": REPORT}, {"src/writer.py": REWRITTEN}) == {}
    assert moves({"src/report.py": REPORT}, {"a/r.py": REPORT, "b/r.py": REPORT}) == {}
    # A stub or a file that merely quotes a few lines is no move.
    assert not similar(REPORT, "def part_0(rows):\n")
    assert not similar(REPORT, REPORT + "".join(f"x{i} = {i}\n" for i in range(40)))


@pytest.fixture
def moved(repo: Path, cli: Cli) -> Path:
    """``src/report.py`` is yours; the agent moved it with a plain ``mv`` (not staged),
    added a line, wrote a new helper beside it, and retitled the dashboard."""
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
    (repo / "src" / "report.py").unlink()
    (repo / "src" / "writer.py").write_text(REPORT + "# csv next\n", encoding="utf-8")
    (repo / "src" / "helper.py").write_text(REWRITTEN, encoding="utf-8")
    (repo / "src" / "dashboard.py").write_text("def dashboard():\n    return 2\n")
    return repo


@pytest.mark.usefixtures("moved")
def test_the_new_place_of_your_deleted_file_is_in_scope_for_review(cli: Cli) -> None:
    plan = recover(cli, "--explain")
    assert zone_of(plan)["src/writer.py"] == "name_proximity"
    entry = next(z for z in plan["intent_zone"] if z["path"] == "src/writer.py")
    assert entry["requires_user_review"] is True
    assert "your 'src/report.py' was deleted" in entry["reason"]
    assert drift_of(plan) == {"src/dashboard.py", "src/helper.py"}


def test_the_recommended_restore_keeps_the_moved_file(moved: Path) -> None:
    run = start(moved)
    assert stored_option(moved, run, 3)["affected_paths"] == ["src/dashboard.py", "src/helper.py"]
    done = ok_json(confirm(moved, choose(moved, run, 3)))
    assert done["status"] == "done", done
    assert (moved / "src" / "writer.py").read_text(encoding="utf-8") == REPORT + "# csv next\n"
    assert not (moved / "src" / "helper.py").exists()
    assert (moved / "src" / "dashboard.py").read_text() == "def dashboard():\n    return 1\n"


def test_removing_a_file_or_a_folder_you_named_pairs_nothing(repo: Path, cli: Cli) -> None:
    """ "Remove the legacy exporter" deletes your file and the agent adds a new one
    beside it; "remove the old package" deletes your folder and new ``utils.py`` and
    ``__init__.py`` appear elsewhere: none of them is your file moved."""
    commit_app(
        repo,
        {
            "src/legacy_export.py": REPORT,
            "src/old/__init__.py": "def a():\n    pass\n",
            "src/old/utils.py": "def u():\n    pass\n",
        },
    )
    set_memory(
        repo,
        intent="Remove the legacy exporter and the old package",
        explicit={"src/legacy_export.py": "to delete", "src/old/": "to delete"},
    )
    for rel in ("src/legacy_export.py", "src/old/__init__.py", "src/old/utils.py"):
        (repo / rel).unlink()
    (repo / "src" / "telemetry.py").write_text(REWRITTEN, encoding="utf-8")
    (repo / "web" / "plugins").mkdir(parents=True)
    (repo / "web" / "plugins" / "utils.py").write_text("import os\nos.system('x')\n")
    (repo / "web" / "plugins" / "__init__.py").write_text("A = 1\n")
    plan = recover(cli, "--explain")
    new = {"src/telemetry.py", "web/plugins/utils.py", "web/plugins/__init__.py"}
    assert new <= drift_of(plan)
