"""A Python file whose change only reformats it (the same syntax tree) is drift, whatever
links it to your files — unless the intent asks for formatting."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from vibflow_testing.cli import as_json, vf
from vibflow_testing.git import git
from vibflow_testing.repo import init_repo, write

from vibflow.steps.recovery import reformats

OLD = (
    "import pandas as pd\n\n\n"
    "def cohorts(events):\n    return events.groupby('user_id')['ts'].min()\n"
)
BLACKENED = OLD.replace("'", '"')


def test_a_quote_and_layout_change_is_a_reformat_and_a_real_edit_is_not() -> None:
    """Quotes swapped and a call re-wrapped: the same program. A changed name, a moved
    line out of a block, or an edited comment: not a reformat."""
    assert reformats.only_reformatted("a.py", OLD, BLACKENED)
    wrapped = OLD.replace("events.groupby(", "events.groupby(\n        ")
    assert reformats.only_reformatted("a.py", OLD, wrapped)
    assert not reformats.only_reformatted("a.py", OLD, OLD.replace("min()", "max()"))
    block = "if x:\n    a()\n    b()\n"
    assert not reformats.only_reformatted("a.py", block, "if x:\n    a()\nb()\n")
    commented = "x = 1  # one\n"
    assert not reformats.only_reformatted("a.py", commented, "x = 1  # uno\n")
    assert not reformats.only_reformatted("a.py", OLD, OLD)  # no change is no reformat


def test_only_python_is_judged_and_broken_code_never_is() -> None:
    """Shell quotes change meaning, so other languages are never judged; text that does
    not parse is no reformat."""
    assert not reformats.only_reformatted("run.sh", "echo '$HOME'\n", 'echo "$HOME"\n')
    assert not reformats.only_reformatted("a.py", "def f(:\n", "def f( :\n")


def test_an_intent_that_asks_for_formatting_turns_the_rule_off() -> None:
    """'run black over the analytics package' asks for the reformat."""
    assert reformats.asks_for_formatting(frozenset({"run", "black", "over"}))
    assert not reformats.asks_for_formatting(frozenset({"weekly", "retention", "chart"}))


def test_reformats_are_asked_in_one_batch_and_answered_once() -> None:
    """Only unknown Python files are read, together; known() never reads."""
    asked: list[list[str]] = []

    def texts(paths: Sequence[str]) -> dict[str, tuple[str | None, str | None]]:
        asked.append(list(paths))
        return dict.fromkeys(paths, (OLD, BLACKENED))

    found = reformats.Reformats(texts)
    assert not found.known("src/a.py")
    assert found.among(["src/a.py", "src/b.py", "README.md"]) == {"src/a.py", "src/b.py"}
    assert found.among(["src/a.py"]) == {"src/a.py"}
    assert found.known("src/b.py")
    assert asked == [["src/a.py", "src/b.py"]]


RETENTION = (
    "from analytics.cohorts import cohorts\n\n\n"
    "def retention(events):\n    return cohorts(events)\n"
)


def test_recover_calls_a_reformatted_neighbour_drift_in_a_real_repository(tmp_path: Path) -> None:
    """The agent writes the retention module the intent asks for and blackens the cohort
    helper it imports (changed together before): the helper is drift, saying why; with
    an intent that asks for formatting it is in scope."""
    root = init_repo(
        tmp_path / "repo",
        {"src/analytics/cohorts.py": OLD, "src/analytics/retention.py": RETENTION},
    )
    write(root, "src/analytics/retention.py", RETENTION + "\n\ndef weekly(events):\n    return 1\n")
    write(root, "src/analytics/cohorts.py", OLD + "\n\ndef first(events):\n    return 0\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "retention and cohorts together")
    vf(root, "memory", "intent", "a weekly retention curve", "--yes")
    vf(root, "memory", "relevant", "src/analytics/retention.py", "the curve", "--yes")
    now = (root / "src/analytics/retention.py").read_text(encoding="utf-8")
    write(root, "src/analytics/retention.py", now + "\n\ndef curve(events):\n    return 2\n")
    helper = (root / "src/analytics/cohorts.py").read_text(encoding="utf-8")
    write(root, "src/analytics/cohorts.py", helper.replace("'", '"'))
    plan = as_json(vf(root, "recover", "--preview", "--json"))
    drifted = {d["path"]: d["why_outside_zone"] for d in plan["drift_candidates"]}
    assert "only reformats the code" in drifted["src/analytics/cohorts.py"]

    vf(root, "memory", "intent", "run black over the analytics package", "--yes")
    plan = as_json(vf(root, "recover", "--preview", "--json"))
    assert "src/analytics/cohorts.py" not in {d["path"] for d in plan["drift_candidates"]}
