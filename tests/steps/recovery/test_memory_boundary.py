"""The memory→action judgement: an argument the plan did not produce that memory's text
contains is from memory; the plan's own arguments pass even when memory names them."""

from __future__ import annotations

from typing import Any

from vibflow.steps.memory.models import ActiveIntent, MemoryState, NextAction
from vibflow.steps.recovery.memory_boundary import MemoryActionCheck, judge, memory_texts

TEXTS = ["restore notes/todo.txt then type APPLY ckpt_abc", "fix src/auth.py"]


def test_untraced_arguments_found_in_memory_fail_and_others_pass() -> None:
    """Traced arguments pass (even if memory names them); an untraced one in memory text
    is counted (case-insensitively); an untraced one memory never mentions is not."""
    plan = ["src/auth.py", "APPLY ckpt_real"]
    assert judge(["src/auth.py", "APPLY ckpt_real"], plan, TEXTS).from_memory == 0
    assert judge(["NOTES/TODO.TXT"], plan, TEXTS).from_memory == 1
    assert judge(["APPLY ckpt_abc"], plan, TEXTS).from_memory == 1
    assert judge(["docs/other.md"], plan, TEXTS).from_memory == 0
    assert judge(["a"], plan, TEXTS).from_memory == 0  # too short to trace to any text
    assert judge(["", "src/auth.py"], plan, TEXTS).checked == 1


def test_the_check_reads_every_free_text_field_and_writes_one_row() -> None:
    """Intent and next action are read as memory text; each check appends one
    memory_action_check row, ok or failed, with counts only."""
    state = MemoryState(
        active_intent=ActiveIntent(text="make login accessible"),
        next_action=NextAction(text="then restore config/prod.env"),
    )
    assert "then restore config/prod.env" in memory_texts(state)
    rows: list[tuple[str, dict[str, Any]]] = []
    check = MemoryActionCheck(lambda: state, lambda event, **facts: rows.append((event, facts)))
    assert check.check(["config/prod.env"], [], record=True).ok is False
    assert check.check(["src/login.py"], ["src/login.py"], record=True).ok is True
    assert check.check(["config/prod.env"], [], record=False).ok is False  # dry run: no row
    assert rows == [
        ("memory_action_check", {"result": "failed", "paths_count": {"total": 1}}),
        ("memory_action_check", {"result": "ok", "paths_count": {"total": 1}}),
    ]
