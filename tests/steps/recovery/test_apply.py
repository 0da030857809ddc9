"""The guarded apply of the recover flow, through the real CLI on real git repositories.

Pins P0 gate 1 and the Appendix D apply rows — every refusal (no flag, wrong
token, no sandwich, changed or out-of-root paths, a ``feature_enabled`` input)
exits 3 (or 2 for bad input), writes nothing and leaves a ``guard_refused``
audit row; the trusted-shape verifier rejects a project copy of
``recover.yaml`` missing any apply guard or bypassing the sandwich — and what a
confirmed restore does: the drift files' content and mode come back, in-scope
edits stay, new files go only when the preview listed their deletion, the
sandwich is kept and can undo the restore, the result says what to verify
next, a file edited after the sandwich needs a second confirmation, and
symlinks, submodules and non-ASCII names are handled without leaving the
project.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from vibflow_testing import ROOT
from vibflow_testing.cli import as_json, vf
from vibflow_testing.git import git
from vibflow_testing.repo import write

from vibflow.steps.checkpoints import restore
from vibflow.steps.recovery.lease import LeaseFile
from vibflow.steps.workspace.git import Git

APPLY = {"VIBFLOW_RECOVERY_APPLY": "1"}
RECOVER_YAML = ROOT / "flows" / "recover.yaml"
APPLY_GUARD_LINES = [
    "- confirmation_matches",
    "- {feature_flag: RECOVERY_APPLY}",
    "- {grant: recovery_apply}",
    "- lock_acquired",
    "- sandwich_present",
    "- paths_valid",
]

APP = {
    "src/ui/login.py": "def render():\n    return '<form>'\n",
    "src/services/auth.py": "def check(user, password):\n    return len(password) >= 12\n",
    "config.yaml": "shop:\n  currency: EUR\n",
    "bin/deploy.sh": "#!/bin/sh\necho deploy\n",
    "docs/guide.md": "# Guide\n",
}
DRIFT = {  # what the simulated agent leaves behind (outside the login-form intent)
    "src/services/auth.py": "def check(user, password):\n    return True\n",
    "config.yaml": "shop:\n  currency: USD\n",
    "bin/deploy.sh": "#!/bin/sh\necho deploy --force\n",
}
IN_SCOPE_EDIT = "def render():\n    return '<form aria-label=\"login\">'\n"
NEW_FILE = "src/services/extra.py"
PARTIAL_PATHS = sorted(
    ["bin/deploy.sh", "config.yaml", "docs/guide.md", NEW_FILE, "src/services/auth.py"]
)


# -- helpers ------------------------------------------------------------------------------


def ok_json(proc: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert proc.returncode == 0, (proc.returncode, proc.stdout[-2000:], proc.stderr)
    return as_json(proc)


def commit_all(root: Path, message: str = "app") -> None:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)


def tree_state(root: Path) -> dict[str, tuple[str, str]]:
    """Every work-tree path outside .git/.vibflow → (kind+mode, content or link hash)."""
    out: dict[str, tuple[str, str]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in (".git", ".vibflow")]
        for name in filenames + [d for d in dirnames if Path(dirpath, d).is_symlink()]:
            path = Path(dirpath, name)
            rel = path.relative_to(root).as_posix()
            st = path.lstat()
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", str(path.readlink()))
            else:
                kind = "exec" if st.st_mode & stat.S_IXUSR else "file"
                out[rel] = (kind, hashlib.sha256(path.read_bytes()).hexdigest())
    return out


def audit_rows(root: Path) -> list[dict[str, Any]]:
    path = root / ".vibflow" / "audit.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def run_rows(root: Path, run_id: str) -> list[dict[str, Any]]:
    return [r for r in audit_rows(root) if r.get("run_id") == run_id]


def checkpoint_commit(root: Path, checkpoint_id: str) -> str:
    return ok_json(vf(root, "checkpoint", "show", checkpoint_id, "--json"))["commit"]


def show_blob(root: Path, commit: str, rel: str) -> str:
    return git(root, "show", f"{commit}:{rel}")


def drifted(repo: Path) -> str:
    """The app committed, memory on the login form (plus a verification covering auth), a
    checkpoint; then an agent edits the form (in scope), loosens auth, changes config,
    changes deploy.sh and drops its +x, deletes the guide and adds a service file.
    Returns the checkpoint id."""
    for rel, text in APP.items():
        write(repo, rel, text)
    (repo / "bin/deploy.sh").chmod(0o755)
    commit_all(repo)
    for args in (
        ("memory", "intent", "Make the login form accessible", "--yes"),
        ("memory", "relevant", "src/ui/login.py", "the login form", "--yes"),
        (
            "memory",
            "verify",
            "pytest tests/test_auth.py",
            "--result",
            "pass",
            "--files",
            "src/services/auth.py",
        ),
    ):
        proc = vf(repo, *args)
        assert proc.returncode == 0, proc.stderr
    ckpt = ok_json(vf(repo, "checkpoint", "create", "--json"))["checkpoint_id"]
    time.sleep(0.05)
    write(repo, "src/ui/login.py", IN_SCOPE_EDIT)
    for rel, text in DRIFT.items():
        write(repo, rel, text)
    (repo / "bin/deploy.sh").chmod(0o644)
    (repo / "docs/guide.md").unlink()
    write(repo, NEW_FILE, "def extra():\n    return 1\n")
    return ckpt


def start(root: Path) -> dict[str, Any]:
    """`vibflow run recover --json` with apply enabled: waits at choose."""
    run = ok_json(vf(root, "run", "recover", "--json", env=APPLY))
    assert (run["status"], run["state"]) == ("waiting", "choose"), run
    return run


def option(run: dict[str, Any], level: int) -> dict[str, Any]:
    return next(o for o in run["plan"]["options"] if o["level"] == level)


def choose(root: Path, run: dict[str, Any], level: int, *extra: str) -> dict[str, Any]:
    """Choose the option of ``level``: the run takes its sandwich and waits at confirm."""
    opt = option(run, level)
    assert opt["blocked_reason"] is None, opt
    at = ok_json(
        vf(
            root,
            "step",
            run["run_id"],
            "choose",
            "--input",
            f"option={opt['option_id']}",
            *extra,
            "--json",
            env=APPLY,
        )
    )
    assert (at["status"], at["state"]) == ("waiting", "confirm"), at
    return at


def to_confirm(root: Path, level: int = 3) -> dict[str, Any]:
    return choose(root, start(root), level)


def confirm(
    root: Path, at: dict[str, Any], *extra: str, env: dict[str, str] | None = APPLY
) -> subprocess.CompletedProcess[str]:
    return vf(
        root,
        "step",
        at["run_id"],
        "confirm",
        "--input",
        f"confirmation={at['confirmation_expected']}",
        *extra,
        "--json",
        env=env,
    )


def run_show(root: Path, run_id: str) -> dict[str, Any]:
    return ok_json(vf(root, "runs", "show", run_id, "--json"))


def assert_refused(
    root: Path,
    proc: subprocess.CompletedProcess[str],
    before: dict[str, tuple[str, str]],
    run_id: str,
    guard: str,
) -> dict[str, Any]:
    """Exit 3, the run blocked at confirm, no file changed, a guard_refused audit row naming
    ``guard`` and no lease left behind."""
    assert proc.returncode == 3, (proc.returncode, proc.stdout[-1500:], proc.stderr)
    data = as_json(proc)
    assert (data["status"], data["state"]) == ("blocked", "confirm")
    assert data["blocked_reason"]
    assert "changed_files" not in data
    assert tree_state(root) == before
    refusals = [r for r in run_rows(root, run_id) if r["event"] == "guard_refused"]
    assert refusals, "no guard_refused audit row"
    assert refusals[-1]["guard"] == guard
    assert refusals[-1]["result"] == "refused"
    assert not (root / ".vibflow" / "recovery" / "lease.json").exists()
    return data


# -- refusals (P0 gate 1, Appendix D) -------------------------------------------------------


def test_apply_without_the_flag_is_refused_and_writes_nothing(repo: Path) -> None:
    """Confirming with the right text but without VIBFLOW_RECOVERY_APPLY exits 3, changes no
    file and records a guard_refused row for feature_flag."""
    drifted(repo)
    at = to_confirm(repo)
    before = tree_state(repo)
    data = assert_refused(repo, confirm(repo, at, env=None), before, at["run_id"], "feature_flag")
    assert "VIBFLOW_RECOVERY_APPLY" in data["blocked_reason"]


def test_apply_with_a_wrong_token_is_refused(repo: Path) -> None:
    """A confirmation that is not exactly `APPLY <checkpoint_id>` exits 3 and writes nothing,
    with a guard_refused row for confirmation_matches."""
    ckpt = drifted(repo)
    at = to_confirm(repo)
    assert at["confirmation_expected"] == f"APPLY {ckpt}"
    before = tree_state(repo)
    for wrong in ("APPLY", f"APPLY {ckpt[:-1]}", f"apply {ckpt}", "yes"):
        proc = vf(
            repo,
            "step",
            at["run_id"],
            "confirm",
            "--input",
            f"confirmation={wrong}",
            "--json",
            env=APPLY,
        )
        assert_refused(repo, proc, before, at["run_id"], "confirmation_matches")


def test_apply_without_the_sandwich_is_refused(repo: Path) -> None:
    """With the sandwich checkpoint's ref deleted before confirming, sandwich_present refuses
    (exit 3), nothing is written and the lease taken by the earlier guard is released."""
    drifted(repo)
    at = to_confirm(repo)
    git(repo, "update-ref", "-d", f"refs/vibflow/checkpoints/{at['sandwich_checkpoint_id']}")
    before = tree_state(repo)
    data = assert_refused(repo, confirm(repo, at), before, at["run_id"], "sandwich_present")
    assert "safety checkpoint" in data["blocked_reason"]


def test_apply_with_paths_other_than_the_previewed_ones_is_refused(repo: Path) -> None:
    """Confirming a subset, a superset or another path list than the previewed one exits 3
    with paths_valid refusing, and nothing is written."""
    drifted(repo)
    at = to_confirm(repo)
    assert sorted(at["paths"]) == PARTIAL_PATHS
    before = tree_state(repo)
    for paths in ("config.yaml", ",".join([*PARTIAL_PATHS, "src/ui/login.py"]), "README.md"):
        proc = confirm(repo, at, "--input", f"paths={paths}")
        data = assert_refused(repo, proc, before, at["run_id"], "paths_valid")
        assert "previewed" in data["blocked_reason"]


def test_an_out_of_root_path_is_refused_without_echoing_it(repo: Path, tmp_path: Path) -> None:
    """An absolute or ../ path outside the project, given at choose (one run) or at confirm
    (another run), is refused with exit 3; the outside file is untouched and neither the
    output, the runs nor the audit echo the path."""
    drifted(repo)
    outside = tmp_path / "outside-secret-dir" / "victim.txt"
    write(outside.parent, outside.name, "keep me\n")
    bad = f"paths={outside},../outside-secret-dir/victim.txt"
    run = start(repo)
    at_choose = vf(
        repo,
        "step",
        run["run_id"],
        "choose",
        "--input",
        f"option={option(run, 3)['option_id']}",
        "--input",
        bad,
        "--json",
        env=APPLY,
    )
    assert at_choose.returncode == 3, at_choose.stdout[-800:]
    assert as_json(at_choose)["state"] == "choose"
    at = to_confirm(repo)
    before = tree_state(repo)
    proc = confirm(repo, at, "--input", bad)
    assert_refused(repo, proc, before, at["run_id"], "paths_valid")
    shown = (
        at_choose.stdout
        + at_choose.stderr
        + proc.stdout
        + proc.stderr
        + json.dumps(run_show(repo, run["run_id"]))
        + json.dumps(run_show(repo, at["run_id"]))
        + (repo / ".vibflow" / "audit.jsonl").read_text(encoding="utf-8")
    )
    assert "outside-secret-dir" not in shown
    assert str(tmp_path) not in shown
    assert outside.read_text(encoding="utf-8") == "keep me\n"


def test_paths_refused_at_choose_never_reach_the_restore(repo: Path) -> None:
    """After `choose` is refused for paths outside the option (the in-scope login form),
    choosing the option plainly previews and restores only the option's paths: the refused
    input does not linger in the run and the in-scope edit survives."""
    drifted(repo)
    run = start(repo)
    opt = option(run, 3)
    refused = vf(
        repo,
        "step",
        run["run_id"],
        "choose",
        "--input",
        f"option={opt['option_id']}",
        "--input",
        "paths=src/ui/login.py",
        "--json",
        env=APPLY,
    )
    assert refused.returncode == 3
    at = choose(repo, run, 3)
    assert sorted(at["paths"]) == sorted(opt["affected_paths"]), at["paths"]
    done = ok_json(confirm(repo, at))
    assert done["status"] == "done"
    assert (repo / "src/ui/login.py").read_text(encoding="utf-8") == IN_SCOPE_EDIT


def test_a_feature_enabled_input_is_never_obeyed(repo: Path) -> None:
    """`--input feature_enabled=true` without the environment flag never turns the apply on:
    the command does not exit 0, nothing is written and the run still waits to confirm."""
    drifted(repo)
    at = to_confirm(repo)
    before = tree_state(repo)
    for env in (None, {"VIBFLOW_RECOVERY_APPLY": "0"}):
        proc = confirm(repo, at, "--input", "feature_enabled=true", env=env)
        assert proc.returncode in (2, 3), (proc.returncode, proc.stdout[-800:])
        assert tree_state(repo) == before
    shown = run_show(repo, at["run_id"])
    assert shown["state"] == "confirm"
    assert shown["status"] in ("waiting", "blocked")
    assert not [
        r
        for r in run_rows(repo, at["run_id"])
        if r.get("to_state") == "apply" and r["event"] == "transition"
    ]


def test_blocked_runs_exit_3_and_never_0(repo: Path) -> None:
    """A run blocked at confirm exits 3 again on `vibflow resume` and on a second confirm
    without the flag; nothing is written until the flag is set."""
    drifted(repo)
    at = to_confirm(repo)
    before = tree_state(repo)
    assert confirm(repo, at, env=None).returncode == 3
    again = vf(repo, "resume", at["run_id"], "--json")
    assert again.returncode == 3, (again.returncode, again.stdout[-800:])
    assert confirm(repo, at, env=None).returncode == 3
    assert vf(repo, "resume", "--json").returncode != 0
    assert tree_state(repo) == before
    assert run_show(repo, at["run_id"])["status"] == "blocked"


@pytest.mark.parametrize("guard_line", APPLY_GUARD_LINES)
def test_a_recover_copy_without_an_apply_guard_does_not_load(repo: Path, guard_line: str) -> None:
    """A `.vibflow/flows/recover.yaml` with one of the six apply guards removed is rejected
    before anything runs: `vibflow run recover` exits 2 with file:line:col."""
    drifted(repo)
    text = RECOVER_YAML.read_text(encoding="utf-8")
    assert text.count(guard_line) == 1
    edited = "".join(ln for ln in text.splitlines(keepends=True) if ln.strip() != guard_line)
    write(repo, ".vibflow/flows/recover.yaml", edited)
    before = tree_state(repo)
    proc = vf(repo, "run", "recover", "--json", env=APPLY)
    assert proc.returncode == 2, (proc.returncode, proc.stdout[-800:], proc.stderr)
    err = as_json(proc)["error"]
    assert err["location"].startswith(".vibflow/flows/recover.yaml:")
    line, col = err["location"].rsplit(":", 2)[1:]
    assert line.isdigit()
    assert col.isdigit()
    assert "apply" in err["message"]
    human = vf(repo, "run", "recover", env=APPLY)
    assert human.returncode == 2
    assert f"{err['location']}:" in human.stderr
    assert tree_state(repo) == before
    assert not (repo / ".vibflow" / "runs.db").exists() or not [
        r for r in audit_rows(repo) if r.get("flow") == "recover"
    ]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("on: {done: confirm}", "on: {done: apply}"),  # sandwich straight into apply
        ("restore: sandwich}", "restore: confirm}"),  # confirm without a sandwich first
    ],
    ids=["sandwich-to-apply", "route-to-confirm"],
)
def test_a_recover_copy_bypassing_the_sandwich_does_not_load(
    repo: Path, old: str, new: str
) -> None:
    """A project copy of recover.yaml that reaches apply without the sandwich → confirm
    order is rejected (exit 2, file:line:col); `flows validate` names the rule."""
    text = RECOVER_YAML.read_text(encoding="utf-8")
    assert text.count(old) == 1
    write(repo, ".vibflow/flows/recover.yaml", text.replace(old, new))
    proc = vf(repo, "run", "recover", "--json", env=APPLY)
    assert proc.returncode == 2, (proc.returncode, proc.stdout[-800:])
    assert as_json(proc)["error"]["location"].startswith(".vibflow/flows/recover.yaml:")
    check = vf(repo, "flows", "validate", ".vibflow/flows/recover.yaml")
    assert check.returncode == 2
    assert "apply" in check.stdout + check.stderr
    assert "sandwich" in check.stdout + check.stderr or "confirmation wait" in (
        check.stdout + check.stderr
    )


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


def test_a_new_file_is_deleted_only_when_the_preview_listed_its_deletion(repo: Path) -> None:
    """A file absent from the checkpoint that the option did not list under `deletes` (it
    was committed after the checkpoint) is kept and reported as skipped with why."""
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
    run = start(repo)
    opt = option(run, 3)
    assert "src/services/new_api.py" in opt["affected_paths"]
    assert opt["deletes"] == []
    done = ok_json(confirm(repo, choose(repo, run, 3)))
    assert done["status"] == "done"
    assert (repo / "src/services/new_api.py").read_text(encoding="utf-8") == "v2\n"
    assert (repo / "src/services/auth.py").read_text(encoding="utf-8") == APP[
        "src/services/auth.py"
    ]
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
    for rel in names:
        write(repo, rel, f"orig {rel}\n")
    commit_all(repo)
    ok_json(vf(repo, "checkpoint", "create", "--json"))
    time.sleep(0.05)
    for rel in names:
        write(repo, rel, f"agent {rel}\n")
    run = start(repo)
    assert (
        len(option(run, 4)["affected_paths"]) + option(run, 4).get("affected_paths_truncated", 0)
        == 50
    )
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


# -- symlinks, submodules, names ------------------------------------------------------------


def _links_and_names(repo: Path) -> str:
    """A checkpoint holding an inside link, an outside link and non-ASCII names; then an
    agent replaces both links with plain files and edits the non-ASCII files."""
    write(repo, "src/ui/login.py", APP["src/ui/login.py"])
    write(repo, "lib/auth.py", "real\n")
    write(repo, "lib/café.py", "crème brûlée\n")
    write(repo, "lib/データ 2.txt", "日本語\n")
    (repo / "lib/link_in").symlink_to("auth.py")
    (repo / "lib/link_out").symlink_to("/etc/hostname")
    (repo / "lib/link_up").symlink_to("../../outside")
    commit_all(repo)
    assert vf(repo, "memory", "relevant", "src/ui/login.py", "the form", "--yes").returncode == 0
    ckpt = ok_json(vf(repo, "checkpoint", "create", "--json"))["checkpoint_id"]
    time.sleep(0.05)
    for link in ("link_in", "link_out", "link_up"):
        (repo / "lib" / link).unlink()
        write(repo, f"lib/{link}", "plain file now\n")
    write(repo, "lib/café.py", "changed\n")
    write(repo, "lib/データ 2.txt", "changed\n")
    return ckpt


def test_symlinks_are_recreated_only_inside_the_project(repo: Path) -> None:
    """A checkpoint link pointing inside is recreated as a link; links pointing outside
    (absolute or ../..) are not recreated and are reported as skipped."""
    _links_and_names(repo)
    done = ok_json(confirm(repo, to_confirm(repo)))
    assert done["status"] == "done"
    assert (repo / "lib/link_in").is_symlink()
    assert str((repo / "lib/link_in").readlink()) == "auth.py"
    for link in ("link_out", "link_up"):
        assert not (repo / "lib" / link).is_symlink()
        assert (repo / "lib" / link).read_text(encoding="utf-8") == "plain file now\n"
    skipped = {s["path"]: s["why"] for s in done["result"]["skipped"]}
    assert set(skipped) == {"lib/link_out", "lib/link_up"}
    assert all("outside" in why for why in skipped.values())


def test_non_ascii_names_are_restored_exactly(repo: Path) -> None:
    """Files with non-ASCII (and space) names come back byte for byte under the same
    (NFC) name, with no stray sibling created."""
    _links_and_names(repo)
    before = sorted(p.name for p in (repo / "lib").iterdir())
    done = ok_json(confirm(repo, to_confirm(repo)))
    assert done["status"] == "done"
    assert (repo / "lib/café.py").read_bytes() == "crème brûlée\n".encode()
    assert (repo / "lib/データ 2.txt").read_bytes() == "日本語\n".encode()
    assert sorted(p.name for p in (repo / "lib").iterdir()) == before


def _with_submodule(repo: Path, tmp_path: Path) -> None:
    lib = tmp_path / "libsrc"
    lib.mkdir()
    git(lib, "init", "-q", "-b", "main")
    git(lib, "config", "user.email", "dev@example.invalid")
    git(lib, "config", "user.name", "Dev")
    write(lib, "lib.py", "v1\n")
    commit_all(lib, "lib")
    write(repo, "src/ui/login.py", APP["src/ui/login.py"])
    write(repo, "src/services/auth.py", APP["src/services/auth.py"])
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib), "vendor/lib")
    commit_all(repo)
    assert vf(repo, "memory", "relevant", "src/ui/login.py", "the form", "--yes").returncode == 0
    ok_json(vf(repo, "checkpoint", "create", "--json"))
    time.sleep(0.05)
    sub = repo / "vendor/lib"
    git(sub, "config", "user.email", "dev@example.invalid")
    git(sub, "config", "user.name", "Dev")
    write(sub, "added.py", "new\n")
    commit_all(sub, "agent moves the submodule")
    write(repo, "src/services/auth.py", "loosened\n")


def test_a_submodule_is_skipped_and_the_restore_finishes(repo: Path, tmp_path: Path) -> None:
    """A full rollback whose paths include a submodule restores the other files, leaves
    the submodule's checkout alone, reports it as skipped and ends done (one confirm)."""
    _with_submodule(repo, tmp_path)
    sub_head = git(repo / "vendor/lib", "rev-parse", "HEAD")
    run = start(repo)
    assert "vendor/lib" in option(run, 4)["affected_paths"]
    done = ok_json(confirm(repo, choose(repo, run, 4)))
    assert (done["status"], done["state"]) == ("done", "result"), (
        done["status"],
        done["state"],
        done.get("post_sandwich_edits"),
    )
    assert (repo / "src/services/auth.py").read_text(encoding="utf-8") == APP[
        "src/services/auth.py"
    ]
    assert git(repo / "vendor/lib", "rev-parse", "HEAD") == sub_head
    assert (repo / "vendor/lib/added.py").exists()
    assert [s["path"] for s in done["result"]["skipped"]] == ["vendor/lib"]


def test_the_restore_module_skips_submodules_and_never_writes_them(
    repo: Path, tmp_path: Path
) -> None:
    """restore.plan marks a gitlink entry as a skip with a reason, and restore.write leaves
    the submodule folder untouched."""
    _with_submodule(repo, tmp_path)
    g = Git(repo)
    head = git(repo, "rev-parse", "HEAD").strip()
    items = restore.plan(g, head, ["vendor/lib"])
    assert [(i.path, i.action) for i in items] == [("vendor/lib", "skip")]
    assert "submodule" in (items[0].reason or "")
    lease = LeaseFile(repo / ".vibflow" / "recovery").acquire("op_sub")
    listing = sorted(p.name for p in (repo / "vendor/lib").iterdir())
    assert restore.write(repo, items[0], None, lease.commit) == "skipped: " + items[0].reason
    assert sorted(p.name for p in (repo / "vendor/lib").iterdir()) == listing
    lease.release()
