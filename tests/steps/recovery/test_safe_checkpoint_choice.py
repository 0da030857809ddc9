"""The safe checkpoint choice: the newest complete checkpoint from before the change,
exact-time and unknown-time cases, naive and bad timestamps.

Pure parts of the recovery advisor, with constructed inputs (builders in
``vibflow_testing.recovery_inputs``)."""

from __future__ import annotations

from vibflow_testing.recovery_inputs import HEAD, ckpt, ts

from vibflow.steps.checkpoints.models import CheckpointMeta
from vibflow.steps.recovery.options import before_drift, safe_checkpoint

# -- safe checkpoint --------------------------------------------------------------------------


def test_no_checkpoints_the_last_commit_is_the_candidate() -> None:
    """No checkpoints: the last commit is the safe point (kind commit, abbreviated id);
    without a commit either, there is no candidate (levels 3-4 are not offered)."""
    got = safe_checkpoint([], {"f.py": ts("2026-01-01T10:00:00Z")}, HEAD)
    assert got is not None
    assert (got.kind, got.commit, got.checkpoint_id) == ("commit", HEAD[:8], None)
    assert got.predates_change is True
    assert got.label == f"the last commit ({HEAD[:8]})"
    assert safe_checkpoint([], {"f.py": ts("2026-01-01T10:00:00Z")}, None) is None


def test_newest_complete_checkpoint_before_the_change_is_selected() -> None:
    """Among checkpoints before and after the change, the newest complete one before it."""
    cps = [
        ckpt(1, "2026-01-01T08:00:00Z"),
        ckpt(2, "2026-01-01T09:00:00Z"),
        ckpt(3, "2026-01-01T09:30:00Z", complete=False),
        ckpt(4, "2026-01-01T11:00:00Z"),
    ]
    got = safe_checkpoint(cps, {"f.py": ts("2026-01-01T10:00:00Z")}, HEAD)
    assert got is not None
    assert got.checkpoint_id == cps[1].checkpoint_id
    assert got.predates_change is True
    assert got.metadata_complete is True


def test_when_none_predates_the_last_commit_is_selected() -> None:
    """No checkpoint before the change: the last commit is the safe point; without a
    commit the newest checkpoint is reported with predates_change false."""
    cps = [ckpt(1, "2026-01-01T11:00:00Z"), ckpt(2, "2026-01-01T12:00:00Z")]
    got = safe_checkpoint(cps, {"f.py": ts("2026-01-01T10:00:00Z")}, HEAD)
    assert got is not None
    assert (got.kind, got.commit, got.predates_change) == ("commit", HEAD[:8], True)
    unborn = safe_checkpoint(cps, {"f.py": ts("2026-01-01T10:00:00Z")}, None)
    assert unborn is not None
    assert unborn.kind == "checkpoint"
    assert unborn.checkpoint_id == cps[1].checkpoint_id
    assert unborn.predates_change is False


def test_checkpoint_at_the_exact_change_time_predates() -> None:
    """A checkpoint made at the same instant the change began counts as before it."""
    got = safe_checkpoint(
        [ckpt(1, "2026-01-01T10:00:00Z")], {"f.py": ts("2026-01-01T10:00:00Z")}, HEAD
    )
    assert got is not None
    assert got.predates_change is True


def test_unknown_change_time_uses_the_checkpoint_base_head() -> None:
    """When no changed file has a time (all deleted), a checkpoint on the current HEAD is
    safe and one on another HEAD is not."""
    same = safe_checkpoint([ckpt(1, "2026-01-01T10:00:00Z")], {}, HEAD)
    other = safe_checkpoint([ckpt(1, "2026-01-01T10:00:00Z", head="b" * 40)], {}, HEAD)
    assert same is not None
    assert (same.kind, same.predates_change) == ("checkpoint", True)
    assert other is not None
    assert other.kind == "commit"  # the checkpoint does not predate: the last commit does


def test_naive_and_bad_timestamps() -> None:
    """A timestamp without zone is UTC; an unparseable one never predates."""
    naive = safe_checkpoint(
        [ckpt(1, "2026-01-01T09:00:00")], {"f.py": ts("2026-01-01T10:00:00Z")}, HEAD
    )
    bad = safe_checkpoint([ckpt(1, "yesterday")], {"f.py": ts("2026-01-01T10:00:00Z")}, HEAD)
    assert naive is not None
    assert naive.predates_change is True
    assert bad is not None
    assert bad.kind == "commit"  # a checkpoint of unknown time is never the safe point


# -- stepping back past an agent turn's checkpoint that holds drift ---------------------------


def _turn(n: int, at: str) -> CheckpointMeta:
    return ckpt(n, at).model_copy(update={"reason": "agent_turn"})


def test_a_turn_checkpoint_holding_earlier_drift_is_stepped_back_past() -> None:
    """Drift at 09:30, a turn checkpoint at 10:00 chosen (work changed at 10:30): the
    checkpoints up to 09:30 are chosen from again; a drift after 10:00 keeps 10:00."""
    cps = [_turn(1, "2026-01-01T09:00:00Z"), _turn(2, "2026-01-01T10:00:00Z")]
    mtimes = {"drift.py": ts("2026-01-01T09:30:00Z"), "work.py": ts("2026-01-01T10:30:00Z")}
    chosen = safe_checkpoint(cps, mtimes, HEAD)
    assert chosen is not None
    assert chosen.checkpoint_id == cps[1].checkpoint_id
    assert before_drift(cps, chosen, mtimes, ["drift.py"]) == [cps[0]]
    later = {**mtimes, "drift.py": ts("2026-01-01T10:45:00Z")}
    assert before_drift(cps, safe_checkpoint(cps, later, HEAD), later, ["drift.py"]) is None


def test_the_users_checkpoint_is_never_stepped_back_past() -> None:
    """A chosen checkpoint the user took, or one of theirs between the drift and the
    chosen turn checkpoint, stands; with nothing older, the choice stands too."""
    mtimes = {"drift.py": ts("2026-01-01T09:30:00Z"), "work.py": ts("2026-01-01T10:30:00Z")}
    mine = [_turn(1, "2026-01-01T09:00:00Z"), ckpt(2, "2026-01-01T10:00:00Z")]
    assert before_drift(mine, safe_checkpoint(mine, mtimes, HEAD), mtimes, ["drift.py"]) is None
    between = [
        _turn(1, "2026-01-01T09:00:00Z"),
        ckpt(2, "2026-01-01T09:45:00Z"),
        _turn(3, "2026-01-01T10:00:00Z"),
    ]
    chosen = safe_checkpoint(between, mtimes, HEAD)
    assert chosen is not None
    assert chosen.checkpoint_id == between[2].checkpoint_id
    assert before_drift(between, chosen, mtimes, ["drift.py"]) is None
    alone = [_turn(2, "2026-01-01T10:00:00Z")]
    assert before_drift(alone, safe_checkpoint(alone, mtimes, HEAD), mtimes, ["drift.py"]) is None
