"""The runner in-process: statuses, guards, inputs, failures, definitions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from vibflow_testing.cli import Cli, as_json
from vibflow_testing.flows import read_effects

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.journal import RunRecord
from vibflow.wiring import Project


def _to_confirm(project: Project) -> RunRecord:
    runner = project.runner
    run = runner.start(project.catalog.load("guarded_apply"))
    assert run.status == "waiting"
    assert run.state == "choose"
    return runner.send(run.run_id, "restore", {"option": "opt_1"})


def test_run_ids_and_journal_settings(project: Project) -> None:
    """Runs get run_<32 hex> ids; the journal is WAL with a schema version."""
    run = project.runner.start(project.catalog.load("linear"))
    assert run.run_id.startswith("run_")
    assert len(run.run_id) == 36
    db = project.journal._db
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA user_version").fetchone()[0] == 1


def test_every_transition_is_journaled_with_contiguous_seq(project: Project) -> None:
    """A finished run's entries are numbered 0..n with start, transitions and the finish."""
    run = project.runner.start(project.catalog.load("linear"))
    entries = project.journal.entries(run.run_id)
    assert [e.seq for e in entries] == list(range(len(entries)))
    assert entries[0].kind == "start"
    moves = [(e.from_state, e.event, e.to_state) for e in entries if e.kind == "transition"]
    assert moves == [
        ("one", "done", "two"),
        ("two", "done", "three"),
        ("three", "done", "four"),
        ("four", "done", "five"),
        ("five", "done", "end"),
    ]
    assert run.seq == entries[-1].seq


def test_unknown_event_is_bad_input_and_changes_nothing(project: Project) -> None:
    """An event the waiting state does not accept is refused as bad input."""
    run = project.runner.start(project.catalog.load("guarded_apply"))
    with pytest.raises(VibflowError) as err:
        project.runner.send(run.run_id, "explode", {"option": "x"})
    assert err.value.code is ErrorCode.UNKNOWN_EVENT
    assert "restore" in err.value.message
    assert project.journal.get(run.run_id).seq == run.seq  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("inputs", "fragment"),
    [
        ({}, "needs input 'option'"),
        ({"option": "a", "bogus": "1"}, "does not take input 'bogus'"),
    ],
)
def test_wait_inputs_are_checked(project: Project, inputs: dict[str, str], fragment: str) -> None:
    """Missing or unknown inputs of a wait are bad input, naming the field."""
    run = project.runner.start(project.catalog.load("guarded_apply"))
    with pytest.raises(VibflowError) as err:
        project.runner.send(run.run_id, "restore", inputs)
    assert err.value.code is ErrorCode.BAD_INPUT
    assert fragment in err.value.message


def test_typed_inputs_are_converted(project: Project) -> None:
    """int inputs are converted; a non-number is bad input."""
    run = project.runner.start(project.catalog.load("waits"))
    with pytest.raises(VibflowError) as err:
        project.runner.send(run.run_id, "stop", {"next": "x", "count": "many"})
    assert "must be of type int" in err.value.message
    done = project.runner.send(run.run_id, "stop", {"next": "x", "count": "7"})
    assert done.context["inputs"]["count"] == 7
    assert done.status == "aborted"  # final state declares status: aborted


def test_paths_list_input_splits_on_commas(project: Project) -> None:
    """A list input given as text is split on commas."""
    run = _to_confirm(project)
    assert run.context["inputs"]["option"] == "opt_1"
    run2 = project.runner.start(project.catalog.load("guarded_apply"))
    run2 = project.runner.send(run2.run_id, "restore", {"option": "o", "paths": "a.py, b/c.py"})
    assert run2.context["inputs"]["paths"] == ["a.py", "b/c.py"]


def test_guard_refusal_blocks_in_place_with_a_plain_reason(project: Project) -> None:
    """A refused guard leaves the run where it is, blocked, with the reason and an audit row."""
    run = _to_confirm(project)
    blocked = project.runner.send(run.run_id, "confirm", {"confirmation": "APPLY now"})
    assert blocked.status == "blocked"
    assert blocked.state == "confirm"
    assert "VIBFLOW_TEST_APPLY=1" in (blocked.blocked_reason or "")
    last = project.journal.entries(run.run_id)[-1]
    assert last.kind == "blocked"
    assert [g["passed"] for g in last.guards] == [True, False]
    rows = [json.loads(x) for x in project.audit.path.read_text().splitlines()]
    refused = [r for r in rows if r["event"] == "guard_refused"]
    assert refused[-1]["guard"] == "feature_flag"
    assert refused[-1]["result"] == "refused"
    assert "apply" not in read_effects(project.root)[-1]


def test_wrong_confirmation_is_refused_before_the_flag(project: Project) -> None:
    """Guards run in declared order and stop at the first refusal."""
    run = _to_confirm(project)
    project.env["VIBFLOW_TEST_APPLY"] = "1"  # type: ignore[index]
    blocked = project.runner.send(run.run_id, "confirm", {"confirmation": "yes please"})
    assert blocked.status == "blocked"
    assert "APPLY now" in (blocked.blocked_reason or "")
    assert len(project.journal.entries(run.run_id)[-1].guards) == 1


@pytest.mark.parametrize("value", ["1", "true", "YES", "on"])
def test_feature_flag_passes_only_from_the_environment(project: Project, value: str) -> None:
    """feature_flag: NAME passes when VIBFLOW_NAME is 1/true/yes/on."""
    run = _to_confirm(project)
    project.env["VIBFLOW_TEST_APPLY"] = value  # type: ignore[index]
    done = project.runner.send(run.run_id, "confirm", {"confirmation": "APPLY now"})
    assert done.status == "done"


@pytest.mark.parametrize("value", ["0", "", "enabled", "false", "2"])
def test_feature_flag_refuses_other_values(project: Project, value: str) -> None:
    """Any other environment value keeps the flag off."""
    run = _to_confirm(project)
    project.env["VIBFLOW_TEST_APPLY"] = value  # type: ignore[index]
    blocked = project.runner.send(run.run_id, "confirm", {"confirmation": "APPLY now"})
    assert blocked.status == "blocked"


def test_flag_in_request_context_is_never_obeyed(project: Project) -> None:
    """A feature_enabled value in the run's inputs does not switch a flag on."""
    run = project.runner.start(
        project.catalog.load("guarded_apply"),
        {"feature_enabled": "true", "VIBFLOW_TEST_APPLY": "1", "TEST_APPLY": "1"},
    )
    run = project.runner.send(run.run_id, "restore", {"option": "o"})
    blocked = project.runner.send(run.run_id, "confirm", {"confirmation": "APPLY now"})
    assert blocked.status == "blocked"


def test_blocked_run_resumes_when_the_guard_passes(project: Project) -> None:
    """resume retries the refused event; with the flag on it proceeds to the end."""
    run = _to_confirm(project)
    blocked = project.runner.send(run.run_id, "confirm", {"confirmation": "APPLY now"})
    assert blocked.status == "blocked"
    project.env["VIBFLOW_TEST_APPLY"] = "1"  # type: ignore[index]
    done = project.runner.resume(run.run_id)
    assert done.status == "done"
    assert done.state == "result"


def test_blocked_wait_still_accepts_another_event(project: Project) -> None:
    """A run blocked at a wait can take a different event (cancel)."""
    run = _to_confirm(project)
    project.runner.send(run.run_id, "confirm", {"confirmation": "APPLY now"})
    done = project.runner.send(run.run_id, "cancel", {"confirmation": "-"})
    assert done.status == "done"
    assert done.blocked_reason is None


def test_step_error_fails_the_run_with_its_message(project: Project) -> None:
    """A step raising VibflowError fails the run; the message is kept."""
    run = project.runner.start(project.catalog.load("waits"))
    failed = project.runner.send(run.run_id, "go", {"next": "fail", "word": "yes"})
    assert failed.status == "failed"
    assert "failed on purpose" in (failed.error or "")


def test_unexpected_step_exception_fails_without_leaking_its_text(project: Project) -> None:
    """An unexpected exception fails the run naming only its type, never its text."""
    flows = project.root / ".vibflow" / "flows"
    (flows / "boom.yaml").write_text(
        "flow: boom\nversion: 1\ninitial: a\nstates:\n"
        "  a: {step: t.boom, on: {done: b}}\n  b: {final: true}\n",
        encoding="utf-8",
    )
    failed = project.runner.start(project.catalog.load("boom"))
    assert failed.status == "failed"
    assert "RuntimeError" in (failed.error or "")
    assert "/home" not in (failed.error or "")


def test_step_returning_an_unhandled_event_fails(project: Project) -> None:
    """A step outcome the state has no transition for fails the run clearly."""
    run = project.runner.start(project.catalog.load("waits"))
    failed = project.runner.send(run.run_id, "go", {"next": "sideways", "word": "yes"})
    assert failed.status == "failed"
    assert "'sideways'" in (failed.error or "")


def test_guard_that_crashes_refuses(project: Project) -> None:
    """A guard raising an exception refuses (fail closed)."""
    flows = project.root / ".vibflow" / "flows"
    (flows / "gboom.yaml").write_text(
        "flow: gboom\nversion: 1\ninitial: a\nstates:\n"
        "  a: {wait: x, on: {go: {target: b, guards: [t_broken]}}}\n  b: {final: true}\n",
        encoding="utf-8",
    )
    run = project.runner.start(project.catalog.load("gboom"))
    blocked = project.runner.send(run.run_id, "go", {})
    assert blocked.status == "blocked"
    assert "RuntimeError" in (blocked.blocked_reason or "")


def test_pass_through_state_moves_on_done(project: Project) -> None:
    """A state with no step/wait/final passes straight through."""
    run = project.runner.start(project.catalog.load("waits"))
    done = project.runner.send(run.run_id, "go", {"next": "done", "word": "yes"})
    moves = [e.to_state for e in project.journal.entries(run.run_id) if e.kind == "transition"]
    assert moves == ["work", "relay", "end"]
    assert done.status == "done"


def test_on_blocked_detours_instead_of_stopping(project: Project) -> None:
    """A refused guard with on_blocked moves the run to that state."""
    flows = project.root / ".vibflow" / "flows"
    (flows / "detour.yaml").write_text(
        "flow: detour\nversion: 1\ninitial: a\nstates:\n"
        "  a:\n    wait: x\n    on_blocked: sorry\n"
        "    on: {go: {target: b, guards: [{feature_flag: NOPE}]}}\n"
        "  b: {final: true}\n  sorry: {final: true, status: aborted}\n",
        encoding="utf-8",
    )
    run = project.runner.start(project.catalog.load("detour"))
    after = project.runner.send(run.run_id, "go", {})
    assert after.state == "sorry"
    assert after.status == "aborted"


def test_stored_definition_is_used_after_the_yaml_changes(project: Project) -> None:
    """Editing the flow file never changes a run in flight."""
    run = project.runner.start(project.catalog.load("guarded_apply"))
    path = project.root / ".vibflow" / "flows" / "guarded_apply.yaml"
    path.write_text(path.read_text().replace("skip: result", "skip: preview"), encoding="utf-8")
    done = project.runner.send(run.run_id, "skip", {"option": "x"})
    assert done.state == "result"
    assert done.status == "done"


def test_context_size_limit_is_enforced(project: Project) -> None:
    """A context over the policy limit fails loudly rather than growing unbounded."""
    runner = project.runner
    runner.context_max_bytes = 2048
    run = runner.start(project.catalog.load("guarded_apply"))
    with pytest.raises(VibflowError) as err:
        runner.send(run.run_id, "restore", {"option": "x" * 4000})
    assert "context_max_bytes" in err.value.message


def test_abort_waiting_run_and_refuse_finished(project: Project) -> None:
    """A waiting run can be aborted; a finished run cannot be aborted or resumed."""
    run = project.runner.start(project.catalog.load("guarded_apply"))
    aborted = project.runner.abort(run.run_id)
    assert aborted.status == "aborted"
    for op in (project.runner.abort, project.runner.resume):
        with pytest.raises(VibflowError) as err:
            op(run.run_id)
        assert err.value.code is ErrorCode.RUN_FINISHED


def test_unknown_run_is_bad_input(project: Project) -> None:
    """An unknown run id is reported as bad input with a hint."""
    with pytest.raises(VibflowError) as err:
        project.runner.resume("run_" + "0" * 32)
    assert err.value.code is ErrorCode.RUN_NOT_FOUND


def test_dry_run_writes_nothing_and_lists_mutating_steps(project: Project) -> None:
    """--dry-run walks guards and read-only steps, skipping (listing) mutating ones."""
    loaded = project.catalog.load("mutating")
    report = project.runner.dry_run(loaded)
    assert [h["state"] for h in report.path] == ["look", "checkpoint", "confirm"]
    assert report.skipped == ["checkpoint"]
    assert report.ended == "wait"
    assert project.journal.runs() == []


def test_dry_run_cli_reports_blocked_guard(cli: Cli, repo: Path) -> None:
    """The CLI dry run evaluates guards and prints the path taken."""
    (repo / ".vibflow" / "flows" / "flagged.yaml").write_text(
        "flow: flagged\nversion: 1\ninitial: a\nstates:\n"
        "  a: {step: t.noop, on: {done: {target: b, guards: [{feature_flag: OFF_FLAG}]}}}\n"
        "  b: {step: t.apply, on: {done: c}}\n  c: {final: true}\n".replace("t.apply", "t.effect"),
        encoding="utf-8",
    )
    proc = cli("run", "flagged", "--dry-run", "--json")
    assert proc.returncode == 0, proc.stderr
    data = as_json(proc)
    assert data["ended"] == "blocked"
    assert "VIBFLOW_OFF_FLAG" in data["blocked_reason"]
    assert not (repo / ".vibflow" / "runs.db").exists()
    assert not (repo / ".vibflow" / "audit.jsonl").exists()
    assert read_effects(repo) == []


def test_resume_reports_definition_changes(cli: Cli, repo: Path) -> None:
    """resume says which states/transitions changed since the run started."""
    run = as_json(cli("run", "guarded_apply", "--json"))
    path = repo / ".vibflow" / "flows" / "guarded_apply.yaml"
    path.write_text(
        path.read_text().replace(
            "      skip: result\n", "      skip: result\n      later: result\n"
        ),
        encoding="utf-8",
    )
    out = as_json(cli("resume", str(run["run_id"]), "--json"))
    assert out["status"] == "waiting"
    assert out["definition_changes"]["transitions_added"] == ["choose --later--> result"]


def test_cli_exit_codes(cli: Cli) -> None:
    """Exit codes: unknown flow 2, blocked 3, waiting 0, failed 1."""
    assert cli("run", "no_such_flow").returncode == 2
    run = as_json(cli("run", "guarded_apply", "--json"))
    rid = str(run["run_id"])
    assert cli("step", rid, "restore", "--input", "option=a").returncode == 0
    blocked = cli("step", rid, "confirm", "--input", "confirmation=APPLY now", "--json")
    assert blocked.returncode == 3
    assert as_json(blocked)["status"] == "blocked"
    w = as_json(cli("run", "waits", "--json"))
    failed = cli("step", str(w["run_id"]), "go", "--input", "next=fail", "--input", "word=yes")
    assert failed.returncode == 1
    assert "Traceback" not in failed.stderr


def test_outside_a_git_repo_is_a_clear_error(cli: Cli, tmp_path: Path) -> None:
    """Run outside a git work tree: exit 2 and a plain sentence, no traceback."""
    outside = tmp_path / "plain"
    outside.mkdir()
    proc = cli("runs", "list", cwd=outside)
    assert proc.returncode == 2
    assert "not inside a git work tree" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_vibflow_dir_ignores_itself(project: Project) -> None:
    """.vibflow/ carries its own .gitignore; the user's files are not touched."""
    project.runner.start(project.catalog.load("linear"))
    from vibflow_testing.git import git

    assert git(project.root, "status", "--porcelain") == ""
    assert not (project.root / ".gitignore").exists()


def test_step_audit_facts_may_carry_their_own_result(project: Project) -> None:
    """A step's count-only audit facts (including `result`) land on its transition row."""
    run = project.runner.start(project.catalog.load("mutating"))
    assert run.state == "confirm"
    project.env["VIBFLOW_TEST_APPLY"] = "1"  # type: ignore[index]
    done = project.runner.send(run.run_id, "confirm", {"confirmation": "APPLY now"})
    assert done.status == "done"
    rows = [json.loads(x) for x in project.audit.path.read_text().splitlines()]
    apply_row = next(r for r in rows if r.get("from_state") == "apply")
    assert apply_row["result"] == "ok"


def test_inputs_of_a_refused_event_do_not_stay_in_the_run(project: Project) -> None:
    """A refused event's inputs are not kept, so a later event cannot pick them up."""
    run = project.runner.start(project.catalog.load("waits"))
    blocked = project.runner.send(run.run_id, "go", {"next": "done", "word": "no"})
    assert blocked.status == "blocked"
    assert "next" not in blocked.context.get("inputs", {})
    assert blocked.pending_inputs == {"next": "done", "word": "no"}


def test_a_list_input_repeated_keeps_each_value_whole_commas_included() -> None:
    """`--input paths=a --input paths=b,c.py` gives two paths, the second with its comma;
    a str input given twice is refused instead of keeping only the last."""
    from vibflow.engine.inputs import coerce, parse_pairs

    raw = parse_pairs(["paths=a.py", "paths=b,c.py", "option=x"])
    got = coerce({"paths": "list?", "option": "str?"}, raw, where="choose")
    assert got == {"paths": ["a.py", "b,c.py"], "option": "x"}
    assert coerce({"paths": "list?"}, parse_pairs(["paths=a,b"]), where="w") == {
        "paths": ["a", "b"]
    }
    with pytest.raises(VibflowError) as refused:
        coerce({"option": "str?"}, parse_pairs(["option=x", "option=y"]), where="choose")
    assert refused.value.code == ErrorCode.BAD_INPUT
