"""The advisor's intent zone from memory: empty memory falls back to diff-aware mode,
explicit files and folders (followed through renames, NFD names) are never drift,
recent patch targets and categories extend the zone, and drift outside it needs review.

Each scenario builds a git repository in ``tmp_path``, changes files the way a user or
an AI agent would, and reads ``vibflow recover --explain/--preview --json`` through the
real CLI (helpers in ``vibflow_testing.advisor``)."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from vibflow_testing.advisor import APP, LOGIN, commit_app, drift_of, recover, set_memory, zone_of
from vibflow_testing.cli import Cli
from vibflow_testing.git import git
from vibflow_testing.repo import write

pytestmark = pytest.mark.cli  # every test here spawns the CLI

# -- memory: empty, explicit, recent patches ------------------------------------------------


def test_empty_memory_falls_back_to_diff_aware_mode_and_says_so(repo: Path, cli: Cli) -> None:
    """With no memory, every changed file is in the zone (diff_fallback), nothing is drift,
    and the memory note says the plan uses the diff only."""
    commit_app(repo)
    write(repo, "src/ui/login.py", "changed\n")
    write(repo, "src/services/auth.py", "changed\n")
    write(repo, "notes.txt", "new\n")
    plan = recover(cli, "--explain")
    assert plan["memory_mode"] == "diff_aware"
    assert "diff only" in plan["memory_note"]
    assert zone_of(plan) == {
        "src/ui/login.py": "diff_fallback",
        "src/services/auth.py": "diff_fallback",
        "notes.txt": "diff_fallback",
    }
    assert plan["drift_candidates"] == []
    assert plan["intent"] is None
    human = cli("recover", "--explain")
    assert human.returncode == 0
    assert "diff only" in human.stdout


def test_explicit_file_touched_is_in_zone_and_never_drift(repo: Path, cli: Cli) -> None:
    """An explicit relevant file whose category matches nothing else in the intent
    (a service file while the patches are in the UI) is still explicit, not drift."""
    commit_app(repo)
    set_memory(
        repo,
        explicit={"src/ui/login.py": "the form", "src/services/auth.py": "its auth check"},
        patches=["src/ui/header.py"],
    )
    for rel in ("src/ui/login.py", "src/ui/header.py", "src/services/auth.py", "lib/util.py"):
        write(repo, rel, "changed\n")
    plan = recover(cli, "--explain")
    zone = zone_of(plan)
    assert zone["src/services/auth.py"] == "explicit"
    assert zone["src/ui/login.py"] == "explicit"
    assert zone["src/ui/header.py"] == "recent_patch_target"
    assert drift_of(plan) == {"lib/util.py"}
    reason = next(z["reason"] for z in plan["intent_zone"] if z["path"] == "src/services/auth.py")
    assert "its auth check" in reason


def test_many_explicit_files_are_never_dropped(repo: Path, cli: Cli) -> None:
    """Thirty explicit files (the peer read only the last ten) all stay explicit."""
    files = {f"src/mod{i:02d}.py": f"v{i}\n" for i in range(30)}
    commit_app(repo, {**APP, **files})
    set_memory(repo, explicit={p: f"module {i}" for i, p in enumerate(files)})
    for rel in files:
        write(repo, rel, "changed\n")
    write(repo, "lib/util.py", "changed\n")
    plan = recover(cli, "--explain")
    zone = zone_of(plan)
    assert all(zone[p] == "explicit" for p in files)
    assert drift_of(plan) == {"lib/util.py"}


def test_explicit_directory_entry_covers_changed_and_new_files(repo: Path, cli: Cli) -> None:
    """A directory in relevant_files covers modified and new files under it (explicit)."""
    commit_app(repo)
    set_memory(repo, explicit={"src/ui": "the whole UI"})
    write(repo, "src/ui/login.py", "changed\n")
    write(repo, "src/ui/widgets/button.py", "new\n")
    write(repo, "src/services/auth.py", "changed\n")
    plan = recover(cli, "--explain")
    zone = zone_of(plan)
    assert zone["src/ui/login.py"] == "explicit"
    assert zone["src/ui/widgets/button.py"] == "explicit"
    assert drift_of(plan) == {"src/services/auth.py"}


def test_git_mv_of_an_explicit_file_is_followed_to_its_new_name(repo: Path, cli: Cli) -> None:
    """`git mv` of an explicit file: the new name is explicit (renamed from ...), not drift."""
    commit_app(repo)
    set_memory(repo, explicit={"src/ui/login.py": "the form"})
    git(repo, "mv", "src/ui/login.py", "lib/signin.py")
    write(repo, "lib/signin.py", LOGIN + "def aria():\n    return 'aria-label'\n")
    write(repo, "src/services/auth.py", "changed\n")
    plan = recover(cli, "--explain")
    zone = zone_of(plan)
    assert zone["lib/signin.py"] == "explicit"
    assert "renamed from" in next(
        z["reason"] for z in plan["intent_zone"] if z["path"] == "lib/signin.py"
    )
    renamed = next(c for c in plan["changed"] if c["path"] == "lib/signin.py")
    assert renamed["status"] == "renamed"
    assert renamed["old_path"] == "src/ui/login.py"
    assert drift_of(plan) == {"src/services/auth.py"}


def test_git_mv_out_of_an_explicit_directory_is_not_drift(repo: Path, cli: Cli) -> None:
    """A file under an explicit directory entry, `git mv`-ed elsewhere, is still explicit."""
    commit_app(repo)
    set_memory(repo, explicit={"src/ui": "the whole UI"})
    git(repo, "mv", "src/ui/login.py", "lib/login.py")
    plan = recover(cli, "--explain")
    assert "lib/login.py" not in drift_of(plan)
    assert zone_of(plan).get("lib/login.py") == "explicit"


def test_explicit_file_recorded_by_its_on_disk_nfd_name_is_not_drift(repo: Path, cli: Cli) -> None:
    """A file named in NFD on disk (as macOS tools write it), marked relevant by that name
    through `vibflow memory relevant`, then edited, is explicit — never drift."""
    nfd = unicodedata.normalize("NFD", "lib/café.py")
    commit_app(repo, {**APP, nfd: "x = 1\n"})
    assert cli("memory", "intent", "menu work", "--yes").returncode == 0
    assert cli("memory", "relevant", nfd, "the cafe menu", "--yes").returncode == 0
    write(repo, nfd, "x = 2\n")
    plan = recover(cli, "--explain")
    assert plan["drift_candidates"] == [], plan["drift_candidates"]


def test_recent_patch_targets_extend_the_zone_but_a_category_alone_does_not(
    repo: Path, cli: Cli
) -> None:
    """Without explicit files: patch targets from observed context are in the zone; a
    changed file that only shares their category is drift (category is no evidence),
    and one of another category is drift naming both categories."""
    commit_app(repo)
    set_memory(repo, explicit={}, patches=["src/ui/login.py"])
    write(repo, "src/ui/login.py", "changed\n")
    write(repo, "src/ui/header.py", "changed\n")
    write(repo, "src/services/auth.py", "changed\n")
    plan = recover(cli, "--explain")
    assert plan["memory_mode"] == "memory"
    assert zone_of(plan) == {"src/ui/login.py": "recent_patch_target"}
    cands = {c["path"]: c["why_outside_zone"] for c in plan["drift_candidates"]}
    assert set(cands) == {"src/ui/header.py", "src/services/auth.py"}
    assert "same category 'ui'" in cands["src/ui/header.py"]
    assert "alone is no evidence" in cands["src/ui/header.py"]
    assert "'service'" in cands["src/services/auth.py"]


def test_drift_outside_the_zone_requires_review_with_a_reason(repo: Path, cli: Cli) -> None:
    """Changed files outside the zone are drift candidates that always need review and say
    why they are outside; the human output lists them under 'please review'."""
    commit_app(repo)
    set_memory(repo, explicit={"src/ui/login.py": "the form"})
    write(repo, "src/ui/login.py", "changed\n")
    write(repo, "src/services/auth.py", "changed\n")
    write(repo, "config.yaml", "shop:\n  currency: USD\n")
    plan = recover(cli, "--explain")
    assert drift_of(plan) == {"src/services/auth.py", "config.yaml"}
    for cand in plan["drift_candidates"]:
        assert cand["requires_user_review"] is True
        assert cand["why_outside_zone"].strip()
        assert cand["suggested_action"] == "review_and_revert_if_unintentional"
    human = cli("recover", "--explain").stdout
    assert "please review (2)" in human
    assert "src/services/auth.py" in human
