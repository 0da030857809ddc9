"""The memory signals read from observed context: recent patch targets from the last
twenty events, explicit entries, stale intent, no or empty memory.

Pure parts of the recovery advisor, with constructed inputs (builders in
``vibflow_testing.recovery_inputs``)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from vibflow.steps.memory.freshness import Freshness
from vibflow.steps.memory.models import (
    ActiveIntent,
    MemoryState,
    ObservedEvent,
    RelevantFile,
)
from vibflow.steps.recovery.signals import memory_signals

# -- memory signals ---------------------------------------------------------------------------


def _view(state: MemoryState, *, stale: bool = False) -> Any:
    reasons = ["the intent was set 30 h ago (stale after 24 h)"] if stale else []
    return SimpleNamespace(
        state=state,
        freshness=Freshness(intent_stale=stale, intent_proposed=False, intent_reasons=reasons),
    )


def test_recent_patch_targets_come_from_patch_events_only() -> None:
    """patch_apply events with detail {"paths": [...]} give recent targets (deduplicated,
    in order); the files an agent's tools reported (touched_files) are what the zone
    judges, never evidence; other kinds and malformed details are ignored."""
    state = MemoryState(
        active_intent=ActiveIntent(text="ui"),
        observed_context=[
            ObservedEvent(kind="patch_apply", detail={"paths": ["src/a.py", "src/b.py"]}),
            ObservedEvent(kind="commit", detail={"paths": ["src/commit.py"]}),
            ObservedEvent(kind="touched_files", detail={"paths": ["src/c.py", "src/a.py"]}),
            ObservedEvent(kind="patch_apply", detail={"paths": "src/not-a-list.py"}),
            ObservedEvent(kind="touched_files", detail={"count": 3}),
        ],
    )
    memory, intent, stale = memory_signals(_view(state))
    assert list(memory.recent_targets) == ["src/a.py", "src/b.py"]
    assert memory.usable is True
    assert intent == "ui"
    assert stale is False


def test_only_the_last_twenty_events_count() -> None:
    """Patch targets older than the last 20 observed events are not recent."""
    events = [ObservedEvent(kind="patch_apply", detail={"paths": ["old.py"]})]
    events += [ObservedEvent(kind="note", detail={"n": i}) for i in range(20)]
    state = MemoryState(active_intent=ActiveIntent(text="x"), observed_context=events)
    memory, _, _ = memory_signals(_view(state))
    assert list(memory.recent_targets) == []


def test_explicit_entries_only_explicit_source() -> None:
    """Observed relevant files never count as explicit."""
    state = MemoryState(
        relevant_files=[
            RelevantFile(path="src/a.py", why="mine", source="explicit"),
            RelevantFile(path="src/b.py", why="seen", source="observed"),
        ]
    )
    memory, _, _ = memory_signals(_view(state))
    assert dict(memory.explicit) == {"src/a.py": "mine"}


def test_stale_intent_makes_memory_unusable_but_keeps_explicit() -> None:
    """A stale intent: not usable for narrowing, the note gives the reason, explicit kept."""
    state = MemoryState(
        active_intent=ActiveIntent(text="old"),
        relevant_files=[RelevantFile(path="src/a.py", why="mine")],
    )
    memory, intent, stale = memory_signals(_view(state, stale=True))
    assert memory.usable is False
    assert stale is True
    assert intent == "old"
    assert "stale" in (memory.note or "")
    assert "30 h" in (memory.note or "")
    assert dict(memory.explicit) == {"src/a.py": "mine"}


@pytest.mark.parametrize("view", [None, "empty"])
def test_no_or_empty_memory_is_diff_only(view: str | None) -> None:
    """No memory at all, or an empty one: unusable, with a note saying the diff is used."""
    got = memory_signals(None if view is None else _view(MemoryState()))
    memory, intent, stale = got
    assert memory.usable is False
    assert "diff only" in (memory.note or "")
    assert intent is None
    assert stale is False
