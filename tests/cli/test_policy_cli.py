"""`vibflow policy show|diff|validate|init|set`, through the real CLI: where each value
came from, the overrides, every problem at once, a commented starter, and a
round-trip edit that keeps the user's comments, order and layout (the file is diffed)."""

from __future__ import annotations

import difflib
from pathlib import Path

from vibflow_testing.cli import as_json, vf

USER_FILE = """\
# Our team's policy. Keep this comment.
memory:
  stale_intent_hours: 12   # we move fast

# Nudges
triggers:
  snooze_minutes: 90
  rules:
    stale_verification:
      enabled: false       # CI checks this for us
"""


def policy_file(repo: Path) -> Path:
    return repo / ".vibflow" / "policy.yaml"


def test_policy_set_keeps_comments_order_and_layout(repo: Path) -> None:
    """Only the set line changes (and a new key is added where it belongs)."""
    policy_file(repo).parent.mkdir(exist_ok=True)
    policy_file(repo).write_text(USER_FILE, "utf-8")
    assert vf(repo, "policy", "set", "triggers.snooze_minutes", "30").returncode == 0
    proc = vf(repo, "policy", "set", "triggers.rules.intent_outgrown.thresholds.diff_lines", "200")
    assert proc.returncode == 0, proc.stderr
    after = policy_file(repo).read_text("utf-8")
    diff = [
        line
        for line in difflib.unified_diff(USER_FILE.splitlines(), after.splitlines(), lineterm="")
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]
    assert diff == [
        "-  snooze_minutes: 90",
        "+  snooze_minutes: 30",
        "+    intent_outgrown:",
        "+      thresholds:",
        "+        diff_lines: 200",
    ]
    shown = as_json(vf(repo, "policy", "show", "triggers", "--json"))["settings"]
    values = {s["key"]: (s["value"], s["origin"]) for s in shown}
    assert values["triggers.snooze_minutes"] == (30, ".vibflow/policy.yaml:7")
    assert values["triggers.rules.intent_outgrown.thresholds.diff_lines"] == (
        200,
        ".vibflow/policy.yaml:13",
    )
    assert values["triggers.session_idle_minutes"] == (60, "vibflow/policies/triggers.yaml:8")


def test_an_invalid_set_is_refused_and_the_file_is_unchanged(repo: Path) -> None:
    """A value of the wrong kind, an unknown section: exit 2, one sentence, file as it was."""
    policy_file(repo).parent.mkdir(exist_ok=True)
    policy_file(repo).write_text(USER_FILE, "utf-8")
    bad = vf(repo, "policy", "set", "triggers.snooze_minutes", "soon")
    assert bad.returncode == 2
    assert "expected a whole number, found text" in bad.stderr
    assert "was not changed" in bad.stderr
    unknown = vf(repo, "policy", "set", "trigers.snooze_minutes", "5")
    assert unknown.returncode == 2
    assert "did you mean 'triggers'" in unknown.stderr
    assert "Traceback" not in bad.stderr + unknown.stderr
    assert policy_file(repo).read_text("utf-8") == USER_FILE


def test_init_writes_a_valid_commented_starter_once(repo: Path) -> None:
    """`policy init` writes a commented file that validates; a second init refuses."""
    assert vf(repo, "policy", "init").returncode == 0
    text = policy_file(repo).read_text("utf-8")
    assert text.startswith("# vibflow project policy")
    assert vf(repo, "policy", "validate").returncode == 0
    again = vf(repo, "policy", "init")
    assert again.returncode == 2
    assert "already exists" in again.stderr
    assert policy_file(repo).read_text("utf-8") == text
    set_ = vf(repo, "policy", "set", "triggers.rules.stale_intent.enabled", "false")
    assert set_.returncode == 0
    after = policy_file(repo).read_text("utf-8")
    assert after.startswith(text.rstrip("\n"))  # every starter line kept, in order


def test_diff_lists_the_overrides_against_the_defaults(repo: Path) -> None:
    """Each key the file sets, with the shipped default and where it is set."""
    policy_file(repo).parent.mkdir(exist_ok=True)
    policy_file(repo).write_text(USER_FILE, "utf-8")
    found = as_json(vf(repo, "policy", "diff", "--json"))["overrides"]
    assert {o["key"]: (o["default"], o["value"]) for o in found} == {
        "memory.stale_intent_hours": (24, 12),
        "triggers.snooze_minutes": (240, 90),
        "triggers.rules.stale_verification.enabled": (True, False),
    }
    text = vf(repo, "policy", "diff").stdout
    assert "triggers.snooze_minutes: default 240 -> 90    (.vibflow/policy.yaml:7)" in text


def test_validate_reports_every_problem_of_a_named_file(repo: Path) -> None:
    """`policy validate FILE`: all problems, each at FILE:line:col, exit 2."""
    (repo / "candidate.yaml").write_text(
        "triggers:\n"
        "  rules:\n"
        "    stale_intent:\n"
        "      when: {metric: intent_stail, op: '==', value: true}\n"
        "  snooze_minutes: -1\n"
        "memory:\n"
        "  stale_intent_hour: 3\n",
        "utf-8",
    )
    proc = vf(repo, "policy", "validate", "candidate.yaml")
    assert proc.returncode == 2
    lines = proc.stderr.splitlines()
    assert lines[0] == "vibflow: 3 problems in candidate.yaml, each listed below."
    assert lines[1].startswith("  candidate.yaml:4:14: invalid value at ")
    assert "unknown metric 'intent_stail' (nearest: intent_stale" in lines[1]
    assert lines[2].startswith("  candidate.yaml:5:3: invalid value at triggers.snooze_minutes")
    assert lines[3].startswith("  candidate.yaml:7:3: unknown key 'stale_intent_hour'")
    data = as_json(vf(repo, "policy", "validate", "candidate.yaml", "--json"))
    assert len(data["error"]["problems"]) == 3


def test_show_says_where_each_value_comes_from(repo: Path) -> None:
    """Without a project file every value is a shipped default, with its line."""
    text = vf(repo, "policy", "show", "triggers").stdout
    assert "triggers.snooze_minutes = 240    (vibflow/policies/triggers.yaml:10)" in text
    bad = vf(repo, "policy", "show", "trigers")
    assert bad.returncode == 2
    assert "did you mean 'triggers'" in bad.stderr
