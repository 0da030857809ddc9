"""Recaps at every pause and end; the journal store's robustness."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from vibflow_testing.cli import Cli, as_json

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.journal import Journal
from vibflow.engine.recap import Recap
from vibflow.wiring import Project


def _recap(project: Project, recap_id: str | None) -> Recap:
    assert recap_id is not None
    body = project.journal.get_recap(recap_id)
    assert body is not None
    return Recap.model_validate(body)


def _check_limits(recap: Recap) -> None:
    assert len(recap.headline) <= 80
    assert "\n" not in recap.headline
    assert 3 <= len(recap.bullets) <= 7
    assert len(recap.next_actions) <= 3
    assert all(a.startswith("vibflow ") for a in recap.next_actions)


def test_waiting_run_recap_names_the_commands_to_continue(project: Project) -> None:
    """A run that waits gets a recap whose next actions are real step commands."""
    run = project.runner.start(project.catalog.load("guarded_apply"))
    recap = _recap(project, run.recap_id)
    _check_limits(recap)
    assert recap.kind == "run"
    assert recap.subject_id == run.run_id
    assert f"vibflow step {run.run_id} restore --input option=VALUE" in recap.next_actions
    assert recap.resume_hint is not None
    assert recap.resume_hint.state == "choose"


def test_finished_run_recap_has_no_resume_hint(project: Project) -> None:
    """A done run's recap says it finished and has nothing to resume."""
    run = project.runner.start(project.catalog.load("linear"))
    recap = _recap(project, run.recap_id)
    _check_limits(recap)
    assert "finished" in recap.headline
    assert recap.resume_hint is None
    assert recap.next_actions == []


def test_blocked_and_failed_runs_get_recaps(project: Project) -> None:
    """Blocked and failed runs each get a recap that says so."""
    run = project.runner.start(project.catalog.load("guarded_apply"))
    run = project.runner.send(run.run_id, "restore", {"option": "a"})
    blocked = project.runner.send(run.run_id, "confirm", {"confirmation": "APPLY now"})
    recap = _recap(project, blocked.recap_id)
    _check_limits(recap)
    assert "blocked" in recap.headline
    assert any("VIBFLOW_TEST_APPLY" in b for b in recap.bullets)
    w = project.runner.start(project.catalog.load("waits"))
    failed = project.runner.send(w.run_id, "go", {"next": "fail", "word": "yes"})
    frecap = _recap(project, failed.recap_id)
    assert "failed" in frecap.headline


def test_recap_headline_is_clipped_to_80(project: Project, repo: Path) -> None:
    """Long blocked reasons never make a headline over 80 characters."""
    flows = repo / ".vibflow" / "flows"
    (flows / "longname.yaml").write_text(
        "flow: longname\nversion: 1\ninitial: a_very_long_state_name_that_goes_on_and_on_forever\n"
        "states:\n  a_very_long_state_name_that_goes_on_and_on_forever:\n"
        "    wait: x\n    on: {go: {target: b, guards: [{feature_flag: SOME_VERY_LONG_FLAG}]}}\n"
        "  b: {final: true}\n",
        encoding="utf-8",
    )
    run = project.runner.start(project.catalog.load("longname"))
    blocked = project.runner.send(run.run_id, "go", {})
    _check_limits(_recap(project, blocked.recap_id))


def test_recap_cli_and_resume_from_recap(cli: Cli) -> None:
    """`recap RUN --json` shows the hint; `resume --from-recap` continues that run."""
    run = as_json(cli("run", "guarded_apply", "--json"))
    rid = str(run["run_id"])
    cli("step", rid, "restore", "--input", "option=a")
    cli("step", rid, "confirm", "--input", "confirmation=APPLY now")
    recap = as_json(cli("recap", rid, "--json"))
    assert recap["resume_hint"]["run_id"] == rid
    assert recap["resume_hint"]["state"] == "confirm"
    resumed = cli("resume", "--from-recap", recap["id"], "--json", env={"VIBFLOW_TEST_APPLY": "1"})
    assert resumed.returncode == 0, resumed.stderr
    assert as_json(resumed)["status"] == "done"
    assert cli("resume", "--from-recap", "rcp_" + "0" * 32).returncode == 2


def test_project_recap_lists_open_runs_with_commands(cli: Cli) -> None:
    """`recap` with no run lists waiting/blocked runs with the command for each."""
    run = as_json(cli("run", "guarded_apply", "--json"))
    data = as_json(cli("recap", "--json"))
    assert data["kind"] == "project"
    [item] = data["open_runs"]
    assert item["run_id"] == run["run_id"]
    assert item["resume_command"].startswith(f"vibflow step {run['run_id']}")


def test_corrupt_journal_is_backed_up_not_overwritten(tmp_path: Path) -> None:
    """A runs.db that is not a database is moved aside intact and a new one started."""
    db = tmp_path / "runs.db"
    garbage = b"this is not sqlite" * 100
    db.write_bytes(garbage)
    journal = Journal(db)
    assert journal.backup is not None
    assert journal.backup.read_bytes() == garbage
    assert journal.runs() == []
    journal.close()


def test_journal_from_a_newer_vibflow_is_refused_untouched(tmp_path: Path) -> None:
    """A journal with a newer schema version is refused and left as it is."""
    db = tmp_path / "runs.db"
    con = sqlite3.connect(db)
    con.execute("PRAGMA user_version=99")
    con.execute("CREATE TABLE keep (x)")
    con.commit()
    con.close()
    before = db.read_bytes()
    with pytest.raises(VibflowError) as err:
        Journal(db)
    assert err.value.code is ErrorCode.STORE_ERROR
    assert "newer vibflow" in err.value.message
    assert db.read_bytes() == before


def test_runs_show_json_contract(cli: Cli) -> None:
    """`runs show --json` has the contract keys and transitions with from/event/to/at."""
    run = as_json(cli("run", "linear", "--json"))
    data = as_json(cli("runs", "show", str(run["run_id"]), "--json"))
    for key in ("run_id", "flow", "status", "state", "blocked_reason", "recap_id"):
        assert key in data
    assert len(data["transitions"]) == 5
    for t in data["transitions"]:
        assert {"from", "event", "to", "at"} <= set(t)
    timeline = cli("runs", "timeline", str(run["run_id"]))
    assert "one --done--> two" in timeline.stdout


def test_mermaid_marks_the_path_a_run_took(cli: Cli) -> None:
    """`flows show NAME --format mermaid --run RUN` marks visited and current states."""
    run = as_json(cli("run", "guarded_apply", "--json"))
    out = cli("flows", "show", "guarded_apply", "--format", "mermaid", "--run", str(run["run_id"]))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("stateDiagram-v2")
    assert "class choose current" in out.stdout
    assert "class preview visited" in out.stdout


def test_the_latest_recap_of_a_subject_is_found_by_index_like_the_scan(tmp_path: Path) -> None:
    """latest_recap(kind, subject=…) answers what the scan of every recap answers."""
    journal = Journal(tmp_path / "runs.db")
    rows = [
        ("rcp_a", "project", "project", "2026-01-01T10:00:00Z"),
        ("rcp_b", "run", "run_1", "2026-01-01T11:00:00Z"),
        ("rcp_c", "project", "project", "2026-01-01T12:00:00Z"),
        ("rcp_d", "project", "project", "2026-01-01T12:00:00Z"),  # same time: written last wins
        ("rcp_e", "session", "ses_1", "2026-01-01T13:00:00Z"),
    ]
    for rid, kind, subject, at in rows:
        journal.save_recap(rid, kind, subject, at, {"id": rid})
    assert journal.latest_recap("project", subject="project") == {"id": "rcp_d"}
    assert journal.latest_recap("project") == {"id": "rcp_d"}
    assert journal.latest_recap("run", subject="project") is None
    assert [b["id"] for b in journal.recaps(subject="project")] == ["rcp_d", "rcp_c", "rcp_a"]
    assert journal.latest_recap() == {"id": "rcp_e"}
    journal.close()
