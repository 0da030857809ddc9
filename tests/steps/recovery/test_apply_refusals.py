"""The recover flow's apply refuses (P0 gate 1, Appendix D): no flag, wrong token, no
sandwich, changed or out-of-root paths, a ``feature_enabled`` input — each exits 3 (or 2
for bad input), writes nothing and leaves a ``guard_refused`` audit row; the
trusted-shape verifier rejects a project copy of ``recover.yaml`` missing any apply guard
or bypassing the sandwich.

The recover run is driven through the real CLI on real git repositories; the steps to
get there (``drifted``, ``start``, ``choose``, ``confirm`` ...) are in
``vibflow_testing.apply``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from vibflow_testing.apply import (
    APPLY,
    APPLY_GUARD_LINES,
    IN_SCOPE_EDIT,
    PARTIAL_PATHS,
    RECOVER_YAML,
    assert_refused,
    audit_rows,
    choose,
    confirm,
    drifted,
    ok_json,
    option,
    run_rows,
    run_show,
    start,
    stored_option,
    to_confirm,
    tree_state,
)
from vibflow_testing.cli import as_json, vf
from vibflow_testing.git import git
from vibflow_testing.repo import write

pytestmark = pytest.mark.cli  # every test here spawns the CLI

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
    assert sorted(at["paths"]) == sorted(stored_option(repo, run, 3)["affected_paths"]), at["paths"]
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
