"""A rename is one change: the pure rules that keep its two names together.

``renames.complete`` adds a rename's other name to a chosen subset (and says
which it added); ``build_options`` leaves a rename out whole when one of its
names cannot be restored; ``restorable`` says which names the path rules
refuse, a rename's other name with them. Constructed inputs, no repository.
"""

from __future__ import annotations

from typing import Any

from vibflow_testing.recovery_inputs import SAFE, changed

from vibflow.steps.recovery.models import DriftCandidate
from vibflow.steps.recovery.options import build_options
from vibflow.steps.recovery.renames import complete
from vibflow.steps.recovery.restorable import unrestorable, why_not

PLAN: dict[str, Any] = {
    "changed": [
        {"path": "helpers_v2.py", "status": "renamed", "old_path": "legacy_utils.py"},
        {"path": "a.py", "status": "modified"},
        {"path": "kept_new.py", "status": "renamed", "old_path": "kept_old.py"},
    ]
}
OPTION: dict[str, Any] = {
    "affected_paths": ["a.py", "legacy_utils.py", "helpers_v2.py", "kept_new.py"],
    "deletes": ["helpers_v2.py", "kept_new.py"],
}


def test_the_new_name_chosen_takes_the_old_name_restored() -> None:
    """Choosing the new name adds the old one right after it, to be restored."""
    paths, added = complete(["helpers_v2.py", "a.py"], PLAN, OPTION)
    assert paths == ["helpers_v2.py", "legacy_utils.py", "a.py"]
    assert [p.words() for p in added] == [
        "helpers_v2.py — and its old name legacy_utils.py, restored with it"
    ]
    assert added[0].to_json()["action"] == "restore"


def test_the_old_name_chosen_takes_the_new_name_deleted() -> None:
    """Choosing the old name adds the new one, which the restore deletes."""
    paths, added = complete(["legacy_utils.py"], PLAN, OPTION)
    assert paths == ["legacy_utils.py", "helpers_v2.py"]
    assert added[0].words() == "legacy_utils.py — and its new name helpers_v2.py, deleted with it"
    assert (added[0].old, added[0].deleted) == (False, True)


def test_nothing_is_added_when_both_names_or_no_rename_is_chosen() -> None:
    """Both names chosen, a plain file, a repeated name, or a rename whose other name the
    option does not hold: the subset stays as it is (repeats dropped)."""
    assert complete(["legacy_utils.py", "helpers_v2.py"], PLAN, OPTION)[1] == []
    assert complete(["a.py", "a.py"], PLAN, OPTION) == (["a.py"], [])
    # kept_old.py is not among the option's paths (left out): nothing to pair with.
    assert complete(["kept_new.py"], PLAN, OPTION) == (["kept_new.py"], [])
    assert complete(["helpers_v2.py"], {"changed": []}, OPTION) == (["helpers_v2.py"], [])


def test_a_rename_with_one_name_left_out_is_left_out_whole() -> None:
    """When the checkpoint cannot hold (or the rules refuse) one name of a rename, no
    restore option lists the other: the new name alone would be deleted for nothing."""
    files = [changed("new.py", "renamed", old="old.py"), changed("b.py")]
    drift = [DriftCandidate(path=p, why_outside_zone="outside") for p in ("new.py", "b.py")]
    for left in ("old.py", "new.py"):
        opts = build_options(files, drift, SAFE, apply_blocked_reason=None, unsaved={left})
        for opt in opts:
            if opt.level >= 3:
                assert opt.affected_paths == ["b.py"], (left, opt)
                assert opt.deletes == []
                assert "2 left as they are (the plan's left_out says why)" in (opt.estimated_impact)


def test_a_label_never_promises_the_files_a_restore_leaves_out() -> None:
    """With one of two out-of-scope files left out, the partial restore says it puts
    back 1 of the 2 and the full rollback 2 of the 3; with none left out, the labels
    count them all."""
    files = [changed("a.py"), changed("b.py"), changed("in.py")]
    drift = [DriftCandidate(path=p, why_outside_zone="outside") for p in ("a.py", "b.py")]
    labels = {
        o.level: o.label
        for o in build_options(files, drift, SAFE, apply_blocked_reason=None, unsaved={"b.py"})
    }
    assert "put back 1 of the 2 out-of-scope file(s) (1 left as they are)" in labels[3]
    assert "restore 2 of the 3 changed file(s) (1 left as they are)" in labels[4]
    labels = {
        o.level: o.label
        for o in build_options(files, drift, SAFE, apply_blocked_reason=None, settled={"a.py"})
    }
    # A file already as the checkpoint holds it is not put back either.
    assert "put back 1 of the 2 out-of-scope file(s) (1 left as they are)" in labels[3]
    labels = {
        o.level: o.label for o in build_options(files, drift, SAFE, apply_blocked_reason=None)
    }
    assert "put back the 2 out-of-scope file(s) from the safe checkpoint" in labels[3]
    assert "restore all 3 changed file(s) to the safe checkpoint" in labels[4]


def test_names_the_rules_refuse_are_said_in_words_with_their_rename() -> None:
    """Each refused name has its reason in words; a rename with one refused name lists
    both; a backslash (read as a folder separator) is refused too; good names pass."""
    assert why_not("src/ok.py") is None
    assert why_not("a\\b.py") == (
        "its name has a backslash, which vibflow reads as a folder separator; restore it by hand"
    )
    assert why_not("con.txt") == (
        "its name is one Windows reserves for a device (CON, NUL, COM1 …); restore it by hand"
    )
    found = unrestorable(
        [
            changed("new\tname.py", "renamed", old="old.py"),
            changed("fine.py"),
            changed("dist/x\t.js", "untracked", generated=True),
        ]
    )
    assert set(found) == {"new\tname.py", "old.py"}
    assert found["new\tname.py"].startswith("its name has a control character")
    assert found["old.py"].startswith("renamed to a name vibflow cannot restore (new\tname.py)")
