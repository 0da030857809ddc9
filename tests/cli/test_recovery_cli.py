"""The ``vibflow recover`` and ``vibflow run recover`` contract, through the real CLI.

Pins the ``--json`` RecoveryPlan shape (spec §5 keys plus
``circuit_breaker_state`` and ``files_modified``), the plain-language output
(different for ``--explain`` and ``--preview``, short for large drifts,
complete with ``--all``), the count-only audit row and the redacted
``last_preview.json`` of every preview, the recover flow's wait at ``choose``
(blocked options refused with their reason, the recommended one accepted,
cancel), and ``recover feedback``'s bad-input errors.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from pathlib import Path
from typing import Any

import pytest
from vibflow_testing.cli import Cli, as_json
from vibflow_testing.git import git
from vibflow_testing.repo import write

PLAN_KEYS = {
    "plan_id",
    "mode",
    "level",
    "summary",
    "intent_zone",
    "drift_candidates",
    "options",
    "safe_checkpoint_candidate",
    "redaction",
    "circuit_breaker_state",
    "files_modified",
}
OPTION_KEYS = {
    "option_id",
    "level",
    "label",
    "affected_paths",
    "estimated_impact",
    "requires_sandwich",
    "requires_lock",
    "blocked_reason",
}
CANDIDATE_KEYS = {
    "kind",
    "checkpoint_id",
    "commit",
    "label",
    "created_at",
    "predates_change",
    "metadata_complete",
    "preview_available",
    "why",
}
PLAN_ID = re.compile(r"^rec_[0-9a-f]{32}$")
OPTION_ID = re.compile(r"^opt_[0-9a-f]{32}$")
FAKE_AWS_KEY = "AKIA" + "QX7RLM2VTB4NWZ9K"

APP = {
    "src/ui/login.py": "def render():\n    return '<form>'\n",
    "src/ui/header.py": "def header():\n    return '<h1>'\n",
    "src/services/auth.py": "def check(u, p):\n    return len(p) >= 8\n",
    "config.yaml": "shop:\n  currency: EUR\n",
}

# -- helpers ------------------------------------------------------------------------------


def set_memory(root: Path, intent: str, explicit: dict[str, str]) -> None:
    """Write ``.vibflow/memory.json`` directly (the CLI would redact the intent on save)."""
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    data = {
        "schema_version": 1,
        "active_intent": {"text": intent, "last_updated": now, "updated_by": "cli"},
        "relevant_files": [
            {"path": p, "why": w, "source": "explicit", "last_updated": now, "updated_by": "cli"}
            for p, w in explicit.items()
        ],
    }
    target = root / ".vibflow" / "memory.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(data), encoding="utf-8")


def drifted(repo: Path, cli: Cli, *, checkpoint: bool = True, intent: str = "the login") -> None:
    """The app committed, memory on the login form, a checkpoint (optional), then an agent
    edits the form (in scope), auth and config (drift) and adds a UI helper the form now
    imports (in scope by that reference; sharing the 'ui' category is no evidence)."""
    write(repo, ".vibflow/.gitignore", "*\n")
    for rel, text in APP.items():
        write(repo, rel, text)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "app")
    set_memory(repo, intent, {"src/ui/login.py": "the form"})
    if checkpoint:
        proc = cli("checkpoint", "create", "--json")
        assert proc.returncode == 0, proc.stderr
        time.sleep(0.05)
    write(repo, "src/ui/login.py", "from src.ui.helpers import label\n")
    write(repo, "src/ui/helpers.py", "new\n")
    write(repo, "src/services/auth.py", "loosened\n")
    write(repo, "config.yaml", "shop:\n  currency: USD\n")


def recover(cli: Cli, *args: str) -> dict[str, Any]:
    proc = cli("recover", *args, "--json")
    assert proc.returncode == 0, proc.stderr
    return as_json(proc)


def audit_rows(repo: Path) -> list[dict[str, Any]]:
    path = repo / ".vibflow" / "audit.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def tree_digest(root: Path) -> dict[str, str]:
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in (".git", ".vibflow")]
        for name in filenames:
            path = Path(dirpath, name)
            out[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


@pytest.fixture
def waiting_run(repo: Path, cli: Cli) -> dict[str, Any]:
    """A `vibflow run recover --json` waiting at `choose` on a drifted repo."""
    drifted(repo, cli)
    proc = cli("run", "recover", "--json")
    assert proc.returncode == 0, proc.stderr
    return as_json(proc)


# -- the JSON contract ----------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["--explain", "--preview"])
def test_json_plan_has_the_spec_shape(repo: Path, cli: Cli, mode: str) -> None:
    """The plan has every spec key, local ids, mode read_only, files_modified 0, options
    with every RecoveryOption key, a candidate with its keys, and redaction counts."""
    drifted(repo, cli)
    plan = recover(cli, mode)
    assert set(plan) >= PLAN_KEYS
    assert PLAN_ID.match(plan["plan_id"])
    assert plan["mode"] == "read_only"
    assert plan["files_modified"] == 0
    assert plan["circuit_breaker_state"] == "active"
    assert isinstance(plan["level"], int)
    assert 0 <= plan["level"] <= 4
    assert plan["summary"].strip()
    assert set(plan["redaction"]) == {"secret_hits", "privacy_hits", "summarized_fields"}
    assert all(isinstance(v, int) for v in plan["redaction"].values())
    assert plan["options"]
    for opt in plan["options"]:
        assert set(opt) >= OPTION_KEYS
        assert OPTION_ID.match(opt["option_id"])
        assert isinstance(opt["affected_paths"], list)
        assert opt["blocked_reason"] is None or opt["blocked_reason"].strip()
        assert opt["requires_sandwich"] is (opt["level"] >= 3)
    assert plan["options"][0]["recommended"] is True
    assert sum(1 for o in plan["options"] if o.get("recommended")) == 1
    assert plan["level"] == plan["options"][0]["level"]
    assert set(plan["safe_checkpoint_candidate"]) == CANDIDATE_KEYS
    for z in plan["intent_zone"]:
        assert set(z) == {"path", "source", "reason"}
    for d in plan["drift_candidates"]:
        assert set(d) == {"path", "why_outside_zone", "suggested_action", "requires_user_review"}
        assert d["requires_user_review"] is True


def test_ids_are_fresh_and_never_derived_from_memory(repo: Path, cli: Cli) -> None:
    """Two previews of the same state have different plan and option ids; an intent that
    looks like an id does not become one."""
    drifted(repo, cli, intent="rec_00000000000000000000000000000000 opt_1")
    a, b = recover(cli, "--preview"), recover(cli, "--preview")
    assert a["plan_id"] != b["plan_id"]
    assert {o["option_id"] for o in a["options"]}.isdisjoint(o["option_id"] for o in b["options"])
    assert a["plan_id"] != "rec_00000000000000000000000000000000"


def test_explain_and_preview_together_is_bad_input(cli: Cli) -> None:
    """`--explain --preview` is refused with exit 2 and no traceback."""
    proc = cli("recover", "--explain", "--preview")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr


# -- human output -----------------------------------------------------------------------------


def test_explain_and_preview_say_different_things_and_modify_nothing(repo: Path, cli: Cli) -> None:
    """Both state that no files were modified; --explain tells what happened and what is out
    of scope, --preview tells what each option would change (with its id), recommended
    first, every option listed (Full rollback included)."""
    drifted(repo, cli)
    explain = cli("recover", "--explain")
    preview = cli("recover", "--preview")
    assert explain.returncode == 0, explain.stderr
    assert preview.returncode == 0, preview.stderr
    for out in (explain.stdout, preview.stdout):
        assert "no files were modified" in out
    assert explain.stdout != preview.stdout
    assert "What happened:" in explain.stdout
    assert "please review (2)" in explain.stdout
    assert "Would change:" not in explain.stdout
    assert "Would change:" in preview.stdout
    assert "What happened:" not in preview.stdout
    numbered = [ln for ln in preview.stdout.splitlines() if re.match(r"^\d\. Level \d", ln)]
    plan = recover(cli, "--preview")
    assert len(numbered) == len(plan["options"]) == 4
    assert any("Full rollback" in ln for ln in numbered)
    assert "(recommended)" in numbered[0]
    assert len(re.findall(r"id: opt_[0-9a-f]{32}", preview.stdout)) == len(numbered)
    assert re.search(r"Plan id: rec_[0-9a-f]{32}", preview.stdout)


def _big_drift(repo: Path, cli: Cli, n: int = 500) -> list[str]:
    drifted(repo, cli)
    folders = ["scripts", "lib", "vendorish", "tools", "misc"]
    paths = [f"{folders[i % 5]}/pkg{i // 50}/file{i:03d}.py" for i in range(n - 2)]
    for rel in paths:
        write(repo, rel, "x\n")
    return [*paths, "src/services/auth.py", "config.yaml"]


def test_large_drift_stays_short_and_all_lists_everything(repo: Path, cli: Cli) -> None:
    """With 500 drift files the human output shows the top items plus 'and N more' grouped
    by folder (both --explain and --preview); --all lists every path."""
    paths = _big_drift(repo, cli)
    plan = recover(cli, "--explain")
    assert len(plan["drift_candidates"]) == 500
    explain = cli("recover", "--explain").stdout
    assert len(explain.splitlines()) <= 40
    assert "and 492 more" in explain
    assert "--all" in explain
    more = next(ln for ln in explain.splitlines() if "more" in ln and "--all" in ln)
    assert re.search(r"scripts/ 100\b", more)
    assert re.search(r"vendorish/ 100\b", more)
    preview = cli("recover", "--preview").stdout
    assert len(preview.splitlines()) <= 60
    assert "and 492 more" in preview
    full = cli("recover", "--explain", "--all").stdout
    assert all(p in full for p in paths)
    assert "more" not in full.split("please review")[1].split("Recommended")[0]
    full_preview = cli("recover", "--preview", "--all").stdout
    assert all(p in full_preview for p in paths)


# -- audit row and last_preview.json ---------------------------------------------------------


def test_every_preview_writes_one_count_only_audit_row(repo: Path, cli: Cli) -> None:
    """Each --preview adds exactly one recovery_preview row with in_zone/drift/total counts
    and the breaker state — and no path, intent or reason text."""
    drifted(repo, cli, intent="make the login form accessible")
    before = len(audit_rows(repo))
    plan = recover(cli, "--preview")
    rows = audit_rows(repo)[before:]
    assert [r["event"] for r in rows] == ["recovery_preview"]
    row = rows[0]
    counts = row["paths_count"]
    assert set(counts) == {"in_zone", "drift", "total"}
    assert counts["drift"] == len(plan["drift_candidates"]) == 2
    assert counts["total"] == 4
    assert row["circuit_breaker_state"] == "active"
    raw = json.dumps(row)
    for text in ("src/", "config.yaml", "login", "accessible", "outside"):
        assert text not in raw
    second = recover(cli, "--preview")
    rows = audit_rows(repo)[before:]
    assert [r["event"] for r in rows] == ["recovery_preview", "recovery_preview"]
    assert second["plan_id"] != plan["plan_id"]


def test_audit_counts_add_up_to_the_changed_files(repo: Path, cli: Cli) -> None:
    """paths_count separates the changed files: in_zone + drift == total, even when memory
    lists explicit files that did not change."""
    drifted(repo, cli)
    set_memory(
        repo,
        "the login",
        {"src/ui/login.py": "the form", "src/ui/header.py": "unchanged", "docs/": "unchanged"},
    )
    recover(cli, "--preview")
    counts = audit_rows(repo)[-1]["paths_count"]
    assert counts["total"] == 4
    assert counts["in_zone"] + counts["drift"] == counts["total"], counts


def test_preview_records_the_redacted_plan_as_last_preview(repo: Path, cli: Cli) -> None:
    """--preview writes .vibflow/recovery/last_preview.json with the plan just shown;
    --explain does not replace it."""
    drifted(repo, cli)
    plan = recover(cli, "--preview")
    path = repo / ".vibflow" / "recovery" / "last_preview.json"
    stored = json.loads(path.read_text(encoding="utf-8"))
    assert stored["plan"]["plan_id"] == plan["plan_id"]
    assert stored["plan"]["drift_candidates"] == plan["drift_candidates"]
    assert stored["recorded_at"]
    recover(cli, "--explain")
    assert json.loads(path.read_text(encoding="utf-8"))["plan"]["plan_id"] == plan["plan_id"]


def test_secret_in_intent_is_masked_in_json_last_preview_and_audit(repo: Path, cli: Cli) -> None:
    """A fake AWS key planted in the intent never reaches the JSON output, the human output,
    last_preview.json or the audit rail; the plan counts the secret hit."""
    drifted(repo, cli, intent=f"fix login, deploy key {FAKE_AWS_KEY} is in CI")
    proc = cli("recover", "--preview", "--json")
    assert proc.returncode == 0, proc.stderr
    assert FAKE_AWS_KEY not in proc.stdout
    plan = as_json(proc)
    assert plan["intent"].startswith("fix login, deploy key ")
    assert "REDACTED" in plan["intent"]
    assert plan["redaction"]["secret_hits"] >= 1
    stored = (repo / ".vibflow" / "recovery" / "last_preview.json").read_text(encoding="utf-8")
    assert FAKE_AWS_KEY not in stored
    assert "REDACTED" in json.loads(stored)["plan"]["intent"]
    assert FAKE_AWS_KEY not in cli("recover", "--explain").stdout
    audit = (repo / ".vibflow" / "audit.jsonl").read_text(encoding="utf-8")
    assert FAKE_AWS_KEY not in audit
    assert audit_rows(repo)[-1]["redaction"]["secret_hits"] >= 1
    run = cli("run", "recover", "--json")
    assert run.returncode == 0, run.stderr
    assert FAKE_AWS_KEY not in run.stdout


# -- the recover flow -------------------------------------------------------------------------


def test_run_waits_at_choose_with_the_plan(repo: Path, waiting_run: dict[str, Any]) -> None:
    """`vibflow run recover --json` stops at `choose` with the plan, its recommendation and
    the plan recorded as last_preview.json; the preview transition is audited with counts."""
    run = waiting_run
    assert run["status"] == "waiting"
    assert run["state"] == "choose"
    assert set(run["waiting_for"]["events"]) == {"choose", "cancel"}
    plan = run["plan"]
    assert PLAN_ID.match(plan["plan_id"])
    assert plan["files_modified"] == 0
    ids = {o["option_id"] for o in plan["options"]}
    assert run["recommended_option"] in ids
    stored = json.loads((repo / ".vibflow/recovery/last_preview.json").read_text("utf-8"))
    assert stored["plan"]["plan_id"] == plan["plan_id"]
    counted = [
        r for r in audit_rows(repo) if r.get("run_id") == run["run_id"] and "paths_count" in r
    ]
    assert len(counted) == 1
    assert counted[0]["paths_count"]["drift"] == 2
    assert counted[0]["circuit_breaker_state"] == "active"


def test_choosing_a_blocked_option_is_refused_with_its_reason(
    cli: Cli, waiting_run: dict[str, Any]
) -> None:
    """A restore option (blocked) is refused with exit 3 and its blocked_reason; the run can
    still take a runnable choice afterwards."""
    run = waiting_run
    blocked = [o for o in run["plan"]["options"] if o["blocked_reason"]]
    assert {o["level"] for o in blocked} == {3, 4}
    for opt in blocked:
        proc = cli("step", run["run_id"], "choose", "--input", f"option={opt['option_id']}")
        assert proc.returncode == 3
        assert opt["blocked_reason"] in proc.stdout + proc.stderr
    runnable = next(o for o in run["plan"]["options"] if not o["blocked_reason"])
    proc = cli(
        "step", run["run_id"], "choose", "--input", f"option={runnable['option_id']}", "--json"
    )
    assert proc.returncode == 0, proc.stderr
    assert as_json(proc)["status"] == "done"


def test_the_recommendation_stays_partial_restore_with_apply_off(
    waiting_run: dict[str, Any],
) -> None:
    """With apply off the recommended option is still the partial restore (the safest way
    back); it says why it cannot run yet — the flag never re-ranks the options."""
    best = next(o for o in waiting_run["plan"]["options"] if o["recommended"])
    assert waiting_run["recommended_option"] == best["option_id"]
    assert best["level"] == 3
    assert "VIBFLOW_RECOVERY_APPLY=1" in best["blocked_reason"]


def test_choosing_targeted_repair_finishes_and_changes_nothing(
    repo: Path, cli: Cli, waiting_run: dict[str, Any]
) -> None:
    """Choosing the targeted repair (read-only) ends the run with files_modified 0 and the
    same work tree; the result lists the files to review."""
    run = waiting_run
    repair = next(o for o in run["plan"]["options"] if o["level"] == 2)
    before = tree_digest(repo)
    proc = cli(
        "step", run["run_id"], "choose", "--input", f"option={repair['option_id']}", "--json"
    )
    assert proc.returncode == 0, proc.stderr
    done = as_json(proc)
    assert done["status"] == "done"
    assert done["result"]["chosen"] == repair["option_id"]
    assert done["result"]["files_modified"] == 0
    assert sorted(done["result"]["review"]) == ["config.yaml", "src/services/auth.py"]
    assert tree_digest(repo) == before


def test_every_runnable_option_id_is_accepted_by_choose(repo: Path, cli: Cli) -> None:
    """Each option of the waiting run's plan that is not blocked is accepted by `choose`."""
    drifted(repo, cli)
    first = as_json(cli("run", "recover", "--json"))
    runnable = [o for o in first["plan"]["options"] if not o["blocked_reason"]]
    assert {o["level"] for o in runnable} == {1, 2}
    for i, opt in enumerate(runnable):
        run = first if i == 0 else as_json(cli("run", "recover", "--json"))
        wanted = next(o for o in run["plan"]["options"] if o["level"] == opt["level"])
        proc = cli("step", run["run_id"], "choose", "--input", f"option={wanted['option_id']}")
        assert proc.returncode == 0, proc.stderr


def test_cancel_needs_no_option(repo: Path, cli: Cli, waiting_run: dict[str, Any]) -> None:
    """`cancel` ends the run without an option and without changing anything."""
    before = tree_digest(repo)
    proc = cli("step", waiting_run["run_id"], "cancel", "--json")
    assert proc.returncode == 0, proc.stderr
    done = as_json(proc)
    assert done["status"] == "done"
    assert done["result"]["chosen"] is None
    assert done["result"]["files_modified"] == 0
    assert tree_digest(repo) == before


@pytest.mark.parametrize(
    "inputs",
    [
        [],
        ["--input", "option=opt_00000000000000000000000000000000"],
        ["--input", "option=not-an-option"],
    ],
    ids=["no-option", "unknown-option", "garbage-option"],
)
def test_choose_without_a_valid_option_is_refused(
    cli: Cli, waiting_run: dict[str, Any], inputs: list[str]
) -> None:
    """`choose` with no option or one the plan does not have is refused (exit 3)."""
    proc = cli("step", waiting_run["run_id"], "choose", *inputs)
    assert proc.returncode == 3
    assert "Traceback" not in proc.stderr


def test_choose_paths_must_belong_to_the_option(cli: Cli, waiting_run: dict[str, Any]) -> None:
    """`paths=` outside the chosen option's affected paths is refused; a subset is accepted."""
    run = waiting_run
    repair = next(o for o in run["plan"]["options"] if o["level"] == 2)
    bad = cli(
        "step",
        run["run_id"],
        "choose",
        "--input",
        f"option={repair['option_id']}",
        "--input",
        "paths=src/ui/login.py",
    )
    assert bad.returncode == 3
    good = cli(
        "step",
        run["run_id"],
        "choose",
        "--input",
        f"option={repair['option_id']}",
        "--input",
        "paths=config.yaml",
    )
    assert good.returncode == 0, good.stderr


def test_non_interactive_run_prints_a_choose_command_that_works(repo: Path, cli: Cli) -> None:
    """Without a terminal `vibflow run recover` stops at `choose` and prints a `vibflow step`
    command for each option that can run — with apply on, the recommended one among them —
    each accepted as printed."""
    drifted(repo, cli)
    proc = cli("run", "recover", env={"VIBFLOW_RECOVERY_APPLY": "1"})
    assert proc.returncode == 0, proc.stderr
    last = json.loads((repo / ".vibflow/recovery/last_preview.json").read_text("utf-8"))
    best = next(o for o in last["plan"]["options"] if o.get("recommended"))
    assert f"choose --input option={best['option_id']}" in proc.stdout, proc.stdout


# -- feedback -------------------------------------------------------------------------------


def test_feedback_records_labels_on_the_latest_preview(repo: Path, cli: Cli) -> None:
    """Feedback on the latest preview's drift candidates is recorded and reports the state."""
    drifted(repo, cli)
    plan = recover(cli, "--preview")
    proc = cli(
        "recover",
        "feedback",
        plan["plan_id"],
        "--correct",
        "config.yaml",
        "--wrong",
        "src/services/auth.py",
        "--json",
    )
    assert proc.returncode == 0, proc.stderr
    state = as_json(proc)
    assert state == {
        "circuit_breaker_state": "active",
        "accuracy": None,
        "labels": 2,
        "remembered": {"src/services/auth.py": "in_scope"},
    }
    human = cli("recover", "feedback", plan["plan_id"], "--correct", "config.yaml")
    assert human.returncode == 0
    assert "active" in human.stdout
    labels = (repo / ".vibflow/recovery/drift_labels.jsonl").read_text("utf-8")
    assert "config.yaml" not in labels
    assert "auth" not in labels


@pytest.mark.parametrize(
    "case",
    ["unknown-plan", "stale-plan", "not-a-drift-path", "in-zone-path", "both", "nothing"],
)
def test_feedback_bad_input_exits_2(repo: Path, cli: Cli, case: str) -> None:
    """A plan id that is not the latest preview's, a path that was not a drift candidate,
    a path both correct and wrong, or no label at all: exit 2, a sentence, nothing recorded."""
    drifted(repo, cli)
    old = recover(cli, "--preview")
    plan = recover(cli, "--preview")
    pid = plan["plan_id"]
    args = {
        "unknown-plan": ["rec_" + "0" * 32, "--correct", "config.yaml"],
        "stale-plan": [old["plan_id"], "--correct", "config.yaml"],
        "not-a-drift-path": [pid, "--wrong", "no/such/file.py"],
        "in-zone-path": [pid, "--wrong", "src/ui/login.py"],
        "both": [pid, "--correct", "config.yaml", "--wrong", "config.yaml"],
        "nothing": [pid],
    }[case]
    proc = cli("recover", "feedback", *args)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stderr.startswith("vibflow: ")
    assert "Traceback" not in proc.stderr
    assert not (repo / ".vibflow/recovery/drift_labels.jsonl").exists()
