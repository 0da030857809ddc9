"""Each spec §11 trigger fires at its threshold and not just below it (edge values),
and a trigger whose data is not there says "not available" instead of firing."""

from __future__ import annotations

from pathlib import Path

import pytest
from vibflow_testing.triggers import Facts, Handoffs, Turns, World, ago

from vibflow.steps.memory.models import (
    ActiveIntent,
    Decision,
    MemoryState,
    ObservedEvent,
    RelevantFile,
    Verification,
)


def fires(world: World, trigger: str) -> bool | None:
    return world.service().explain(trigger).fires


@pytest.fixture
def world(tmp_path: Path) -> World:
    return World(tmp_path)


def patches(world: World, n: int) -> list[ObservedEvent]:
    return [ObservedEvent(kind="patch_apply", at=ago(world.now, minutes=1)) for _ in range(n)]


@pytest.mark.parametrize(("applies", "expected"), [(2, False), (3, True), (4, True)])
def test_no_decisions_fires_at_three_patch_applies_in_the_session(
    world: World, applies: int, expected: bool
) -> None:
    """decisions empty AND patch_apply ≥ 3 in this session: 2 is quiet, 3 fires."""
    world.state = MemoryState(observed_context=patches(world, applies))
    assert fires(world, "no_decisions_recorded") is expected


def test_no_decisions_is_quiet_with_a_decision_or_with_patches_before_the_session(
    world: World,
) -> None:
    """One decision silences it; patches applied before the session began do not count
    (a session takes in the idle window before it: 60 minutes)."""
    world.state = MemoryState(
        observed_context=[ObservedEvent(kind="patch_apply", at=ago(world.now, minutes=61))] * 5
    )
    assert fires(world, "no_decisions_recorded") is False
    world.state = MemoryState(
        decisions=[Decision(text="Use tabs")], observed_context=patches(world, 3)
    )
    assert fires(world, "no_decisions_recorded") is False


@pytest.mark.parametrize(
    ("age_minutes", "lines", "expected"),
    [
        (6 * 60, 41, False),  # exactly 6 h is not "older than 6 h"
        (6 * 60 + 1, 40, False),  # 40 lines is not "more than 40"
        (6 * 60 + 1, 41, True),
    ],
)
def test_intent_outgrown_needs_more_than_six_hours_and_more_than_forty_lines(
    world: World, age_minutes: int, lines: int, expected: bool
) -> None:
    """intent age > 6 h AND diff growth > 40 lines since the intent was set."""
    world.state = MemoryState(
        active_intent=ActiveIntent(
            text="x", last_updated=ago(world.now, minutes=age_minutes), head_at_update="a" * 40
        )
    )
    world.facts = Facts(lines=lines)
    assert fires(world, "intent_outgrown") is expected


@pytest.mark.parametrize(
    ("age_minutes", "commits", "expected"),
    [(24 * 60, 4, False), (24 * 60 + 1, 0, True), (60, 5, True), (60, 4, False)],
)
def test_stale_intent_fires_after_24_hours_or_at_five_commits(
    world: World, age_minutes: int, commits: int, expected: bool
) -> None:
    """The memory policy's stale rule: older than 24 h, or 5+ commits since it was set."""
    world.state = MemoryState(
        active_intent=ActiveIntent(
            text="x", last_updated=ago(world.now, minutes=age_minutes), head_at_update="a" * 40
        )
    )
    world.facts = Facts(commits=commits)
    assert fires(world, "stale_intent") is expected


def test_stale_verification_fires_when_a_related_file_changed_after_it_ran(world: World) -> None:
    """Fresh verification is quiet; a related file changed afterwards fires it."""
    world.state = MemoryState(
        verification=[Verification(command="pytest", result="pass", related_files=["src/a.py"])]
    )
    assert fires(world, "stale_verification") is False
    world.facts = Facts(changed={"src/a.py"})
    assert fires(world, "stale_verification") is True


@pytest.mark.parametrize(("outside", "expected"), [(None, None), (0, False), (1, True)])
def test_patch_outside_zone_fires_at_one_file_and_is_unavailable_without_turns(
    world: World, outside: int | None, expected: bool | None
) -> None:
    """0 files outside the zone is quiet, 1 fires; no agent turn yet: not available."""
    world.turns = Turns(outside)
    assert fires(world, "patch_outside_zone") is expected


def test_patch_outside_zone_without_the_turn_seam_is_not_available(world: World) -> None:
    """Until agent turns are connected the trigger never fires, and says why."""
    result = world.service().explain("patch_outside_zone")
    assert result.fires is None
    assert "not available" in result.why()[0]


@pytest.mark.parametrize(("flag", "expected"), [(None, None), (False, False), (True, True)])
def test_handoff_without_next_action_fires_only_after_such_a_handoff(
    world: World, flag: bool | None, expected: bool | None
) -> None:
    """A handoff without a confirmed next action fires; none made: not available."""
    world.handoffs = Handoffs(flag)
    assert fires(world, "handoff_without_next_action") is expected


@pytest.mark.parametrize(("missing", "expected"), [(set(), False), ({"src/a.py"}, True)])
def test_relevant_files_missing_fires_at_one_missing_file(
    world: World, missing: set[str], expected: bool
) -> None:
    """0 explicit relevant files gone is quiet; 1 fires."""
    world.state = MemoryState(
        relevant_files=[RelevantFile(path="src/a.py"), RelevantFile(path="src/b.py")]
    )
    world.facts = Facts(missing=missing)
    assert fires(world, "relevant_files_missing") is expected


def test_check_explains_each_metric_against_its_threshold(world: World) -> None:
    """`why` names each metric, its value and unit, the threshold, and the verdict."""
    world.state = MemoryState(
        active_intent=ActiveIntent(
            text="x", last_updated=ago(world.now, hours=7), head_at_update="a" * 40
        )
    )
    world.facts = Facts(lines=12)
    why = world.service().explain("intent_outgrown").why()
    assert why == [
        "intent_age_hours = 7 hours (needs above 6): yes",
        "diff_lines_since_intent = 12 lines (needs above 40): no",
    ]
