"""Undo, checkpoint restore and the last commit as a safe point, through the real CLI.

``vibflow undo`` and ``vibflow checkpoint restore`` run the ``undo`` and ``restore``
flows: the recover flow's sandwich, confirmation guards, apply and result. Each test
drives them with ``VIBFLOW_RECOVERY_APPLY=1`` on a real git repository and compares the
whole work tree byte for byte (content and mode) at each step: a restore undone, and
the undo undone; a subset restored from a checkpoint; a restore from the last commit
when no checkpoint exists. The run helpers are ``vibflow_testing.apply``'s.
"""

from __future__ import annotations

import hashlib
import re
import signal
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from vibflow_testing.apply import (
    APP,
    APPLY,
    DRIFT,
    IN_SCOPE_EDIT,
    NEW_FILE,
    choose,
    commit_all,
    confirm,
    drifted,
    ok_json,
    option,
    start,
    stored_option,
    to_confirm,
    tree_state,
)
from vibflow_testing.cli import as_json, vf
from vibflow_testing.git import git
from vibflow_testing.repo import write

from vibflow.steps.recovery.lease import LeaseFile

pytestmark = pytest.mark.cli  # every test here spawns the CLI


def confirm_run(root: Path, at: dict[str, Any]) -> dict[str, Any]:
    """Send the confirmation the run asks for; the run must end done."""
    done = ok_json(confirm(root, at))
    assert (done["status"], done["state"]) == ("done", "result"), done
    return done


def undo(root: Path, *args: str) -> dict[str, Any]:
    """`vibflow undo [RUN] --json`: the undo run, waiting at its confirmation."""
    at = ok_json(vf(root, "undo", *args, "--json", env=APPLY))
    assert (at["flow"], at["status"], at["state"]) == ("undo", "waiting", "confirm"), at
    return at


# -- undo ---------------------------------------------------------------------------------


def test_restore_then_undo_then_undo_of_the_undo(repo: Path) -> None:
    """A partial restore, its undo and the undo of that undo each leave exactly the tree
    from before them, byte for byte: the undo puts back the drift (the deleted file goes
    again, the new file comes back) and undoing the undo restores the restored tree. Each
    result names `vibflow undo RUN`, and each undo takes its own sandwich."""
    drifted(repo)
    drift_tree = tree_state(repo)
    at = to_confirm(repo, 3)
    first = confirm_run(repo, at)
    restored_tree = tree_state(repo)
    assert restored_tree != drift_tree
    assert first["result"]["undo_command"] == f"vibflow undo {at['run_id']}"
    assert f"`vibflow undo {at['run_id']}`" in first["result"]["undo"]

    back = undo(repo)
    shown = back["restore"]
    assert shown["undoes"] == at["run_id"]
    assert shown["from_checkpoint"] == first["sandwich_checkpoint_id"]
    assert shown["writes"] == ["bin/deploy.sh", "config.yaml", "src/services/auth.py", NEW_FILE]
    assert shown["deletes"] == ["docs/guide.md"]  # restored by the restore: not there before
    assert back["confirmation_expected"] == f"APPLY {first['sandwich_checkpoint_id']}"
    undone = confirm_run(repo, back)
    assert tree_state(repo) == drift_tree
    assert undone["changed_files"] == 5
    assert undone["sandwich_checkpoint_id"] not in (first["sandwich_checkpoint_id"], None)
    assert undone["result"]["undo_command"] == f"vibflow undo {back['run_id']}"

    again = undo(repo)  # the latest restore is the undo itself
    assert again["restore"]["undoes"] == back["run_id"]
    confirm_run(repo, again)
    assert tree_state(repo) == restored_tree
    assert (repo / "src/ui/login.py").read_text(encoding="utf-8") == IN_SCOPE_EDIT


def test_undo_of_a_named_run_and_bad_runs(repo: Path) -> None:
    """`vibflow undo RUN` undoes that run; a run that is not a restore, an unknown id and a
    project without restores are bad input (exit 2) with a message, never a traceback."""
    nothing = vf(repo, "undo", env=APPLY)
    assert nothing.returncode == 2, nothing.stderr
    assert "no finished restore to undo" in nothing.stderr
    drifted(repo)
    drift_tree = tree_state(repo)
    waiting = start(repo)  # a recover run that never restores
    at = to_confirm(repo, 3)
    confirm_run(repo, at)
    not_restore = vf(repo, "undo", waiting["run_id"], env=APPLY)
    assert not_restore.returncode == 2
    assert "nothing to undo" in not_restore.stderr or "not a restore" in not_restore.stderr
    unknown = vf(repo, "undo", "run_" + "0" * 32, env=APPLY)
    assert unknown.returncode == 2
    garbage = vf(repo, "undo", "../../etc/passwd", env=APPLY)
    assert garbage.returncode == 2
    assert "Traceback" not in garbage.stderr
    confirm_run(repo, undo(repo, at["run_id"]))
    assert tree_state(repo) == drift_tree


# -- checkpoint restore --------------------------------------------------------------------


def test_checkpoint_restore_of_a_subset_changes_only_those_files(repo: Path) -> None:
    """`vibflow checkpoint restore CKPT PATH...` previews only the named files (one to
    write, one to delete), restores exactly them after the confirmation and leaves every
    other drifted file as it was; `vibflow undo` then brings the drift back."""
    ckpt = drifted(repo)
    before = tree_state(repo)
    at = ok_json(
        vf(
            repo,
            "checkpoint",
            "restore",
            ckpt,
            "config.yaml",
            NEW_FILE,
            "--json",
            env=APPLY,
        )
    )
    assert (at["flow"], at["status"], at["state"]) == ("restore", "waiting", "confirm"), at
    assert at["restore"]["writes"] == ["config.yaml"]
    assert at["restore"]["deletes"] == [NEW_FILE]
    assert at["confirmation_expected"] == f"APPLY {ckpt}"
    done = confirm_run(repo, at)
    assert done["changed_files"] == 2
    expected = dict(before)
    del expected[NEW_FILE]
    expected["config.yaml"] = ("file", _sha(APP["config.yaml"]))
    assert tree_state(repo) == expected
    confirm_run(repo, undo(repo))
    assert tree_state(repo) == before


def test_the_restore_flow_takes_paths_as_a_comma_separated_input(repo: Path) -> None:
    """`vibflow run restore --input checkpoint=CKPT --input paths=a,b` previews the same
    files as `checkpoint restore CKPT a b`."""
    ckpt = drifted(repo)
    at = ok_json(
        vf(
            repo,
            "run",
            "restore",
            "--input",
            f"checkpoint={ckpt}",
            "--input",
            f"paths=config.yaml,{NEW_FILE}",
            "--json",
            env=APPLY,
        )
    )
    assert (at["restore"]["writes"], at["restore"]["deletes"]) == (["config.yaml"], [NEW_FILE])


def test_checkpoint_restore_of_every_differing_file_with_confirm(repo: Path) -> None:
    """Without paths, every file that differs from the checkpoint is restored (the
    in-scope edit too); `--confirm TEXT` confirms at once; the text preview says how many
    files would be written and deleted."""
    ckpt = drifted(repo)
    text = vf(repo, "checkpoint", "restore", ckpt, env=APPLY)
    assert text.returncode == 0, text.stderr
    assert "would write 5 file(s)" in text.stdout
    assert "would delete 1 file(s)" in text.stdout
    assert f'confirmation="APPLY {ckpt}"' in text.stdout
    proc = vf(repo, "checkpoint", "restore", ckpt, "--confirm", f"APPLY {ckpt}", env=APPLY)
    assert proc.returncode == 0, proc.stderr
    assert "files modified by vibflow: 6" in proc.stdout
    assert git(repo, "status", "--porcelain") == ""


def test_checkpoint_restore_bad_input(repo: Path) -> None:
    """An unknown checkpoint, a path outside the project and a path found nowhere are bad
    input (exit 2), a wrong confirmation is refused (exit 3); nothing changes and no run
    is left waiting by the bad input."""
    ckpt = drifted(repo)
    before = tree_state(repo)
    missing = vf(repo, "checkpoint", "restore", "ckpt_" + "0" * 32, env=APPLY)
    assert missing.returncode == 2
    assert "no checkpoint" in missing.stderr
    outside = vf(repo, "checkpoint", "restore", ckpt, "../elsewhere.txt", env=APPLY)
    assert outside.returncode == 2, outside.stderr
    assert str(repo.parent) not in outside.stderr
    typo = vf(repo, "checkpoint", "restore", ckpt, "confg.yaml", env=APPLY)
    assert typo.returncode == 2
    assert "'confg.yaml' is neither in checkpoint" in typo.stderr
    assert ok_json(vf(repo, "runs", "list", "--json"))["runs"] == []
    wrong = vf(repo, "checkpoint", "restore", ckpt, "--confirm", "APPLY nope", env=APPLY)
    assert wrong.returncode == 3
    assert tree_state(repo) == before


# -- the last commit as the safe point -------------------------------------------------------


def test_without_a_checkpoint_a_full_rollback_restores_the_last_commit(repo: Path) -> None:
    """With no checkpoint, the full rollback reads the last commit: the confirmation is
    APPLY and its 8-digit abbreviated id, tracked files come back as committed, the listed untracked
    file is deleted and an untracked file outside the option stays; undo brings the drift
    back byte for byte."""
    for rel, text in APP.items():
        write(repo, rel, text)
    (repo / "bin/deploy.sh").chmod(0o755)
    commit_all(repo)
    committed = tree_state(repo)
    head = git(repo, "rev-parse", "HEAD").strip()
    for rel, text in DRIFT.items():
        write(repo, rel, text)
    (repo / "bin/deploy.sh").chmod(0o644)
    (repo / "docs/guide.md").unlink()
    write(repo, NEW_FILE, "def extra():\n    return 1\n")
    drift_tree = tree_state(repo)
    run = start(repo)
    cand = run["plan"]["safe_checkpoint_candidate"]
    assert (cand["kind"], cand["commit"]) == ("commit", head[:8])
    full = option(run, 4)
    assert "from the last commit" in full["label"]
    assert stored_option(repo, run, 4)["deletes"] == [NEW_FILE]
    at = choose(repo, run, 4)
    assert at["confirmation_expected"] == f"APPLY {head[:8]}"
    confirm_run(repo, at)
    assert tree_state(repo) == committed
    confirm_run(repo, undo(repo))
    assert tree_state(repo) == drift_tree


def test_from_the_last_commit_an_unconfirmed_untracked_file_is_kept(repo: Path) -> None:
    """Restoring a subset from the last commit that leaves the new file out keeps it, and
    the previewed paths are all the apply touches."""
    for rel, text in APP.items():
        write(repo, rel, text)
    commit_all(repo)
    write(repo, "config.yaml", DRIFT["config.yaml"])
    write(repo, NEW_FILE, "def extra():\n    return 1\n")
    run = start(repo)
    at = choose(repo, run, 4, "--input", "paths=config.yaml")
    assert at["restore"]["deletes"] == []
    confirm_run(repo, at)
    assert (repo / "config.yaml").read_text(encoding="utf-8") == APP["config.yaml"]
    assert (repo / NEW_FILE).read_text(encoding="utf-8") == "def extra():\n    return 1\n"


# -- busy ETA --------------------------------------------------------------------------------


def test_busy_eta_comes_from_the_running_restores_progress(repo: Path) -> None:
    """While another restore holds the lease (for hours) and has reported 100 of 400
    files done in 400 s, a confirm is refused with its progress and an ETA from that rate
    (about 1200 s), not from the lease's length."""
    drifted(repo)
    at = to_confirm(repo, 3)
    now = datetime.now(UTC)
    clock = iter([now - timedelta(seconds=400), now, now])
    lease_file = LeaseFile(repo / ".vibflow" / "recovery", ttl_seconds=36_000)
    held = lease_file.acquire("op_running")  # this test process: alive
    lease_file.clock = lambda: next(clock)
    held.report_progress(0, 400)
    held.report_progress(100, 400)
    try:
        proc = confirm(repo, at)
    finally:
        lease_file.clock = lambda: datetime.now(UTC)
        held.release()
    assert proc.returncode == 3, proc.stdout[-1500:]
    reason = as_json(proc)["blocked_reason"]
    assert "op_running" in reason
    assert "100 of 400 files done" in reason
    found = re.search(r"try again in about (\d+) s", reason)
    assert found is not None, reason
    assert 1000 < int(found.group(1)) <= 1200


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


# -- a crash in the apply ----------------------------------------------------------------------

CRASH_FILES = [f"src/pkg/mod_{i:02d}.py" for i in range(30)]
TEMP_GLOB = "*.vibflow-restore-*.tmp"


def temps_in(root: Path, checkpoint_id: str) -> list[str]:
    """The restore temp files a checkpoint's tree holds."""
    commit = ok_json(vf(root, "checkpoint", "show", checkpoint_id, "--json"))["commit"]
    names = git(root, "ls-tree", "-r", "--name-only", commit).splitlines()
    return [n for n in names if ".vibflow-restore-" in n]


def test_a_crash_then_a_reconfirmed_resume_names_the_first_sandwich(repo: Path) -> None:
    """A full rollback killed after its 10th file leaves temp files; `recover --explain`
    then names the interrupted restore with its resume command and counts no temp file as
    changed. A file edited before resuming sends the run back for a second sandwich,
    which holds no temp file; after the second confirmation the result names the *first*
    sandwich, so `vibflow undo` brings back the tree from before the restore."""
    for rel in CRASH_FILES:
        write(repo, rel, f"# {rel}\nVALUE = 1\n")
    commit_all(repo)
    ok_json(vf(repo, "checkpoint", "create", "--json"))
    time.sleep(0.05)
    for rel in CRASH_FILES:
        write(repo, rel, f"# {rel}\nVALUE = 'agent was here'\n")
    drift_tree = tree_state(repo)
    run = start(repo)
    at = choose(repo, run, 4)
    first = at["sandwich_checkpoint_id"]
    killed = confirm(repo, at, env={**APPLY, "VIBFLOW_CRASH_AT": "item:10"})
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    left = sorted(p.name for p in (repo / "src/pkg").glob(TEMP_GLOB))
    assert left, "the killed restore left no temp file: the test would prove nothing"

    explained = ok_json(vf(repo, "recover", "--explain", "--json", env=APPLY))
    stopped = explained["interrupted_restores"]
    assert [s["run_id"] for s in stopped] == [at["run_id"]]
    assert stopped[0]["resume_command"] == f"vibflow resume {at['run_id']}"
    assert not [c for c in explained["changed"] if ".vibflow-restore-" in c["path"]]
    text = vf(repo, "recover", "--explain", env=APPLY)
    assert "An interrupted restore exists" in text.stdout
    assert f"vibflow resume {at['run_id']}" in text.stdout

    victim = next(rel for rel in CRASH_FILES if "agent" in (repo / rel).read_text(encoding="utf-8"))
    write(repo, victim, "# edited by hand while the restore was interrupted\n")
    back = ok_json(vf(repo, "resume", at["run_id"], "--json", env=APPLY))
    assert (back["status"], back["state"]) == ("waiting", "confirm"), back
    second = back["sandwich_checkpoint_id"]
    assert second != first
    assert temps_in(repo, second) == []
    assert temps_in(repo, first) == []
    done = confirm_run(repo, back)
    assert done["result"]["sandwich_checkpoint_id"] == first
    assert done["applied"]["sandwiches"] == [first, second]
    assert first in done["result"]["undo"]
    assert not list(repo.rglob(TEMP_GLOB))

    undone = undo(repo)
    assert undone["restore"]["from_checkpoint"] == first
    confirm_run(repo, undone)
    assert tree_state(repo) == drift_tree
