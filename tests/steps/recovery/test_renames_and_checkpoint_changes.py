"""Renames and files only the checkpoint knows, through the real CLI: a rename (``git mv``
or a plain move) is one change listed as ``old → new``; a file the safe checkpoint held
and the agent deleted is a deletion; a restore brings the old name and the deleted file
back and removes the new name, exactly as the preview counted; deletions are judged
against the checkpoint (a modified untracked ``local.cfg`` it held is restored, not deleted);
the text output shows each file's status and every option; the recommendation does not
depend on the apply flag; and feedback corrections label the next plans of the intent.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from vibflow_testing.apply import (
    APPLY,
    choose,
    commit_all,
    confirm,
    ok_json,
    start,
    stored_option,
    tree_state,
)
from vibflow_testing.cli import vf
from vibflow_testing.git import git
from vibflow_testing.repo import write

from vibflow.steps.recovery.zone import MARKED_DRIFT, MARKED_IN_SCOPE

pytestmark = pytest.mark.cli  # every test here spawns the CLI

UTIL = "def clamp(x):\n    return max(0, x)  # ünïcode stays exact\n".encode()
APP: dict[str, str | bytes] = {
    "src/ui/login.py": "def render():\n    return '<form>'\n",
    "src/ui/header.py": "def header():\n    return '<h1>'\n",
    "lib/util.py": UTIL,
    "config.yaml": "shop:\n  currency: EUR\n",
}
IN_SCOPE_EDIT = "def render():\n    return '<form aria-label=\"login\">'\n"


def setup_project(repo: Path) -> tuple[str, dict[str, tuple[str, str]]]:
    """The app committed, an untracked (not ignored) local.cfg and notes file, memory on the
    login form, a checkpoint. Returns its id and the tree as it holds it."""
    for rel, text in APP.items():
        write(repo, rel, text)
    commit_all(repo)
    write(repo, "local.cfg", "setting=one\n")
    write(repo, "notes.txt", "my notes, never committed\n")
    for args in (
        ("memory", "intent", "Make the login form accessible", "--yes"),
        ("memory", "relevant", "src/ui/login.py", "the login form", "--yes"),
    ):
        assert vf(repo, *args).returncode == 0
    ckpt = ok_json(vf(repo, "checkpoint", "create", "--json"))["checkpoint_id"]
    time.sleep(0.05)
    return ckpt, tree_state(repo)


def drift(repo: Path, move: str) -> None:
    """The agent: edits the form (in scope), moves lib/util.py to lib/helpers.py (with git
    or without), deletes the untracked notes, edits local.cfg and config, adds a file."""
    write(repo, "src/ui/login.py", IN_SCOPE_EDIT)
    if move == "git-mv":
        git(repo, "mv", "lib/util.py", "lib/helpers.py")
    else:
        (repo / "lib/util.py").rename(repo / "lib/helpers.py")
    (repo / "notes.txt").unlink()
    write(repo, "local.cfg", "setting=two\n")
    write(repo, "config.yaml", "shop:\n  currency: USD\n")
    write(repo, "extra.py", "def extra():\n    return 1\n")


def changes(plan: dict[str, Any]) -> dict[str, tuple[str, str | None]]:
    return {c["path"]: (c["status"], c["old_path"]) for c in plan["changed"]}


@pytest.mark.parametrize("move", ["git-mv", "plain-mv"])
def test_a_move_is_one_change_with_its_old_name(repo: Path, move: str) -> None:
    """`git mv a b` and a plain `mv a b` are both listed as one rename a → b (never a
    lone b), and the deleted untracked notes file the checkpoint held is a deletion."""
    setup_project(repo)
    drift(repo, move)
    plan = ok_json(vf(repo, "recover", "--json"))
    listed = changes(plan)
    assert listed["lib/helpers.py"] == ("renamed", "lib/util.py")
    assert "lib/util.py" not in listed
    assert listed["notes.txt"] == ("deleted", None)
    assert [d["path"] for d in plan["drift_candidates"]].count("lib/helpers.py") == 1


def test_an_edited_plain_move_stays_a_deletion_and_a_new_file(repo: Path) -> None:
    """Only an exact copy pairs with a deleted file without git (judging similarity would
    read every untracked file): an edited move is listed as D old and ?? new, both drift,
    so a partial restore still covers both names."""
    setup_project(repo)
    (repo / "lib/util.py").rename(repo / "lib/helpers.py")
    write(repo, "lib/helpers.py", UTIL + b"# edited\n")
    plan = ok_json(vf(repo, "recover", "--json"))
    listed = changes(plan)
    assert listed["lib/util.py"] == ("deleted", None)
    assert listed["lib/helpers.py"] == ("untracked", None)
    drifting = {d["path"] for d in plan["drift_candidates"]}
    assert {"lib/util.py", "lib/helpers.py"} <= drifting


@pytest.mark.parametrize("level", [3, 4], ids=["partial", "full"])
@pytest.mark.parametrize("move", ["git-mv", "plain-mv"])
def test_restoring_a_move_brings_the_old_name_back_as_the_preview_counted(
    repo: Path, move: str, level: int
) -> None:
    """Partial and full rollback through the CLI: the preview lists both names of the move
    and deletes exactly the new name and the added file (not the local.cfg the checkpoint
    held); after `APPLY <ckpt>` lib/util.py is back byte for byte, lib/helpers.py and
    extra.py are gone, notes.txt and local.cfg are the checkpoint's, and the files changed
    equal the paths the preview listed."""
    ckpt, at_checkpoint = setup_project(repo)
    drift(repo, move)
    run = start(repo)
    assert run["plan"]["safe_checkpoint_candidate"]["checkpoint_id"] == ckpt
    opt = stored_option(repo, run, level)
    assert {"lib/util.py", "lib/helpers.py", "notes.txt", "local.cfg"} <= set(opt["affected_paths"])
    assert sorted(opt["deletes"]) == ["extra.py", "lib/helpers.py"]
    at = choose(repo, run, level)
    assert at["confirmation_expected"] == f"APPLY {ckpt}"
    assert sorted(at["restore"]["deletes"]) == ["extra.py", "lib/helpers.py"]
    done = ok_json(confirm(repo, at))
    assert (done["status"], done["state"]) == ("done", "result")
    assert done["result"]["skipped"] == []
    assert done["changed_files"] == len(opt["affected_paths"])
    assert (repo / "lib/util.py").read_bytes() == UTIL
    assert not (repo / "lib/helpers.py").exists()
    assert not (repo / "extra.py").exists()
    assert (repo / "notes.txt").read_text(encoding="utf-8") == "my notes, never committed\n"
    assert (repo / "local.cfg").read_text(encoding="utf-8") == "setting=one\n"
    expected = dict(at_checkpoint)
    if level == 3:
        expected["src/ui/login.py"] = tree_state(repo)["src/ui/login.py"]
        assert (repo / "src/ui/login.py").read_text(encoding="utf-8") == IN_SCOPE_EDIT
    assert tree_state(repo) == expected


def test_a_deleted_untracked_file_alone_is_seen_and_restored(repo: Path) -> None:
    """The only change since the checkpoint is an untracked file it held, deleted: recover
    lists it (D), full rollback is offered from that checkpoint and brings it back; the
    untracked local.cfg the checkpoint holds as it is now is not counted as restored."""
    ckpt, at_checkpoint = setup_project(repo)
    (repo / "notes.txt").unlink()
    plan = ok_json(vf(repo, "recover", "--json"))
    assert changes(plan) == {"notes.txt": ("deleted", None), "local.cfg": ("untracked", None)}
    run = start(repo)
    full = stored_option(repo, run, 4)
    assert (full["affected_paths"], full["deletes"]) == (["notes.txt"], [])
    assert "1 already as the checkpoint holds them" in full["estimated_impact"]
    at = choose(repo, run, 4)
    assert at["confirmation_expected"] == f"APPLY {ckpt}"
    done = ok_json(confirm(repo, at))
    assert done["changed_files"] == 1
    assert tree_state(repo) == at_checkpoint


def test_text_output_shows_each_status_and_every_option(repo: Path) -> None:
    """`recover --explain` and `--preview` mark files M, A, D, R old → new and ?? like
    `git status`; the preview lists all four options, Full rollback included."""
    setup_project(repo)
    drift(repo, "git-mv")
    write(repo, "src/ui/footer.py", "def footer():\n    return ''\n")
    git(repo, "add", "src/ui/footer.py")
    explained = vf(repo, "recover", "--explain")
    previewed = vf(repo, "recover", "--preview", "--all")
    for proc in (explained, previewed):
        assert proc.returncode == 0, proc.stderr
        lines = [line.strip() for line in proc.stdout.splitlines()]
        for shown in (
            "R  lib/util.py → lib/helpers.py",
            "D  notes.txt",
            "M  config.yaml",
            "?? extra.py",
        ):
            assert any(line.startswith(shown) for line in lines), (shown, proc.stdout)
    assert any(
        line.strip().startswith("A  src/ui/footer.py") for line in explained.stdout.split("\n")
    )
    numbered = [
        line for line in previewed.stdout.splitlines() if line[:3] in ("1. ", "2. ", "3. ", "4. ")
    ]
    assert len(numbered) == 4
    assert any("Full rollback" in line for line in numbered)


def test_the_recommendation_is_the_same_with_the_apply_flag_on_or_off(repo: Path) -> None:
    """The flag only decides whether a restore can run: the recommended option's level is
    the same, and with the flag off it says why it cannot run yet."""
    setup_project(repo)
    drift(repo, "git-mv")
    off = ok_json(vf(repo, "recover", "--preview", "--json"))
    on = ok_json(vf(repo, "recover", "--preview", "--json", env=APPLY))
    best_off = next(o for o in off["options"] if o["recommended"])
    best_on = next(o for o in on["options"] if o["recommended"])
    assert best_off["level"] == best_on["level"] == 3
    assert best_on["blocked_reason"] is None
    assert "VIBFLOW_RECOVERY_APPLY" in best_off["blocked_reason"]


def test_feedback_corrections_label_the_next_plans_of_the_intent(repo: Path) -> None:
    """`recover feedback --wrong` on an in-scope file makes it drift in the next plan, on a
    drift file puts it in scope, each with a reason saying the user said so; a new intent
    starts from the inferred labels again."""
    setup_project(repo)
    drift(repo, "git-mv")
    # In scope by evidence: the header now imports the explicit login form.
    write(
        repo,
        "src/ui/header.py",
        "from src.ui.login import field_0\n\n\ndef header():\n    return '<h2>'\n",
    )
    first = ok_json(vf(repo, "recover", "--preview", "--json"))
    assert "src/ui/header.py" in {z["path"] for z in first["intent_zone"]}
    assert "config.yaml" in first["feedback_paths"]
    proc = vf(
        repo,
        "recover",
        "feedback",
        first["plan_id"],
        "--wrong",
        "src/ui/header.py",
        "--wrong",
        "config.yaml",
        "--json",
    )
    answer = ok_json(proc)
    assert answer["remembered"] == {"src/ui/header.py": "drift", "config.yaml": "in_scope"}
    text = vf(repo, "recover", "--preview")
    assert text.returncode == 0
    nxt = ok_json(vf(repo, "recover", "--preview", "--json"))
    drifting = {d["path"]: d["why_outside_zone"] for d in nxt["drift_candidates"]}
    assert drifting["src/ui/header.py"] == MARKED_DRIFT
    zone = {z["path"]: z for z in nxt["intent_zone"]}
    assert (zone["config.yaml"]["source"], zone["config.yaml"]["reason"]) == (
        "user_feedback",
        MARKED_IN_SCOPE,
    )
    assert vf(repo, "memory", "intent", "Speed up the build", "--yes").returncode == 0
    other = ok_json(vf(repo, "recover", "--json"))
    assert "src/ui/header.py" not in {d["path"] for d in other["drift_candidates"]}
    assert "config.yaml" not in {
        z["path"] for z in other["intent_zone"] if z["source"] == "user_feedback"
    }


def test_feedback_that_an_explicit_file_is_drift_is_refused(repo: Path) -> None:
    """An explicit relevant file is never drift: saying so is bad input (exit 2) with what
    to do, and nothing is remembered."""
    setup_project(repo)
    drift(repo, "git-mv")
    plan = ok_json(vf(repo, "recover", "--preview", "--json"))
    proc = vf(repo, "recover", "feedback", plan["plan_id"], "--wrong", "src/ui/login.py")
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "explicit relevant files" in proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert not (repo / ".vibflow/recovery/corrections.json").exists()


def test_many_untracked_files_the_checkpoint_holds_as_they_are_are_not_restored(
    repo: Path,
) -> None:
    """300 untracked files taken into the checkpoint and left alone are not part of the
    full rollback (it would not change them); the one edited and the one deleted are."""
    commit_all(repo)
    for i in range(300):
        write(repo, f"data/item{i:03d}.txt", f"item {i}\n")
    ok_json(vf(repo, "checkpoint", "create", "--json"))
    time.sleep(0.05)
    write(repo, "data/item007.txt", "edited\n")
    (repo / "data/item008.txt").unlink()
    plan = ok_json(vf(repo, "recover", "--preview", "--json"))
    full = next(o for o in plan["options"] if o["level"] == 4)
    assert sorted(full["affected_paths"]) == ["data/item007.txt", "data/item008.txt"]
    assert full["deletes"] == []
    assert "298 already as the checkpoint holds them" in full["estimated_impact"]


def test_a_move_made_before_the_checkpoint_is_not_undone_or_counted(repo: Path) -> None:
    """The user's own `git mv` before the checkpoint is what the checkpoint holds: full
    rollback neither lists nor counts it, and the apply changes exactly the files the
    preview counted (here the config alone)."""
    for rel, text in APP.items():
        write(repo, rel, text)
    commit_all(repo)
    git(repo, "mv", "lib/util.py", "lib/helpers.py")
    ckpt = ok_json(vf(repo, "checkpoint", "create", "--json"))["checkpoint_id"]
    time.sleep(0.05)
    write(repo, "config.yaml", "shop:\n  currency: USD\n")
    run = start(repo)
    full = stored_option(repo, run, 4)
    assert full["affected_paths"] == ["config.yaml"]
    at = choose(repo, run, 4)
    assert at["confirmation_expected"] == f"APPLY {ckpt}"
    done = ok_json(confirm(repo, at))
    assert done["changed_files"] == 1
    assert (repo / "lib/helpers.py").read_bytes() == UTIL
    assert not (repo / "lib/util.py").exists()


def test_an_uncommitted_edit_reverted_by_the_agent_is_seen_and_restored(repo: Path) -> None:
    """The checkpoint holds the user's uncommitted edit; the agent runs `git checkout --`
    on it (the file equals the last commit again, so a diff against HEAD shows nothing):
    recover lists it as modified and full rollback puts the edit back."""
    for rel, text in APP.items():
        write(repo, rel, text)
    commit_all(repo)
    write(repo, "config.yaml", "shop:\n  currency: EUR\n  vat: true\n")
    ckpt, at_checkpoint = (
        ok_json(vf(repo, "checkpoint", "create", "--json"))["checkpoint_id"],
        tree_state(repo),
    )
    time.sleep(0.05)
    git(repo, "checkout", "--", "config.yaml")
    plan = ok_json(vf(repo, "recover", "--json"))
    assert changes(plan) == {"config.yaml": ("modified", None)}
    run = start(repo)
    at = choose(repo, run, 4)
    assert at["confirmation_expected"] == f"APPLY {ckpt}"
    done = ok_json(confirm(repo, at))
    assert done["changed_files"] == 1
    assert tree_state(repo) == at_checkpoint
