"""What a confirmed restore does: the drift files' content and mode come back, in-scope
edits stay, new files go only when the preview listed their deletion, the sandwich is
kept and can undo the restore, the audit rows carry the sandwich and counts, the result
says what to verify next, and a file edited after the sandwich needs a second
confirmation.

The recover run is driven through the real CLI on real git repositories; the steps to
get there (``drifted``, ``start``, ``choose``, ``confirm`` ...) are in
``vibflow_testing.apply``."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from vibflow_testing.apply import (
    APP,
    IN_SCOPE_EDIT,
    NEW_FILE,
    PARTIAL_PATHS,
    agent_rewrote,
    checkpoint_commit,
    choose,
    commit_all,
    confirm,
    drifted,
    ok_json,
    run_rows,
    show_blob,
    start,
    stored_option,
    to_confirm,
    tree_state,
)
from vibflow_testing.cli import vf
from vibflow_testing.git import git
from vibflow_testing.repo import write

from vibflow.steps.checkpoints import restore
from vibflow.steps.recovery.job import RestoreJobs
from vibflow.steps.recovery.lease import LeaseFile
from vibflow.steps.workspace.git import Git

pytestmark = pytest.mark.cli  # every test here spawns the CLI

# -- results ------------------------------------------------------------------------------


def test_partial_restore_restores_drift_content_and_mode_and_keeps_in_scope_work(
    repo: Path,
) -> None:
    """Level 3 puts back the drift files' content and mode (+x), recreates the deleted
    guide, deletes the new file it previewed as a deletion, keeps the in-scope edit and
    reports the count, the kept sandwich and how to undo."""
    ckpt = drifted(repo)
    at = to_confirm(repo)
    assert at["restore"]["deletes"] == [NEW_FILE]
    done = ok_json(confirm(repo, at))
    assert (done["status"], done["state"]) == ("done", "result")
    for rel in ("src/services/auth.py", "config.yaml", "bin/deploy.sh", "docs/guide.md"):
        assert (repo / rel).read_text(encoding="utf-8") == APP[rel], rel
    assert (repo / "bin/deploy.sh").stat().st_mode & 0o777 == 0o755
    assert (repo / "config.yaml").stat().st_mode & 0o111 == 0
    assert not (repo / NEW_FILE).exists()
    assert (repo / "src/ui/login.py").read_text(encoding="utf-8") == IN_SCOPE_EDIT
    assert git(repo, "status", "--porcelain") == " M src/ui/login.py\n"
    assert done["changed_files"] == 5
    sandwich = done["sandwich_checkpoint_id"]
    assert sandwich == at["sandwich_checkpoint_id"] != ckpt
    result = done["result"]
    assert result["files_modified"] == 5
    assert result["sandwich_checkpoint_id"] == sandwich
    assert sandwich in result["undo"]
    assert result["skipped"] == []
    assert "aborted" not in result
    kept = ok_json(vf(repo, "checkpoint", "show", sandwich, "--json"))
    assert kept["reason"] == "sandwich"
    assert kept["metadata_complete"] is True
    assert not list((repo / "src").rglob("*.vibflow-restore*.tmp"))


def _committed_after_the_checkpoint(repo: Path) -> None:
    """The app and a checkpoint; then the agent commits a new api file, edits it again and
    loosens auth."""
    for rel, text in APP.items():
        write(repo, rel, text)
    commit_all(repo)
    assert vf(repo, "memory", "relevant", "src/ui/login.py", "the form", "--yes").returncode == 0
    ok_json(vf(repo, "checkpoint", "create", "--json"))
    time.sleep(0.05)
    write(repo, "src/services/new_api.py", "v1\n")
    commit_all(repo, "agent adds an api")
    write(repo, "src/services/new_api.py", "v2\n")
    write(repo, "src/services/auth.py", "loosened\n")


def test_a_file_the_checkpoint_lacks_is_previewed_as_a_deletion_and_deleted(
    repo: Path,
) -> None:
    """A file committed after the checkpoint is absent from it: the preview lists it under
    `deletes` (judged against the checkpoint, not the last commit) and the apply deletes
    it — the count it previewed."""
    _committed_after_the_checkpoint(repo)
    run = start(repo)
    opt = stored_option(repo, run, 3)
    assert "src/services/new_api.py" in opt["affected_paths"]
    assert opt["deletes"] == ["src/services/new_api.py"]
    done = ok_json(confirm(repo, choose(repo, run, 3)))
    assert done["status"] == "done"
    assert not (repo / "src/services/new_api.py").exists()
    assert (repo / "src/services/auth.py").read_text(encoding="utf-8") == APP[
        "src/services/auth.py"
    ]
    assert done["result"]["skipped"] == []
    assert done["changed_files"] == len(opt["affected_paths"]) == 2


def test_a_new_file_is_deleted_only_when_the_confirmed_job_lists_its_deletion(
    repo: Path,
) -> None:
    """A file absent from the checkpoint that the confirmed restore does not list under
    `deletes` (here: the job record says so) is kept and reported as skipped with why."""
    _committed_after_the_checkpoint(repo)
    run = start(repo)
    at = choose(repo, run, 3)
    jobs = RestoreJobs(repo / ".vibflow" / "recovery" / "jobs")
    job = jobs.load(at["run_id"])
    assert job is not None
    assert job.deletes == ["src/services/new_api.py"]
    jobs.save(job.model_copy(update={"deletes": []}))
    done = ok_json(confirm(repo, at))
    assert done["status"] == "done"
    assert (repo / "src/services/new_api.py").read_text(encoding="utf-8") == "v2\n"
    skipped = done["result"]["skipped"]
    assert [s["path"] for s in skipped] == ["src/services/new_api.py"]
    assert "confirm" in skipped[0]["why"]
    assert done["changed_files"] == 1


def test_the_sandwich_diff_lists_exactly_what_the_restore_changed(repo: Path) -> None:
    """`vibflow checkpoint diff SANDWICH` after the apply lists exactly the restored paths:
    the modified ones, the recreated guide (added) and the deleted new file."""
    drifted(repo)
    done = ok_json(confirm(repo, to_confirm(repo)))
    diff = ok_json(vf(repo, "checkpoint", "diff", done["sandwich_checkpoint_id"], "--json"))
    statuses = {c["path"]: c["status"] for c in diff["changes"]}
    assert statuses == {
        "bin/deploy.sh": "modified",
        "config.yaml": "modified",
        "docs/guide.md": "added",
        NEW_FILE: "deleted",
        "src/services/auth.py": "modified",
    }


def test_a_checkpoint_after_the_restore_holds_the_recreated_file(repo: Path) -> None:
    """The guide the agent deleted and the restore recreated is in the next checkpoint
    (a checkpoint taken right after the apply must match the work tree)."""
    drifted(repo)
    ok_json(confirm(repo, to_confirm(repo)))
    after = ok_json(vf(repo, "checkpoint", "create", "--json"))
    assert git(repo, "ls-tree", "--name-only", "-r", after["commit"], "docs/") == (
        "docs/guide.md\n"
    )
    assert (
        ok_json(vf(repo, "checkpoint", "diff", after["checkpoint_id"], "--json"))["changes"] == []
    )


def test_the_sandwich_undoes_the_restore(repo: Path) -> None:
    """Restoring the restored paths from the sandwich (vibflow's restore under a real lease)
    gives back the work tree exactly as it was before the apply."""
    drifted(repo)
    at = to_confirm(repo)
    before = tree_state(repo)
    done = ok_json(confirm(repo, at))
    sandwich = done["sandwich_checkpoint_id"]
    assert tree_state(repo) != before
    lease = LeaseFile(repo / ".vibflow" / "recovery").acquire("op_undo")
    g = Git(repo)
    items = restore.plan(g, checkpoint_commit(repo, sandwich), PARTIAL_PATHS)
    blobs = restore.read_blobs(g, [i.sha for i in items if i.sha and i.action == "write"])
    for item in items:
        lease.check()
        restore.write(repo, item, blobs.get(item.sha or ""), lease.commit)
    assert lease.release()
    assert tree_state(repo) == before


def test_verify_next_lists_memory_verifications_covering_the_restored_files(repo: Path) -> None:
    """The result's verify_next carries the memory verification command that covers a
    restored file (auth.py), not a generic hint."""
    drifted(repo)
    done = ok_json(confirm(repo, to_confirm(repo)))
    assert done["result"]["verify_next"] == ["pytest tests/test_auth.py"]


def test_the_apply_audit_row_carries_sandwich_and_counts_and_the_chain_verifies(
    repo: Path,
) -> None:
    """The apply → result row has result ok, the sandwich id, paths_count and the changed
    count; no row carries a path; `vibflow audit verify` is ok."""
    drifted(repo)
    at = to_confirm(repo)
    done = ok_json(confirm(repo, at))
    sandwich = done["sandwich_checkpoint_id"]
    rows = run_rows(repo, at["run_id"])
    applied = next(r for r in rows if r.get("from_state") == "apply")
    assert applied["result"] == "ok"
    assert applied["sandwich_checkpoint_id"] == sandwich
    assert applied["paths_count"]["total"] == len(PARTIAL_PATHS)
    assert applied["files_changed"] == 5
    text = (repo / ".vibflow" / "audit.jsonl").read_text(encoding="utf-8")
    for rel in [*PARTIAL_PATHS, "src/ui/login.py"]:
        assert rel not in text
    report = ok_json(vf(repo, "audit", "verify", "--json"))
    assert report["ok"] is True


def test_the_sandwich_audit_row_carries_sandwich_id_and_paths_count(repo: Path) -> None:
    """The sandwich → confirm row names the sandwich id and how many paths will be
    restored (issue 5: audit rows for sandwich carry sandwich id and paths_count)."""
    drifted(repo)
    at = to_confirm(repo)
    row = next(r for r in run_rows(repo, at["run_id"]) if r.get("from_state") == "sandwich")
    assert row["sandwich_checkpoint_id"] == at["sandwich_checkpoint_id"]
    assert row.get("paths_count", {}).get("total") == len(PARTIAL_PATHS), row


def test_the_confirm_audit_row_carries_sandwich_id_and_paths_count(repo: Path) -> None:
    """The confirm → apply row names the sandwich id and how many paths were confirmed
    (issue 5: audit rows for confirm carry sandwich id and paths_count)."""
    drifted(repo)
    at = to_confirm(repo)
    ok_json(confirm(repo, at))
    row = next(
        r
        for r in run_rows(repo, at["run_id"])
        if r.get("from_state") == "confirm" and r["event"] == "transition"
    )
    assert row.get("sandwich_checkpoint_id") == at["sandwich_checkpoint_id"], row
    assert row.get("paths_count", {}).get("total") == len(PARTIAL_PATHS), row


def test_a_full_rollback_restores_every_changed_file_even_past_the_list_limit(
    repo: Path,
) -> None:
    """A level-4 rollback of 50 changed files restores all 50 (the run context trims long
    lists for display; the restore must not use the trimmed list)."""
    names = [f"src/mod/f{i:02d}.py" for i in range(50)]
    agent_rewrote(repo, names)
    run = start(repo)
    assert len(stored_option(repo, run, 4)["affected_paths"]) == 50
    at = choose(repo, run, 4)
    done = ok_json(confirm(repo, at))
    left = [ln for ln in git(repo, "status", "--porcelain").splitlines() if ln]
    assert left == [], f"{len(left)} of 50 files were not restored"
    assert done["changed_files"] == 50
    assert len(at["paths"]) == 50


def test_a_file_too_large_for_the_sandwich_is_left_alone_not_reconfirmed_forever(
    repo: Path,
) -> None:
    """An untracked file that grew past the size cap after the checkpoint cannot be held
    by the sandwich, so restoring it could not be undone: the restore leaves it alone and
    says why (it used to count as "edited after the sandwich" on every confirmation)."""
    cap = "recovery:\n  checkpoints:\n    untracked_size_cap_mb: 0.01\n"
    write(repo, ".vibflow/policy.yaml", cap)
    write(repo, "src/mod.py", "orig\n")
    commit_all(repo)
    write(repo, "notes/log.txt", "small\n")  # untracked: the checkpoint holds it
    ok_json(vf(repo, "checkpoint", "create", "--json"))
    time.sleep(0.05)
    write(repo, "src/mod.py", "agent\n")
    write(repo, "notes/log.txt", "x" * 20_000)
    at = to_confirm(repo, 4)
    assert "notes/log.txt" in at["paths"]
    done = ok_json(confirm(repo, at))
    assert (done["status"], done["state"]) == ("done", "result"), done.get("post_sandwich_edits")
    assert (repo / "src/mod.py").read_text(encoding="utf-8") == "orig\n"
    assert (repo / "notes/log.txt").read_text(encoding="utf-8") == "x" * 20_000
    why = {s["path"]: s["why"] for s in done["result"]["skipped"]}
    assert "too large for the safety checkpoint" in why["notes/log.txt"]


# -- a file edited after the sandwich --------------------------------------------------------


def test_an_edit_after_the_sandwich_needs_a_second_confirmation(repo: Path) -> None:
    """Editing a to-be-restored file after the sandwich sends the run back: a new sandwich
    that holds the edit, the run waits at confirm again, and the second confirm finishes."""
    drifted(repo)
    at = to_confirm(repo)
    first_sandwich = at["sandwich_checkpoint_id"]
    late_edit = "shop:\n  currency: GBP  # edited by hand after the sandwich\n"
    write(repo, "config.yaml", late_edit)
    back = ok_json(confirm(repo, at))
    assert (back["status"], back["state"]) == ("waiting", "confirm"), back.get("result")
    second = back["sandwich_checkpoint_id"]
    assert second != first_sandwich
    assert (repo / "config.yaml").read_text(encoding="utf-8") == late_edit
    assert show_blob(repo, checkpoint_commit(repo, second), "config.yaml") == late_edit
    assert back["confirmation_expected"] == at["confirmation_expected"]
    done = ok_json(confirm(repo, back))
    assert (done["status"], done["state"]) == ("done", "result")
    assert (repo / "config.yaml").read_text(encoding="utf-8") == APP["config.yaml"]
    assert done["sandwich_checkpoint_id"] == second
    assert ok_json(vf(repo, "audit", "verify", "--json"))["ok"] is True


def test_an_edit_after_the_sandwich_is_reported_by_name(repo: Path) -> None:
    """When the run comes back to confirm because of a post-sandwich edit, its JSON names
    the edited file in post_sandwich_edits (spec: the edit is reported)."""
    drifted(repo)
    at = to_confirm(repo)
    write(repo, "config.yaml", "shop:\n  currency: GBP\n")
    back = ok_json(confirm(repo, at))
    assert back["state"] == "confirm"
    assert back["post_sandwich_edits"] == ["config.yaml"], back["post_sandwich_edits"]
