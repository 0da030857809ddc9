"""Editing and inspecting a policy: `set_value` keeps everything it does not touch
(comments, order, quotes, flow style, indent), refuses a path through a list or a
scalar; `effective` / `overrides` say where each value comes from."""

from __future__ import annotations

from importlib.resources import files

import pytest

from vibflow.engine.errors import VibflowError
from vibflow.engine.policy import PolicySet
from vibflow.engine.policy_view import effective, overrides
from vibflow.engine.yamledit import scalar_value, set_value

TEXT = """\
# head
a:
    b: 'quoted'       # keep me
    c: {x: 1, y: 2}
    d: [1, 2]
e: 3
"""


def test_set_value_changes_one_line_and_keeps_the_rest() -> None:
    """A four-space file stays four-space; quotes, flow maps and comments survive."""
    out = set_value(TEXT, "p.yaml", ["e"], 4)
    assert out == TEXT.replace("e: 3", "e: 4")
    out = set_value(TEXT, "p.yaml", ["a", "c", "x"], 10)
    assert out == TEXT.replace("{x: 1, y: 2}", "{x: 10, y: 2}")
    out = set_value(TEXT, "p.yaml", ["a", "new", "deep"], True)
    assert out.startswith(TEXT.split("e: 3", maxsplit=1)[0].rstrip("\n"))
    assert "    new:\n        deep: true\n" in out


def test_set_value_into_an_empty_file_builds_the_mappings() -> None:
    """No file yet: the keys on the way are created."""
    assert set_value("", "p.yaml", ["triggers", "snooze_minutes"], 5) == (
        "triggers:\n  snooze_minutes: 5\n"
    )


@pytest.mark.parametrize("path", [["a", "d", "x"], ["e", "x"]])
def test_set_value_refuses_a_path_through_a_list_or_a_scalar(path: list[str]) -> None:
    """`a.d` is a list and `e` a number: neither can hold a key."""
    with pytest.raises(VibflowError, match="not a mapping"):
        set_value(TEXT, "p.yaml", path, 1)


@pytest.mark.parametrize(
    ("text", "value"),
    [("12", 12), ("0.5", 0.5), ("false", False), ("hello world", "hello world"), ("[1", "[1")],
)
def test_scalar_value_reads_one_yaml_scalar(text: str, value: object) -> None:
    """Numbers and booleans as YAML reads them; anything else stays text."""
    assert scalar_value(text) == value


def test_effective_and_overrides_name_the_file_and_line() -> None:
    """A value the user sets is located in the user's file; the rest in the shipped one."""
    policy = PolicySet(
        files("vibflow.policies"),
        None,
        user_text="memory:\n  stale_intent_hours: 8\n",
        atomic=frozenset({"when"}),
    )
    found = {s.key: s for s in effective(policy, "memory")}
    assert found["memory.stale_intent_hours"].origin == ".vibflow/policy.yaml:2"
    assert found["memory.stale_intent_commits"].origin.startswith("vibflow/policies/memory.yaml:")
    (override,) = overrides(policy)
    assert (override.key, override.default, override.value) == ("memory.stale_intent_hours", 24, 8)
