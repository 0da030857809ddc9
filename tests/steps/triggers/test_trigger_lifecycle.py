"""The nudge lifecycle (flows/trigger.yaml): shown once per session, snooze and dismiss
hold for the session and end with it, unanswered nudges count as ignored, and every
step is one count-only audit row — nothing about triggers goes into memory."""

from __future__ import annotations

import json
from datetime import timedelta
from importlib.resources import files
from pathlib import Path

import pytest
from vibflow_testing.triggers import Facts, World, ago

from vibflow.engine.errors import VibflowError
from vibflow.engine.yamlsource import parse_yaml
from vibflow.steps.memory.models import ActiveIntent, MemoryState
from vibflow.steps.triggers.session import TRANSITIONS


@pytest.fixture
def world(tmp_path: Path) -> World:
    """A project whose intent is stale: `stale_intent` fires."""
    w = World(tmp_path)
    w.state = MemoryState(
        active_intent=ActiveIntent(
            text="make the form accessible",
            last_updated=ago(w.now, hours=30),
            head_at_update="a" * 40,
        )
    )
    w.facts = Facts(commits=0, lines=0)
    return w


def shown(world: World) -> list[str]:
    return [n.id for n in world.service().nudges("recap")]


def trigger_rows(world: World) -> list[dict[str, object]]:
    if not world.audit_path.exists():
        return []
    rows = [json.loads(line) for line in world.audit_path.read_text("utf-8").splitlines()]
    return [r["trigger"] for r in rows if "trigger" in r]


def test_a_firing_trigger_is_shown_on_every_command_but_audited_once(world: World) -> None:
    """armed → shown is one audit row; showing it again in the session adds none."""
    assert shown(world) == ["stale_intent"]
    world.later(minutes=5)
    assert shown(world) == ["stale_intent"]
    assert trigger_rows(world) == [{"id": "stale_intent", "action": "shown", "source": "recap"}]


@pytest.mark.parametrize("action", ["dismissed", "snoozed", "accepted"])
def test_an_answer_holds_for_the_session_and_the_trigger_returns_in_the_next(
    world: World, action: str
) -> None:
    """Dismissed, snoozed or accepted: quiet for the rest of the session, back after the
    idle timeout ends it."""
    assert shown(world) == ["stale_intent"]
    world.service().respond("stale_intent", action, "cli")  # type: ignore[arg-type]
    for _ in range(3):
        world.later(minutes=30)  # active: the session goes on
        assert shown(world) == []
    world.later(minutes=61)  # idle longer than session_idle_minutes (60)
    assert shown(world) == ["stale_intent"]
    assert [r["action"] for r in trigger_rows(world)] == ["shown", action, "shown"]


def test_a_snooze_also_ends_after_snooze_minutes(world: World) -> None:
    """snooze_minutes (240) ends a snooze inside a long session."""
    world.service().respond("stale_intent", "snoozed", "cli")
    for _ in range(6):
        world.later(minutes=35)
        assert shown(world) == []
    world.later(minutes=35)  # 245 minutes later, still one session
    assert shown(world) == ["stale_intent"]


def test_a_new_agent_session_ends_the_session(world: World) -> None:
    """When the agent's session changes, dismissals from the last one no longer hold."""
    world.agent_session = "a1"
    world.service().respond("stale_intent", "dismissed", "hook")
    world.later(minutes=1)
    assert shown(world) == []
    world.agent_session = "a2"
    assert shown(world) == ["stale_intent"]


def test_a_nudge_shown_and_never_answered_is_ignored_when_the_session_ends(
    world: World,
) -> None:
    """The next session records the unanswered nudge as ignored, once."""
    shown(world)
    world.later(hours=2)
    shown(world)
    world.later(minutes=1)
    shown(world)
    actions = [r["action"] for r in trigger_rows(world)]
    assert actions == ["shown", "ignored", "shown"]


def test_answering_twice_in_a_session_is_refused_in_plain_words(world: World) -> None:
    """A dismissed trigger cannot be dismissed again: it says it already is."""
    world.service().respond("stale_intent", "dismissed", "cli")
    with pytest.raises(VibflowError, match="already dismissed in this session"):
        world.service().respond("stale_intent", "dismissed", "cli")
    with pytest.raises(VibflowError, match="no trigger named 'stale_intnet'"):
        world.service().respond("stale_intnet", "dismissed", "cli")


def test_check_records_nothing(world: World) -> None:
    """`triggers check` evaluates without showing: no audit row, no session file."""
    world.service().check()
    assert trigger_rows(world) == []
    assert not (world.folder / "recovery" / "trigger_state.json").exists()


def test_the_session_state_holds_ids_and_times_only(world: World) -> None:
    """trigger_state.json carries no memory text (the intent's words are not in it)."""
    shown(world)
    world.service().respond("stale_intent", "snoozed", "cli")
    text = (world.folder / "recovery" / "trigger_state.json").read_text("utf-8")
    assert "accessible" not in text
    assert json.loads(text)["entries"]["stale_intent"]["status"] == "snoozed"


def test_the_lifecycle_table_is_the_trigger_flow() -> None:
    """session.TRANSITIONS equals flows/trigger.yaml's transitions, state by state."""
    text = files("vibflow.flows").joinpath("trigger.yaml").read_text("utf-8")
    flow = parse_yaml(text, "trigger.yaml").data
    from_flow = {
        (state, event): target
        for state, spec in flow["states"].items()
        for event, target in (spec.get("on") or {}).items()
    }
    assert from_flow == TRANSITIONS
    assert flow["initial"] == "armed"


def test_unanswered_time_is_measured_from_the_last_command(world: World) -> None:
    """A session stays alive while commands keep coming, however long it runs."""
    shown(world)
    world.service().respond("stale_intent", "dismissed", "cli")
    start = world.now
    while world.now - start < timedelta(hours=5):
        world.later(minutes=50)
        assert shown(world) == []
