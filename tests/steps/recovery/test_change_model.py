"""The advisor's change model, pure parts: a rename is one change with two paths (both in
an option, the new name deleted when the source lacks it, never split between zone and
drift), deletions are judged against the restore's source, the recommendation does not
depend on the apply flag, and the user's corrections label the next plans.

Constructed inputs (builders in ``vibflow_testing.recovery_inputs``)."""

from __future__ import annotations

from typing import Any

import pytest
from vibflow_testing.recovery_inputs import CATEGORIES, SAFE, changed, mem

from vibflow.engine.errors import VibflowError
from vibflow.steps.recovery.checkpoint_base import CheckpointBase
from vibflow.steps.recovery.corrections import judge
from vibflow.steps.recovery.models import DriftCandidate
from vibflow.steps.recovery.options import build_options
from vibflow.steps.recovery.zone import MARKED_DRIFT, MARKED_IN_SCOPE, MemorySignals, drift
from vibflow.steps.recovery.zone import infer_zone as zone_of

RENAME = changed("lib/helpers.py", "renamed", old="lib/util.py")
EDIT = changed("src/ui/login.py")
NEW = changed("scratch.py", "untracked")
ENV = changed(".env", "untracked")


def by_level(opts: list[Any]) -> dict[int, Any]:
    return {o.level: o for o in opts}


def test_a_rename_affects_both_names_and_deletes_the_new_one() -> None:
    """A renamed drift file: both names are in the restore options' affected paths, the new
    name (absent from HEAD, the default source) is a deletion, the old one is not."""
    opts = by_level(
        build_options(
            [EDIT, RENAME],
            [DriftCandidate(path=RENAME.path, why_outside_zone="x")],
            SAFE,
            apply_blocked_reason=None,
        )
    )
    for level in (3, 4):
        assert {"lib/util.py", "lib/helpers.py"} <= set(opts[level].affected_paths)
        assert opts[level].deletes == ["lib/helpers.py"]
    assert "2 path(s) changed: 1 restored, 1 deleted" in opts[3].estimated_impact
    assert opts[2].affected_paths == ["lib/util.py", "lib/helpers.py"]


def test_deletions_are_judged_against_the_checkpoint_not_head() -> None:
    """A file the checkpoint held beyond HEAD (an untracked .env) is restored, not deleted;
    a file absent from the checkpoint is deleted; a file HEAD holds but the checkpoint
    did not (deleted then) is deleted too."""
    base = CheckpointBase(SAFE.checkpoint_id, frozenset({".env"}), frozenset({"old.txt"}))
    gone_then = changed("old.txt")
    opts = by_level(
        build_options(
            [ENV, NEW, gone_then],
            [],
            SAFE,
            apply_blocked_reason=None,
            held=base.holds,
        )
    )
    assert sorted(opts[4].deletes) == ["old.txt", "scratch.py"]
    assert ".env" in opts[4].affected_paths
    without = by_level(build_options([ENV, NEW], [], SAFE, apply_blocked_reason=None))
    assert sorted(without[4].deletes) == [".env", "scratch.py"]  # HEAD's answer


@pytest.mark.parametrize("with_drift", [True, False], ids=["drift", "no-drift"])
def test_the_recommendation_does_not_flip_with_the_apply_flag(with_drift: bool) -> None:
    """The same option level is recommended whether apply is enabled or not; with it off,
    restore options carry the flag's reason and nothing else changes."""
    drift_ = [DriftCandidate(path=RENAME.path, why_outside_zone="x")] if with_drift else []
    on = build_options([EDIT, RENAME], drift_, SAFE, apply_blocked_reason=None)
    off = build_options([EDIT, RENAME], drift_, SAFE, apply_blocked_reason="flag off")
    assert [o.level for o in on] == [o.level for o in off]
    assert [o.recommended for o in on] == [o.recommended for o in off]
    for a, b in zip(on, off, strict=True):
        assert b.blocked_reason == ("flag off" if a.requires_sandwich else None)


def test_a_rename_out_of_a_recent_target_stays_in_the_zone() -> None:
    """A recent patch targeted lib/util.py, then the agent renamed it: the change is in the
    zone under its new name and is not drift (one change is never split)."""
    memory = mem(recent=["lib/util.py"])
    zone = {z.path: z for z in zone_of([EDIT, RENAME], memory, CATEGORIES)}
    assert "lib/helpers.py" in zone
    assert "renamed from 'lib/util.py'" in zone["lib/helpers.py"].reason
    assert [d.path for d in drift([EDIT, RENAME], zone.values(), memory, CATEGORIES)] == [
        "src/ui/login.py"
    ]


def test_a_rename_whose_new_name_is_in_the_zone_is_not_drift() -> None:
    """A recent patch targeted the new name: the rename is in the zone, whole."""
    memory = mem(recent=["lib/helpers.py"])
    zone = zone_of([RENAME], memory, CATEGORIES)
    assert drift([RENAME], zone, memory, CATEGORIES) == []


def test_corrections_label_the_next_plan_with_a_reason() -> None:
    """An in-scope file the user said is drift becomes a drift candidate saying so, even
    where a recent patch would put it in scope; a drift file the user said is in scope
    joins the zone as user_feedback. Explicit files stay explicit."""
    memory = MemorySignals(
        {"src/ui/login.py": "the form"},
        ["lib/util.py"],
        True,
        corrections={
            "lib/helpers.py": "drift",
            "scratch.py": "in_scope",
            "src/ui/login.py": "drift",
        },
    )
    files_ = [EDIT, RENAME, NEW]
    zone = {z.path: z for z in zone_of(files_, memory, CATEGORIES)}
    assert zone["scratch.py"].source == "user_feedback"
    assert zone["scratch.py"].reason == MARKED_IN_SCOPE
    assert zone["src/ui/login.py"].source == "explicit"
    assert "lib/helpers.py" not in zone
    labels = drift(files_, zone.values(), memory, CATEGORIES)
    assert [(d.path, d.why_outside_zone) for d in labels] == [("lib/helpers.py", MARKED_DRIFT)]


def test_a_drift_correction_holds_without_usable_memory() -> None:
    """With the diff as the only signal (every change in scope), a path the user said is
    drift is still a drift candidate."""
    memory = MemorySignals({}, [], False, "stale", corrections={"scratch.py": "drift"})
    zone = zone_of([EDIT, NEW], memory, CATEGORIES)
    assert "scratch.py" not in {z.path for z in zone}
    assert [d.path for d in drift([EDIT, NEW], zone, memory, CATEGORIES)] == ["scratch.py"]


PLAN: dict[str, Any] = {
    "feedback_paths": ["config.yaml", "lib/helpers.py"],
    "changed": [
        {"path": "config.yaml", "status": "modified"},
        {"path": "lib/helpers.py", "status": "renamed", "old_path": "lib/util.py"},
        {"path": "src/ui/login.py", "status": "modified"},
        {"path": "src/ui/header.py", "status": "modified"},
        {"path": "dist/app.js", "status": "untracked", "generated": True},
    ],
    "intent_zone": [
        {"path": "src/ui/login.py", "source": "explicit", "reason": "x"},
        {"path": "src/ui/header.py", "source": "project_map_category", "reason": "x"},
    ],
}


def test_feedback_judges_in_scope_and_drift_labels() -> None:
    """--wrong on an in-scope file means it is drift, on a drift file that it is in scope;
    --correct corrects nothing; a rename may be named by its old name."""
    verdicts = judge(PLAN, ["config.yaml"], ["src/ui/header.py", "lib/util.py"])
    got = {v.path: (v.labelled, v.correct, v.correction) for v in verdicts}
    assert got == {
        "config.yaml": ("drift", True, None),
        "src/ui/header.py": ("in_scope", False, "drift"),
        "lib/helpers.py": ("drift", False, "in_scope"),
    }


@pytest.mark.parametrize(
    ("correct", "wrong", "says"),
    [
        ([], [], "at least one"),
        (["config.yaml"], ["config.yaml"], "both"),
        (["nope.py"], [], "not changed files"),
        ([], ["dist/app.js"], "not changed files"),
        ([], ["src/ui/login.py"], "explicit relevant files"),
    ],
    ids=["nothing", "both", "unknown", "generated", "explicit-is-never-drift"],
)
def test_feedback_refuses_what_it_cannot_record(
    correct: list[str], wrong: list[str], says: str
) -> None:
    """Bad feedback is bad input with a message saying why."""
    with pytest.raises(VibflowError) as caught:
        judge(PLAN, correct, wrong)
    assert says in caught.value.message


def test_files_the_checkpoint_left_out_are_never_restored_or_deleted() -> None:
    """A file the checkpoint skipped (too large) is absent from its tree but existed: no
    restore option deletes it or lists it, and the impact says it is left alone."""
    big = changed("data/big.bin", "untracked")
    base = CheckpointBase(SAFE.checkpoint_id, frozenset(), frozenset(), frozenset({big.path}))
    opts = by_level(
        build_options(
            [NEW, big],
            [],
            SAFE,
            apply_blocked_reason=None,
            held=base.holds,
            unsaved=base.unsaved,
        )
    )
    assert opts[4].affected_paths == ["scratch.py"]
    assert opts[4].deletes == ["scratch.py"]
    assert "1 left as they are" in opts[4].estimated_impact
