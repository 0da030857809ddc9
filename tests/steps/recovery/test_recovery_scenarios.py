"""The read-only recovery advisor on real repositories, through the real CLI.

Each scenario builds a git repository in ``tmp_path``, changes files the way a
user or an AI agent would, and reads ``vibflow recover --explain/--preview
--json`` (and, where it matters, the human output). Memory is written as a
``.vibflow/memory.json`` file where a test needs a shape the CLI cannot make
(an old timestamp, observed patch targets, a directory entry); elsewhere the
``vibflow memory`` commands are used. Also: the read-only proof — the work
tree, everything under ``.git`` outside vibflow's own refs, the object set and
the user's index are byte-identical before and after every recovery command.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
import unicodedata
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from vibflow_testing.cli import Cli, as_json, vf
from vibflow_testing.git import git
from vibflow_testing.repo import write

# -- helpers ------------------------------------------------------------------------------

LOGIN = "".join(f"def field_{i}():\n    return '<input name=f{i}>'\n\n\n" for i in range(8))
APP = {
    "src/ui/login.py": LOGIN,
    "src/ui/header.py": "def header():\n    return '<h1>'\n",
    "src/services/auth.py": "def check(u, p):\n    return len(p) >= 8\n",
    "lib/util.py": "def clamp(x):\n    return max(0, x)\n",
    "config.yaml": "shop:\n  currency: EUR\n",
    "tests/test_login.py": "def test_form():\n    assert True\n",
}


def commit_app(root: Path, files: dict[str, str | bytes] | None = None) -> None:
    """Commit the app (``.vibflow/`` ignored, as vibflow's own .gitignore makes it)."""
    write(root, ".vibflow/.gitignore", "*\n")
    for rel, text in (files or APP).items():
        write(root, rel, text)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "app")


def iso(when: datetime) -> str:
    return when.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def set_memory(
    root: Path,
    *,
    intent: str | None = "Make the login form accessible",
    explicit: dict[str, str] | None = None,
    patches: list[str] | None = None,
    updated: datetime | None = None,
) -> None:
    """Write ``.vibflow/memory.json`` (schema v1) directly."""
    stamp = iso(updated or datetime.now(UTC))
    data: dict[str, Any] = {"schema_version": 1}
    if intent is not None:
        data["active_intent"] = {"text": intent, "last_updated": stamp, "updated_by": "cli"}
    data["relevant_files"] = [
        {"path": p, "why": why, "source": "explicit", "last_updated": stamp, "updated_by": "cli"}
        for p, why in (explicit or {}).items()
    ]
    if patches:
        data["observed_context"] = [
            {"kind": "patch_apply", "at": stamp, "source": "hook", "detail": {"paths": patches}}
        ]
    target = root / ".vibflow" / "memory.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def recover(cli: Cli, *args: str) -> dict[str, Any]:
    proc = cli("recover", *args, "--json")
    assert proc.returncode == 0, proc.stderr
    return as_json(proc)


def zone_of(plan: dict[str, Any]) -> dict[str, str]:
    return {z["path"]: z["source"] for z in plan["intent_zone"]}


def drift_of(plan: dict[str, Any]) -> set[str]:
    return {d["path"] for d in plan["drift_candidates"]}


def option(plan: dict[str, Any], level: int) -> dict[str, Any] | None:
    return next((o for o in plan["options"] if o["level"] == level), None)


def checkpoint(cli: Cli) -> str:
    proc = cli("checkpoint", "create", "-m", "test", "--json")
    assert proc.returncode == 0, proc.stderr
    return str(as_json(proc)["checkpoint_id"])


def settle() -> None:
    """Let the clock move on so a checkpoint and an edit are strictly ordered."""
    time.sleep(0.05)


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


def test_recent_patch_targets_and_categories_extend_the_zone(repo: Path, cli: Cli) -> None:
    """Without explicit files: patch targets from observed context, then files of the same
    category; a changed file of another category is drift with a reason."""
    commit_app(repo)
    set_memory(repo, explicit={}, patches=["src/ui/login.py"])
    write(repo, "src/ui/login.py", "changed\n")
    write(repo, "src/ui/header.py", "changed\n")
    write(repo, "src/services/auth.py", "changed\n")
    plan = recover(cli, "--explain")
    assert plan["memory_mode"] == "memory"
    assert zone_of(plan) == {
        "src/ui/login.py": "recent_patch_target",
        "src/ui/header.py": "project_map_category",
    }
    (cand,) = plan["drift_candidates"]
    assert cand["path"] == "src/services/auth.py"
    assert "'service'" in cand["why_outside_zone"]


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


# -- checkpoints --------------------------------------------------------------------------


def _drifted(repo: Path) -> None:
    write(repo, "src/ui/login.py", "changed\n")
    write(repo, "src/services/auth.py", "loosened\n")


def test_no_checkpoint_means_no_restore_recommended(repo: Path, cli: Cli) -> None:
    """Without a checkpoint: no safe candidate, partial restore shown blocked with why,
    full rollback not offered, and the recommendation is a non-restoring level."""
    commit_app(repo)
    set_memory(repo, explicit={"src/ui/login.py": "the form"})
    _drifted(repo)
    plan = recover(cli, "--preview")
    assert plan["safe_checkpoint_candidate"] is None
    assert option(plan, 4) is None
    partial = option(plan, 3)
    assert partial is not None
    assert "no checkpoint" in partial["blocked_reason"]
    assert not partial["recommended"]
    assert plan["options"][0]["recommended"] is True
    assert plan["options"][0]["level"] <= 2
    assert plan["level"] <= 2
    human = cli("recover", "--preview").stdout
    assert "Cannot run now: no checkpoint" in human


def test_checkpoint_taken_after_the_change_is_not_safe(repo: Path, cli: Cli) -> None:
    """A checkpoint taken after the agent's edits is reported but predates_change is false;
    restore is blocked for that reason and full rollback is not offered."""
    commit_app(repo)
    set_memory(repo, explicit={"src/ui/login.py": "the form"})
    _drifted(repo)
    settle()
    ckpt = checkpoint(cli)
    plan = recover(cli, "--preview")
    cand = plan["safe_checkpoint_candidate"]
    assert cand["checkpoint_id"] == ckpt
    assert cand["predates_change"] is False
    assert option(plan, 4) is None
    assert "predates" in option(plan, 3)["blocked_reason"]
    assert "no checkpoint predates the change" in plan["summary"]


def test_checkpoint_taken_before_the_change_is_the_safe_candidate(repo: Path, cli: Cli) -> None:
    """A checkpoint from before the edits is selected (predates_change, metadata_complete);
    restore options need the sandwich and the lock and stay blocked while apply is off."""
    commit_app(repo)
    set_memory(repo, explicit={"src/ui/login.py": "the form"})
    ckpt = checkpoint(cli)
    settle()
    _drifted(repo)
    plan = recover(cli, "--preview")
    cand = plan["safe_checkpoint_candidate"]
    assert cand["checkpoint_id"] == ckpt
    assert cand["predates_change"] is True
    assert cand["metadata_complete"] is True
    for level in (3, 4):
        opt = option(plan, level)
        assert opt is not None
        assert opt["requires_sandwich"] is True
        assert opt["requires_lock"] is True
        assert opt["blocked_reason"]
        assert not opt["recommended"]
    assert option(plan, 3)["affected_paths"] == ["src/services/auth.py"]
    assert "a safe checkpoint from before the change exists" in plan["summary"]


def test_checkpoint_between_own_work_and_the_agent_is_safe(repo: Path, cli: Cli) -> None:
    """The README's advice — checkpoint before letting an agent loose — works when the user
    already had uncommitted work: that checkpoint predates the agent's change."""
    commit_app(repo)
    set_memory(repo, explicit={"src/ui/login.py": "the form"})
    write(repo, "src/ui/login.py", "my own unfinished work\n")
    write(repo, "notes.txt", "my notes\n")
    settle()
    ckpt = checkpoint(cli)
    settle()
    write(repo, "src/services/auth.py", "the agent loosened this\n")
    plan = recover(cli, "--preview")
    cand = plan["safe_checkpoint_candidate"]
    assert cand["checkpoint_id"] == ckpt
    assert cand["predates_change"] is True, plan["summary"]


def test_newest_checkpoint_that_predates_is_selected(repo: Path, cli: Cli) -> None:
    """With checkpoints before and after the change, the one before is the candidate."""
    commit_app(repo)
    before = checkpoint(cli)
    settle()
    _drifted(repo)
    settle()
    after = checkpoint(cli)
    plan = recover(cli, "--preview")
    assert after != before
    assert plan["safe_checkpoint_candidate"]["checkpoint_id"] == before
    assert plan["safe_checkpoint_candidate"]["predates_change"] is True


# -- what is changed ----------------------------------------------------------------------


def test_generated_cache_and_build_files_are_excluded_everywhere(repo: Path, cli: Cli) -> None:
    """node_modules/, __pycache__/, dist/ and *.pyc appear only in excluded_generated —
    never in the zone, the drift candidates or any option's paths."""
    commit_app(repo)
    set_memory(repo, explicit={"src/ui/login.py": "the form"})
    write(repo, "src/ui/login.py", "changed\n")
    write(repo, "src/services/auth.py", "changed\n")
    generated = {
        "node_modules/left-pad/index.js",
        "src/__pycache__/app.cpython-311.pyc",
        "dist/bundle.js",
        "lib/stray.pyc",
    }
    for rel in generated:
        write(repo, rel, b"\x00built\x00")
    for args in (("--explain",), ("--preview",)):
        plan = recover(cli, *args)
        assert set(plan["excluded_generated"]) == generated
        assert not generated & set(zone_of(plan))
        assert not generated & drift_of(plan)
        for opt in plan["options"]:
            assert not generated & set(opt["affected_paths"])
    human = cli("recover", "--explain").stdout
    assert "Ignored 4 generated/cache/build file(s)" in human


def test_generated_files_under_an_explicit_directory_stay_out_of_the_zone(
    repo: Path, cli: Cli
) -> None:
    """An explicit directory entry does not pull its __pycache__/*.pyc into the zone."""
    commit_app(repo)
    set_memory(repo, explicit={"src/ui": "the whole UI"})
    write(repo, "src/ui/login.py", "changed\n")
    write(repo, "src/ui/__pycache__/login.cpython-311.pyc", b"\x00pyc")
    plan = recover(cli, "--explain")
    assert plan["excluded_generated"] == ["src/ui/__pycache__/login.cpython-311.pyc"]
    assert "src/ui/__pycache__/login.cpython-311.pyc" not in zone_of(plan)


def test_only_generated_changes_mean_nothing_to_recover(repo: Path, cli: Cli) -> None:
    """When only build/cache files changed the plan is level 0, nothing to recover."""
    commit_app(repo)
    write(repo, "dist/bundle.js", "built\n")
    write(repo, "src/__pycache__/a.cpython-311.pyc", b"\x00")
    plan = recover(cli, "--explain")
    assert plan["level"] == 0
    assert [o["level"] for o in plan["options"]] == [0]
    assert plan["intent_zone"] == []
    assert "Nothing to recover" in plan["summary"]


def test_renamed_deleted_and_binary_files_are_reported_exactly(repo: Path, cli: Cli) -> None:
    """A `git mv` is one renamed change with its old path, a deletion is 'deleted', a binary
    edit is flagged binary without line counts — and all of them are judged like any file."""
    commit_app(repo, {**APP, "assets/logo.png": b"\x89PNG\x00\x01\x02"})
    set_memory(repo, explicit={"src/ui/login.py": "the form"})
    write(repo, "src/ui/login.py", "changed\n")
    git(repo, "mv", "lib/util.py", "lib/helpers.py")
    (repo / "src/services/auth.py").unlink()
    write(repo, "assets/logo.png", b"\x89PNG\x00\x09\x09\x09")
    plan = recover(cli, "--explain")
    changed = {c["path"]: c for c in plan["changed"]}
    assert changed["lib/helpers.py"]["status"] == "renamed"
    assert changed["lib/helpers.py"]["old_path"] == "lib/util.py"
    assert "lib/util.py" not in changed
    assert changed["src/services/auth.py"]["status"] == "deleted"
    assert changed["assets/logo.png"]["binary"] is True
    assert changed["assets/logo.png"]["added_lines"] is None
    assert drift_of(plan) == {"lib/helpers.py", "src/services/auth.py", "assets/logo.png"}


def test_deleted_explicit_file_stays_explicit(repo: Path, cli: Cli) -> None:
    """Deleting an explicit relevant file does not turn it into drift."""
    commit_app(repo)
    set_memory(repo, explicit={"src/services/auth.py": "being replaced"})
    (repo / "src/services/auth.py").unlink()
    write(repo, "src/ui/login.py", "changed\n")
    plan = recover(cli, "--explain")
    assert zone_of(plan)["src/services/auth.py"] == "explicit"
    assert "src/services/auth.py" not in drift_of(plan)


def test_non_ascii_names_are_exact_not_octal_escaped(repo: Path, cli: Cli) -> None:
    """Non-ASCII names come out exactly (UTF-8, no git octal escapes) and an explicit
    non-ASCII entry matches its file."""
    commit_app(repo, {**APP, "src/ui/résumé.py": "a\n", "docs/日本語.md": "b\n"})
    set_memory(repo, explicit={"src/ui/résumé.py": "the CV page"})
    write(repo, "src/ui/résumé.py", "changed\n")
    write(repo, "docs/日本語.md", "changed\n")
    write(repo, "lib/naïve ñ.py", "new\n")
    proc = cli("recover", "--explain", "--json")
    assert proc.returncode == 0, proc.stderr
    assert "\\3" not in proc.stdout
    assert '"docs/日本語.md"' in proc.stdout
    plan = as_json(proc)
    assert zone_of(plan)["src/ui/résumé.py"] == "explicit"
    assert drift_of(plan) == {"docs/日本語.md", "lib/naïve ñ.py"}
    human = cli("recover", "--explain", "--all").stdout
    assert "lib/naïve ñ.py" in human
    assert "docs/日本語.md" in human


# -- unusual repositories -------------------------------------------------------------------


def test_repo_with_no_commits_yet(tmp_path: Path, cli: Cli) -> None:
    """Before the first commit: staged and untracked files are listed, exit 0, no safe
    checkpoint, and no traceback."""
    root = tmp_path / "fresh"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    write(root, "app.py", "print('hi')\n")
    write(root, "src/ui/form.py", "form\n")
    git(root, "add", "app.py")
    proc = cli("recover", "--explain", "--json", cwd=root)
    assert proc.returncode == 0, proc.stderr
    plan = as_json(proc)
    changed = {c["path"]: c["status"] for c in plan["changed"]}
    assert changed == {"app.py": "added", "src/ui/form.py": "untracked"}
    assert plan["safe_checkpoint_candidate"] is None
    assert plan["files_modified"] == 0
    human = cli("recover", "--preview", cwd=root)
    assert human.returncode == 0, human.stderr
    assert "Traceback" not in human.stderr


@pytest.mark.parametrize(
    "args",
    [("recover", "--explain"), ("recover", "--preview", "--json"), ("run", "recover")],
)
def test_non_git_directory_is_a_clear_error(tmp_path: Path, cli: Cli, args: tuple[str]) -> None:
    """Outside a git work tree: exit 2, one plain sentence with what to do, no traceback,
    and nothing is created in that folder."""
    plain = tmp_path / "plain"
    plain.mkdir()
    write(plain, "file.txt", "x\n")
    proc = cli(*args, cwd=plain, env={"GIT_CEILING_DIRECTORIES": str(tmp_path)})
    assert proc.returncode == 2
    assert "not inside a git work tree" in proc.stderr
    assert "git init" in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    assert sorted(p.name for p in plain.iterdir()) == ["file.txt"]


# -- stale intent (P0 gate 5) -----------------------------------------------------------------


def test_intent_older_than_a_day_is_stale_and_labelled(repo: Path, cli: Cli) -> None:
    """An intent last updated 30 h ago: intent_stale, diff-aware mode with the reason, explicit
    files still explicit, and the human output labels the intent STALE."""
    commit_app(repo)
    set_memory(
        repo,
        intent="Polish the header",
        explicit={"src/ui/header.py": "the header"},
        updated=datetime.now(UTC) - timedelta(hours=30),
    )
    write(repo, "src/ui/header.py", "changed\n")
    write(repo, "src/services/auth.py", "changed\n")
    plan = recover(cli, "--explain")
    assert plan["intent_stale"] is True
    assert plan["memory_mode"] == "diff_aware"
    assert "stale" in plan["memory_note"]
    zone = zone_of(plan)
    assert zone["src/ui/header.py"] == "explicit"
    assert zone["src/services/auth.py"] == "diff_fallback"
    human = cli("recover", "--explain").stdout
    intent_line = next(line for line in human.splitlines() if "Polish the header" in line)
    assert "STALE" in intent_line


def test_intent_with_five_commits_since_is_stale(repo: Path, cli: Cli) -> None:
    """An intent set through the CLI goes stale after five more commits, and says so."""
    commit_app(repo)
    assert cli("memory", "intent", "Fix the login", "--yes").returncode == 0
    for i in range(5):
        write(repo, f"log/{i}.txt", f"{i}\n")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", f"c{i}")
    write(repo, "src/ui/login.py", "changed\n")
    plan = recover(cli, "--explain")
    assert plan["intent_stale"] is True
    assert plan["memory_mode"] == "diff_aware"
    assert "commits" in plan["memory_note"]
    assert "[STALE]" in cli("recover", "--explain").stdout


def test_fresh_intent_is_not_labelled_stale(repo: Path, cli: Cli) -> None:
    """A just-set intent is shown without the STALE label and narrows the zone."""
    commit_app(repo)
    set_memory(repo, intent="Polish the header", explicit={"src/ui/header.py": "the header"})
    write(repo, "src/ui/header.py", "changed\n")
    plan = recover(cli, "--explain")
    assert plan["intent_stale"] is False
    assert plan["memory_mode"] == "memory"
    assert "STALE" not in cli("recover", "--explain").stdout


# -- the drift-accuracy circuit breaker -----------------------------------------------------

DRIFT5 = [f"lib/mod{i}.py" for i in range(5)]


def _breaker_repo(repo: Path) -> None:
    commit_app(repo, {**APP, **dict.fromkeys(DRIFT5, "x\n")})
    set_memory(repo, explicit={"src/ui/login.py": "the form"})
    write(repo, "src/ui/login.py", "changed\n")
    for p in DRIFT5:
        write(repo, p, "changed\n")


def _feedback(cli: Cli, plan_id: str, flag: str, paths: list[str]) -> dict[str, Any]:
    args = [a for p in paths for a in (flag, p)]
    proc = cli("recover", "feedback", plan_id, *args, "--json")
    assert proc.returncode == 0, proc.stderr
    return as_json(proc)


def _degrade(cli: Cli) -> None:
    first = recover(cli, "--preview")
    assert drift_of(first) == set(DRIFT5)
    assert _feedback(cli, first["plan_id"], "--wrong", DRIFT5[:3])["circuit_breaker_state"] == (
        "active"
    )
    second = recover(cli, "--preview")
    state = _feedback(cli, second["plan_id"], "--wrong", DRIFT5[3:])
    assert state["circuit_breaker_state"] == "degraded"
    assert state["labels"] == 5


def test_wrong_labels_degrade_the_breaker(repo: Path, cli: Cli) -> None:
    """Five wrong drift labels across two previews: degraded — no drift candidates,
    diff-aware mode, a visible marker, explicit files still explicit, audited."""
    _breaker_repo(repo)
    _degrade(cli)
    plan = recover(cli, "--preview")
    assert plan["circuit_breaker_state"] == "degraded"
    assert plan["drift_candidates"] == []
    assert plan["memory_mode"] == "diff_aware"
    assert "circuit breaker degraded" in plan["memory_note"]
    assert zone_of(plan)["src/ui/login.py"] == "explicit"
    assert all(zone_of(plan)[p] == "diff_fallback" for p in DRIFT5)
    human = cli("recover", "--explain").stdout
    assert "Drift labels: OFF (degraded)" in human
    rows = [
        json.loads(line)
        for line in (repo / ".vibflow" / "audit.jsonl").read_text().splitlines()
        if '"recovery_preview"' in line
    ]
    assert rows[-1]["circuit_breaker_state"] == "degraded"
    assert rows[0]["circuit_breaker_state"] == "active"


def test_four_wrong_labels_are_not_enough_to_degrade(repo: Path, cli: Cli) -> None:
    """Below the minimum sample of five labels the breaker stays active."""
    _breaker_repo(repo)
    plan = recover(cli, "--preview")
    state = _feedback(cli, plan["plan_id"], "--wrong", DRIFT5[:4])
    assert state["circuit_breaker_state"] == "active"
    assert state["accuracy"] is None
    assert recover(cli, "--explain")["drift_candidates"]


def test_degraded_breaker_recovers_after_enough_correct_labels(repo: Path, cli: Cli) -> None:
    """After degrading, the user keeps labelling on fresh previews (the files that were
    drift really were drift) and the breaker returns to active."""
    _breaker_repo(repo)
    _degrade(cli)
    state = "degraded"
    for _ in range(6):
        plan = recover(cli, "--preview")
        proc = cli(
            "recover",
            "feedback",
            plan["plan_id"],
            *[a for p in DRIFT5 for a in ("--correct", p)],
            "--json",
        )
        assert proc.returncode == 0, proc.stderr
        state = as_json(proc)["circuit_breaker_state"]
        if state == "active":
            break
    assert state == "active"
    assert drift_of(recover(cli, "--explain")) == set(DRIFT5)


# -- read-only proof ----------------------------------------------------------------------


def _hash_tree(top: Path, skip: set[str]) -> dict[str, str]:
    """Every folder, file (content and mode) and symlink under ``top``, by relative path."""
    out: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(top):
        here = Path(dirpath)
        rel_dir = here.relative_to(top).as_posix()
        prefix = "" if rel_dir == "." else rel_dir + "/"
        dirnames[:] = [d for d in dirnames if prefix + d not in skip]
        out[prefix] = "dir"
        for name in filenames:
            rel = prefix + name
            if rel in skip:
                continue
            path = here / name
            if path.is_symlink():
                out[rel] = "link:" + str(path.readlink())
            else:
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
                out[rel] = f"{digest}:{path.lstat().st_mode:o}"
    return out


def _objects(root: Path) -> set[str]:
    out = git(root, "cat-file", "--batch-all-objects", "--batch-check")
    return {line.split()[0] for line in out.splitlines() if line}


def _vibflow_reachable(root: Path) -> set[str]:
    tips = git(root, "for-each-ref", "--format=%(objectname)", "refs/vibflow").split()
    if not tips:
        return set()
    out = git(root, "rev-list", "--objects", *tips)
    return {line.split()[0] for line in out.splitlines() if line}


def user_state(root: Path) -> dict[str, Any]:
    """Everything of the user's: the work tree (minus .vibflow/), .git (minus objects, the
    index, vibflow's refs and reflogs), packed-refs without vibflow's lines, the index's
    bytes and mtime, and the object set."""
    dot_git = root / ".git"
    packed = dot_git / "packed-refs"
    return {
        "work tree": _hash_tree(root, {".git", ".vibflow"}),
        ".git": _hash_tree(
            dot_git, {"objects", "index", "refs/vibflow", "logs/refs/vibflow", "packed-refs"}
        ),
        "packed-refs": (
            [ln for ln in packed.read_text().splitlines() if "refs/vibflow/" not in ln]
            if packed.exists()
            else None
        ),
        "index bytes": hashlib.sha256((dot_git / "index").read_bytes()).hexdigest(),
        "index mtime": (dot_git / "index").stat().st_mtime_ns,
        "objects": _objects(root),
    }


def assert_unchanged(root: Path, before: dict[str, Any], after_what: str) -> None:
    after = user_state(root)
    new_objects = after["objects"] - before["objects"]
    assert not new_objects - _vibflow_reachable(root), f"{after_what}: objects outside refs/vibflow"
    assert not before["objects"] - after["objects"], f"{after_what}: objects disappeared"
    for key in ("work tree", ".git", "packed-refs", "index bytes", "index mtime"):
        assert after[key] == before[key], f"{after_what} changed the user's {key}"


def _busy_repo(repo: Path, cli: Cli, *, stat_dirty: bool) -> None:
    """Staged, unstaged, untracked, renamed, deleted and generated files, a checkpoint, a
    stash, a branch, a tag, packed refs and an untracked cache. The index is then settled
    (no racily-clean entries); with ``stat_dirty`` one tracked file gets a new mtime with
    the same content — the state in which `git status` or `git diff` rewrite the index."""
    commit_app(repo)
    git(repo, "config", "core.untrackedCache", "true")
    git(repo, "update-index", "--untracked-cache")
    git(repo, "branch", "feature")
    git(repo, "tag", "v1")
    write(repo, "lib/util.py", "stashed\n")
    git(repo, "stash", "-q")
    set_memory(repo, explicit={"src/ui/login.py": "the form"})
    checkpoint(cli)
    git(repo, "pack-refs", "--all")
    write(repo, "src/ui/login.py", "staged\n")
    git(repo, "add", "src/ui/login.py")
    write(repo, "src/ui/login.py", "staged then edited\n")
    write(repo, "src/services/auth.py", "unstaged\n")
    git(repo, "mv", "config.yaml", "settings.yaml")
    (repo / "tests/test_login.py").unlink()
    write(repo, "new/feature.py", "untracked\n")
    write(repo, "node_modules/x/index.js", "generated\n")
    past = time.time() - 60
    for dirpath, dirnames, filenames in os.walk(repo):
        dirnames[:] = [d for d in dirnames if d not in (".git", ".vibflow")]
        for name in filenames:
            os.utime(Path(dirpath, name), (past, past))
    git(repo, "update-index", "-q", "--refresh")
    if stat_dirty:
        header = repo / "src/ui/header.py"
        os.utime(header, (past - 60, past - 60))


@pytest.mark.parametrize("stat_dirty", [False, True], ids=["settled-index", "stat-dirty-index"])
def test_explain_and_preview_change_nothing_of_the_users(
    repo: Path, cli: Cli, stat_dirty: bool
) -> None:
    """`recover --explain`, `--preview` (human and JSON, with --all) and feedback leave the
    work tree, .git (minus vibflow's refs), the object set and the index byte-identical."""
    _busy_repo(repo, cli, stat_dirty=stat_dirty)
    before = user_state(repo)
    for args in (
        ("--explain",),
        ("--explain", "--json"),
        ("--preview",),
        ("--preview", "--json", "--all"),
    ):
        proc = cli("recover", *args)
        assert proc.returncode == 0, proc.stderr
        assert_unchanged(repo, before, "recover " + " ".join(args))
    plan = recover(cli, "--preview")
    drifting = sorted(drift_of(plan))
    assert drifting
    fb = cli("recover", "feedback", plan["plan_id"], "--correct", drifting[0])
    assert fb.returncode == 0, fb.stderr
    assert_unchanged(repo, before, "recover feedback")


@pytest.mark.parametrize("stat_dirty", [False, True], ids=["settled-index", "stat-dirty-index"])
def test_recover_flow_to_the_choice_changes_nothing(repo: Path, cli: Cli, stat_dirty: bool) -> None:
    """`vibflow run recover` up to the choice, then choosing the recommended option,
    leaves the user's tree, .git, object set and index byte-identical."""
    _busy_repo(repo, cli, stat_dirty=stat_dirty)
    before = user_state(repo)
    started = cli("run", "recover", "--json")
    assert started.returncode == 0, started.stderr
    run = as_json(started)
    assert run["status"] == "waiting"
    assert_unchanged(repo, before, "run recover")
    chosen = cli("step", run["run_id"], "choose", "--input", f"option={run['recommended_option']}")
    assert chosen.returncode == 0, chosen.stderr
    assert_unchanged(repo, before, "step choose")


def test_a_stray_parent_vibflow_folder_does_not_hide_the_changes(tmp_path: Path) -> None:
    """The project is what git says, never a marker folder found by walking up (peer lesson:
    a parent `.vibelign/` made a 500-file change report "nothing to recover")."""
    parent = tmp_path / "outer"
    (parent / ".vibflow").mkdir(parents=True)
    (parent / ".vibflow" / "memory.json").write_text("{}", encoding="utf-8")
    inner = parent / "work" / "project"
    inner.mkdir(parents=True)
    git(inner, "init", "-q", "-b", "main")
    git(
        inner,
        "-c",
        "user.name=a",
        "-c",
        "user.email=a@b.c",
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        "init",
    )
    for i in range(30):
        (inner / f"file{i}.py").write_text(f"x = {i}\n", encoding="utf-8")
    proc = vf(inner / ".", "recover", "--explain", "--json")
    assert proc.returncode == 0, proc.stderr
    plan = json.loads(proc.stdout)
    assert len(plan["changed"]) == 30
    assert (inner / ".vibflow").is_dir()
    assert (parent / ".vibflow" / "memory.json").read_text(encoding="utf-8") == "{}"
