"""Recaps for cross-session resume, through the real CLI in a real git repository: a
day's work shows up as facts in the project recap with exact next commands; planted
secrets, private addresses and home paths never come out; a fork of a finished restore
offers nothing already restored; the idle recap is written once per gap; a session
recap from recorded turns; `recap list/show/edit`; every `--json` recap validates
against the exported JSON Schema."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from vibflow_testing.apply import APPLY, choose, commit_all, confirm, drifted, ok_json, start
from vibflow_testing.cli import as_json, vf
from vibflow_testing.redaction import GHP

pytestmark = pytest.mark.cli


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    from vibflow.engine.recap import recap_json_schema

    return recap_json_schema()


def recap_json(repo: Path, schema: dict[str, Any], *args: str) -> dict[str, Any]:
    body = ok_json(vf(repo, "recap", *args, "--json"))
    jsonschema.validate(body, schema)
    return body


def test_a_days_work_is_stated_in_the_project_recap(repo: Path, schema: dict[str, Any]) -> None:
    """intent → the agent's edits → checkpoint → recover with a partial restore → a crash
    and a resume → commit: each is a fact in the bullets, the commands are exact."""
    drifted(repo)
    run = start(repo)
    at = choose(repo, run, 3, "--input", "paths=config.yaml", "--input", "paths=bin/deploy.sh")
    crashed = confirm(repo, at, env={**APPLY, "VIBFLOW_CRASH_AT": "item:1"})
    assert crashed.returncode != 0
    resumed = ok_json(vf(repo, "resume", at["run_id"], "--json", env=APPLY))
    assert resumed["status"] == "done"
    commit_all(repo, "accessible login form")
    body = recap_json(repo, schema)
    text = "\n".join(body["bullets"])
    assert body["kind"] == "project"
    assert body["id"].startswith("rcp_")
    assert "“Make the login form accessible”" in text
    assert "recover done" in text
    assert "interrupted 1 time(s), resumed" in text
    assert "checkpoint(s)" in text
    assert "“accessible login form”" in text
    assert "“pytest tests/test_auth.py”" in text  # auth.py changed after it passed
    assert body["next_actions"] == ["vibflow memory review"]
    assert {"kind": "run", "ref": at["run_id"]} in body["artifacts"]
    # Stored with its id: shown again, listed, and the next recap covers only what follows.
    assert recap_json(repo, schema, "show", body["id"]) == body
    listed = ok_json(vf(repo, "recap", "list", "--json"))["recaps"]
    assert listed[0]["id"] == body["id"]
    later = recap_json(repo, schema)
    assert later["since"] == body["generated_at"]
    assert "recover done" not in "\n".join(later["bullets"])


def test_a_commit_subject_with_a_carriage_return_is_shown_whole(
    repo: Path, schema: dict[str, Any]
) -> None:
    """A subject holding a carriage return used to be cut at it (the rest lost)."""
    drifted(repo)
    commit_all(repo, "fix the form\rand the tail")
    text = "\n".join(recap_json(repo, schema)["bullets"])
    assert "“fix the form and the tail”" in text


def test_a_planted_secret_ip_and_home_path_never_show(repo: Path, schema: dict[str, Any]) -> None:
    assert vf(repo, "memory", "intent", "placeholder", "--yes").returncode == 0
    path = repo / ".vibflow" / "memory.json"
    data = json.loads(path.read_text("utf-8"))
    home = str(Path.home() / "work" / "secret.txt")
    data["active_intent"]["text"] = f"call 10.1.2.3 with {GHP} and read {home}"
    data["next_action"] = {
        "text": f"push {GHP}",
        "last_updated": data["active_intent"]["last_updated"],
        "updated_by": "cli",
    }
    path.write_text(json.dumps(data), "utf-8")
    for args in ((), ("list",)):
        proc = vf(repo, "recap", *args)
        out = proc.stdout + json.dumps(recap_json(repo, schema) if not args else {})
        for leak in (GHP, "10.1.2.3", str(Path.home())):
            assert leak not in out
    stored = ok_json(vf(repo, "recap", "list", "--json"))["recaps"][0]["id"]
    raw = vf(repo, "recap", "show", stored, "--json").stdout
    assert GHP not in raw


def test_a_warm_verdict_cache_never_hides_a_new_secret(repo: Path, schema: dict[str, Any]) -> None:
    """Recaps of clean memory fill the verdict cache; then memory grows a secret, a
    private IP and a home path beside the same clean texts: none of them shows."""
    assert vf(repo, "memory", "intent", "tune the importer", "--yes").returncode == 0
    assert vf(repo, "memory", "next", "profile the parser", "--yes").returncode == 0
    for _ in range(2):
        recap_json(repo, schema)
    cache = (repo / ".vibflow" / "recovery" / "clean_texts").read_text("ascii").split()
    assert len(cache) > 1  # warm: the recap's texts were judged and remembered
    path = repo / ".vibflow" / "memory.json"
    data = json.loads(path.read_text("utf-8"))
    home = str(Path.home() / "notes.txt")
    data["next_action"]["text"] = f"profile the parser {GHP} on 10.1.2.3 from {home}"
    path.write_text(json.dumps(data), "utf-8")
    body = recap_json(repo, schema)
    shown = vf(repo, "recap").stdout + json.dumps(body)
    shown += vf(repo, "recap", "show", body["id"], "--json").stdout
    for leak in (GHP, "10.1.2.3", str(Path.home())):
        assert leak not in shown
    assert "“tune the importer”" in shown  # the clean texts around it still show
    assert "[REDACTED:" in shown


def test_fork_after_a_finished_restore_offers_nothing_restored(repo: Path) -> None:
    drifted(repo)
    at = choose(repo, start(repo), 3)
    done = ok_json(confirm(repo, at))
    assert done["status"] == "done"
    recap_id = as_json(vf(repo, "recap", at["run_id"], "--json"))["id"]
    fork = ok_json(vf(repo, "resume", "--from-recap", recap_id, "--fork", "--json", env=APPLY))
    assert fork["run_id"] != at["run_id"]
    assert fork["parent_run"] == at["run_id"]
    plan = json.loads(
        (repo / ".vibflow" / "recovery" / "plans" / f"{fork['run_id']}.json").read_text("utf-8")
    )
    offered = {p for o in plan["options"] for p in o.get("affected_paths", [])}
    assert not offered & {"config.yaml", "bin/deploy.sh", "src/services/auth.py"}


def _age_audit(repo: Path, minutes: float) -> None:
    audit = repo / ".vibflow" / "audit.jsonl"
    then = time.time() - minutes * 60
    os.utime(audit, (then, then))


def test_the_idle_recap_is_written_once_per_gap(repo: Path) -> None:
    assert vf(repo, "memory", "intent", "Ship the export", "--yes").returncode == 0

    def project_recaps() -> list[dict[str, Any]]:
        return ok_json(vf(repo, "recap", "list", "--kind", "project", "--json"))["recaps"]

    assert project_recaps() == []
    _age_audit(repo, 31)
    assert vf(repo, "runs", "list").returncode == 0  # the first command after the gap
    first = project_recaps()
    assert len(first) == 1
    for _ in range(3):
        assert vf(repo, "runs", "list").returncode == 0
    assert len(project_recaps()) == 1  # not on every command
    _age_audit(repo, 29)
    assert vf(repo, "runs", "list").returncode == 0
    assert len(project_recaps()) == 1  # 29 minutes is no gap
    # Work after that recap, then another gap: the next command recaps it.
    assert vf(repo, "memory", "next", "write the test", "--yes").returncode == 0
    mark = repo / ".vibflow" / "recovery" / "last_project_recap"
    then = time.time() - 60 * 60
    os.utime(mark, (then, then))
    _age_audit(repo, 45)
    assert vf(repo, "runs", "list").returncode == 0
    assert len(project_recaps()) == 2  # the next gap gets its own


def test_a_session_recap_from_recorded_turns(repo: Path, schema: dict[str, Any]) -> None:
    from vibflow.recap_wiring import write_session_recap
    from vibflow.steps.recaps.project import TurnFact
    from vibflow.steps.recaps.session import SessionFacts
    from vibflow.wiring import Project

    facts = SessionFacts(
        agent="claude-code",
        session="sess-1",
        started="2026-11-24T09:00:00Z",
        ended="2026-11-24T10:00:00Z",
        turns=[
            TurnFact("sess-1", 1, "claude-code", ("src/a.py",)),
            TurnFact("sess-1", 2, "claude-code", ("src/a.py", "src/b.py", f"x{GHP}.txt")),
        ],
        checkpoints=["ckpt_" + "1" * 32],
    )
    body = write_session_recap(Project(repo), facts)
    jsonschema.validate(body, schema)
    assert body["kind"] == "session"
    assert "2 turn(s)" in body["headline"]
    assert GHP not in json.dumps(body)
    assert recap_json(repo, schema, "show", body["id"])["id"] == body["id"]


def test_edit_keeps_user_edited_and_checks_the_model(repo: Path, schema: dict[str, Any]) -> None:
    body = recap_json(repo, schema)
    proc = vf(
        repo,
        "recap",
        "edit",
        body["id"],
        "--headline",
        "Paused for lunch",
        "--bullet",
        "one",
        "--bullet",
        "two",
        "--bullet",
        "three",
        "--json",
    )
    edited = ok_json(proc)
    jsonschema.validate(edited, schema)
    assert edited["generator"] == "user_edited"
    assert edited["headline"] == "Paused for lunch"
    assert recap_json(repo, schema, "show", body["id"])["bullets"] == ["one", "two", "three"]
    bad = vf(repo, "recap", "edit", body["id"], "--headline", "x" * 81)
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr


def test_resume_from_a_project_recap_resumes_its_runs_or_says_nothing(repo: Path) -> None:
    drifted(repo)
    run = start(repo)
    body = ok_json(vf(repo, "recap", "--json"))
    assert [r["run_id"] for r in body["open_runs"]] == [run["run_id"]]
    listed = ok_json(vf(repo, "resume", "--from-recap", body["id"], "--json"))
    assert listed["would_resume"] == [run["run_id"]]
    ok_json(vf(repo, "step", run["run_id"], "cancel", "--json", env=APPLY))
    proc = vf(repo, "resume", "--from-recap", body["id"])
    assert proc.returncode == 0
    assert "Nothing to resume" in proc.stdout
