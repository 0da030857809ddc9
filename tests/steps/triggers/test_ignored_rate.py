"""The ignored-prompt rate over 7 days, derived from the audit into
trigger_baseline.json (counts only): above 30 % a tuning recommendation with the exact
`vibflow policy set` commands; at or below it nothing; never a trigger disabled."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from vibflow_testing.triggers import World

from vibflow.engine.audit import TriggerRef


def seed(world: World, trigger: str, shown: int, ignored: int, *, days_ago: float = 0) -> None:
    """Audit rows as the lifecycle writes them, stamped ``days_ago``."""
    log = world.audit()
    when = world.now
    world.later(days=-days_ago)
    rows = [("trigger", {"trigger": TriggerRef(id=trigger, action="shown", source="recap")})]
    rows *= shown
    rows += [
        ("trigger", {"trigger": TriggerRef(id=trigger, action="ignored", source="recap")})
    ] * ignored
    log.append_many(rows)
    world.now = when


@pytest.mark.parametrize(("ignored", "expected"), [(29, False), (30, False), (31, True)])
def test_the_recommendation_appears_above_thirty_percent(
    tmp_path: Path, ignored: int, expected: bool
) -> None:
    """31 of 100 shown ignored recommends tuning; 29 and exactly 30 do not."""
    world = World(tmp_path)
    seed(world, "intent_outgrown", 100, ignored)
    recs = world.service().recommendations()
    assert bool(recs) is expected
    if expected:
        (rec,) = recs
        assert rec.trigger == "intent_outgrown"
        assert (rec.shown, rec.ignored) == (100, 31)
        assert rec.commands == (
            "vibflow policy set triggers.rules.intent_outgrown.thresholds.diff_lines 60",
            "vibflow policy set triggers.rules.intent_outgrown.thresholds.intent_age_hours 9",
            "vibflow policy set triggers.rules.intent_outgrown.enabled false",
        )
        assert world.policy.rules["intent_outgrown"].enabled  # never auto-disabled


def test_only_the_last_seven_days_count(tmp_path: Path) -> None:
    """Ignored prompts from eight days ago no longer count."""
    world = World(tmp_path)
    seed(world, "stale_intent", 10, 10, days_ago=8)
    seed(world, "stale_intent", 10, 0)
    assert world.service().recommendations() == []
    seed(world, "stale_intent", 0, 4, days_ago=3)
    (rec,) = world.service().recommendations()
    assert (rec.shown, rec.ignored) == (10, 4)
    assert rec.commands == ("vibflow policy set triggers.rules.stale_intent.enabled false",)


def test_too_few_prompts_say_nothing_yet(tmp_path: Path) -> None:
    """Below min_shown (10) a high share is not yet evidence of noise."""
    world = World(tmp_path)
    seed(world, "stale_intent", 9, 9)
    assert world.service().recommendations() == []


def test_the_baseline_file_holds_counts_only_and_reads_the_audit_incrementally(
    tmp_path: Path,
) -> None:
    """trigger_baseline.json: ids, days and counts; the next refresh reads only new rows."""
    world = World(tmp_path)
    seed(world, "stale_intent", 20, 7)
    world.service().recommendations()
    path = tmp_path / "recovery" / "trigger_baseline.json"
    data = json.loads(path.read_text("utf-8"))
    assert data["ignored_prompt_rate_7d"] == {"stale_intent": 0.35}
    assert data["window"] == {"stale_intent": {"shown": 20, "ignored": 7}}
    assert data["audit_offset"] == world.audit_path.stat().st_size
    seed(world, "stale_intent", 0, 1)
    world.service().recommendations()
    data = json.loads(path.read_text("utf-8"))
    assert data["window"] == {"stale_intent": {"shown": 20, "ignored": 8}}
    assert set(data) == {
        "schema_version",
        "updated_at",
        "baseline_window_days",
        "audit_offset",
        "ignored_prompt_rate_7d",
        "window",
        "days",
    }


def test_a_replaced_audit_is_read_again_from_the_start(tmp_path: Path) -> None:
    """An audit shorter than the recorded offset (rotated) is counted afresh."""
    world = World(tmp_path)
    seed(world, "stale_intent", 20, 10)
    assert world.service().recommendations()
    world.audit_path.unlink()
    seed(world, "stale_intent", 20, 0)
    assert world.service().recommendations() == []
