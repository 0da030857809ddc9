"""Triggers in .vibflow/policy.yaml: accepted as a policy section, overridden value by
value (a `when` replaced whole), and a file with several mistakes — unknown metric or
operator, wrong types, bad nesting — refused with every one at its file:line:col."""

from __future__ import annotations

from pathlib import Path

import pytest

from vibflow.engine.errors import VibflowError
from vibflow.steps.triggers.policy import TriggersPolicy
from vibflow.wiring import Project


def load(tmp_path: Path, text: str) -> TriggersPolicy:
    return Project(tmp_path).policy_from(text).section("triggers", TriggersPolicy)


def problems(tmp_path: Path, text: str) -> list[str]:
    with pytest.raises(VibflowError) as err:
        Project(tmp_path).policy_from(text)
    found = err.value.problems or ((err.value.location, err.value.message),)
    return [f"{loc.line}:{loc.col} {msg}" for loc, msg in found if loc is not None]


def test_a_triggers_section_is_accepted_and_merged_over_the_defaults(tmp_path: Path) -> None:
    """A threshold, enabled and a message override one trigger; the rest stay shipped."""
    policy = load(
        tmp_path,
        "triggers:\n"
        "  snooze_minutes: 30\n"
        "  rules:\n"
        "    intent_outgrown:\n"
        "      thresholds: {diff_lines: 200}\n"
        "    relevant_files_missing: {enabled: false}\n",
    )
    assert policy.snooze_minutes == 30
    assert policy.rules["intent_outgrown"].thresholds == {"intent_age_hours": 6, "diff_lines": 200}
    assert policy.rules["intent_outgrown"].message.startswith("The work has grown")
    assert not policy.rules["relevant_files_missing"].enabled
    assert policy.rules["stale_intent"].enabled


def test_a_when_replaces_the_shipped_condition_whole_and_new_triggers_are_added(
    tmp_path: Path,
) -> None:
    """`when: {metric: ...}` over a shipped `all:` is the new condition, not a mix."""
    policy = load(
        tmp_path,
        "triggers:\n"
        "  rules:\n"
        "    no_decisions_recorded:\n"
        "      when: {metric: decisions_count, op: '==', value: 0}\n"
        "    no_next_action:\n"
        "      message: Say what comes next.\n"
        "      action: record it\n"
        "      command: vibflow memory next TEXT\n"
        "      when:\n"
        "        not: {metric: next_action_missing, op: '==', value: false}\n",
    )
    when = policy.rules["no_decisions_recorded"].when
    assert when.metric == "decisions_count"
    assert when.all_ is None
    assert "no_next_action" in policy.rules


BROKEN = """\
triggers:
  rules:
    one:
      message: m
      action: a
      command: vibflow recap
      when:
        all:
          - {metric: decision_count, op: '==', value: 0}
          - {metric: intent_age_hours, op: '=>', value: 6}
          - {metric: intent_age_hours, op: '>', value: six}
          - {metric: verification_stale, op: '>', value: 1}
    two:
      message: m
      action: a
      command: vibflow recap
      thresholds: {lines: 40}
      when:
        any: {metric: diff_lines_since_intent, op: '>', threshold: lines}
    three:
      message: m
      action: a
      command: vibflow recap
      when:
        all: [{metric: decisions_count, op: '==', value: 0}]
        metric: decisions_count
    four:
      message: m
      action: a
      command: rm -rf /
      when: {metric: diff_lines_since_intent, op: '>', threshold: missing}
  snooze_minutes: soon
"""


def test_every_mistake_is_reported_at_once_at_its_line_and_column(tmp_path: Path) -> None:
    """Unknown metric and operator (with the nearest names), wrong value kinds, a list
    expected, two node kinds together, a command that is not vibflow's, a threshold that
    does not exist and a word for a number: each its own located problem."""
    found = problems(tmp_path, BROKEN)
    assert found == [
        "9:14 invalid value at triggers.rules.one.when.all.0.metric: unknown metric "
        "'decision_count' (nearest: decisions_count)",
        "10:40 invalid value at triggers.rules.one.when.all.1.op: unknown operator '=>' "
        "(nearest: >, >=, ==)",
        "11:13 invalid value at triggers.rules.one.when.all.2: metric 'intent_age_hours' "
        "counts hours: compare it with a number",
        "12:13 invalid value at triggers.rules.one.when.all.3: metric 'verification_stale' "
        "is yes/no: compare it with true or false",
        "19:9 invalid value at triggers.rules.two.when.any: expected a list, found a mapping",
        "24:7 invalid value at triggers.rules.three.when: a condition is one leaf "
        "{metric, op, value} or one of all / any / not, found all and metric together",
        "30:7 invalid value at triggers.rules.four.command: the command must be one vibflow "
        "command on one line ('vibflow ...')",
        "31:7 invalid value at triggers.rules.four.when: the leaf on 'diff_lines_since_intent' "
        "names threshold 'missing', not in thresholds (none)",
        "32:3 invalid value at triggers.snooze_minutes: expected a whole number, found text",
    ]


def test_the_shipped_triggers_are_valid_and_name_only_registered_metrics() -> None:
    """policies/triggers.yaml loads, and covers the spec's five conditions."""
    from vibflow_testing.triggers import shipped_policy

    rules = shipped_policy().rules
    metrics = {leaf.metric for r in rules.values() for leaf in r.when.leaves()}
    assert {
        "decisions_count",
        "patch_applies_in_session",
        "intent_age_hours",
        "diff_lines_since_intent",
        "verification_stale",
        "files_outside_zone_in_last_turn",
        "handoff_without_next_action",
    } <= metrics
