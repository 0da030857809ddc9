"""`vibflow run FLOW --input` takes only what the flow declares for its start (like `step`
at a wait: exit 2, the allowed inputs named, a did-you-mean), a key given twice is bad
input, and `step` on a finished run is bad input that says the run's status."""

from __future__ import annotations

from pathlib import Path

import pytest
from vibflow_testing.cli import Cli, as_json, query


def _runs(cli: Cli) -> int:
    return len(as_json(cli("runs", "list", "--json"))["runs"])


@pytest.mark.parametrize("dry_run", [False, True], ids=["run", "dry-run"])
def test_run_refuses_an_unknown_input_with_what_it_takes(cli: Cli, dry_run: bool) -> None:
    """A misspelt start input is bad input naming the declared ones, with a did-you-mean,
    and no run is started."""
    extra = ["--dry-run"] if dry_run else []
    proc = cli("run", "crash_slow", "--input", "slep=0", *extra)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "does not take input 'slep' (did you mean 'sleep'?)" in proc.stderr
    assert "sleep (float?)" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert _runs(cli) == 0


def test_run_of_a_flow_without_start_inputs_says_where_inputs_go(cli: Cli) -> None:
    """The recover flow takes no inputs when it starts: the error says so and points at
    `vibflow step`, where a wait's inputs go."""
    proc = cli("run", "recover", "--input", "paths=a.py")
    assert proc.returncode == 2
    assert "flow 'recover' does not take input 'paths'; it expects no inputs" in proc.stderr
    assert "vibflow step RUN EVENT --input" in proc.stderr
    assert _runs(cli) == 0


def test_run_types_a_declared_start_input(cli: Cli) -> None:
    """A declared input is checked against its type: a bad value is bad input, a good one
    runs the flow to its end."""
    bad = cli("run", "crash_slow", "--input", "sleep=soon")
    assert bad.returncode == 2
    assert "must be of type float" in bad.stderr
    ok = cli("run", "crash_slow", "--input", "sleep=0", "--json")
    assert ok.returncode == 0, ok.stderr
    assert as_json(ok)["status"] == "done"


@pytest.mark.parametrize("command", ["run", "step"])
def test_an_input_given_twice_is_bad_input(cli: Cli, command: str) -> None:
    """Repeating the key of an input that takes one value would silently keep only one:
    it is bad input (only a list input collects a repeated key)."""
    if command == "run":
        args = ["run", "crash_slow", "-i", "sleep=0", "-i", "sleep=1"]
    else:
        run_id = as_json(cli("run", "waits", "--json"))["run_id"]
        args = ["step", run_id, "go", "-i", "next=done", "-i", "next=fail"]
    proc = cli(*args)
    assert proc.returncode == 2
    assert "input 'sleep' is given more than once" in proc.stderr or (
        "input 'next' is given more than once" in proc.stderr
    )
    assert "takes one value" in proc.stderr


def test_step_suggests_the_nearest_input_name(cli: Cli) -> None:
    """`step` with a misspelt input names what the wait takes, with a did-you-mean."""
    run_id = as_json(cli("run", "waits", "--json"))["run_id"]
    proc = cli("step", run_id, "go", "--input", "nxt=done")
    assert proc.returncode == 2
    assert "(did you mean 'next'?)" in proc.stderr
    assert "count (int?), next (str), word (str?)" in proc.stderr


@pytest.mark.parametrize(
    ("start", "status"),
    [(("crash_slow", "-i", "sleep=0"), "done"), (("waits",), "aborted")],
    ids=["done", "aborted"],
)
def test_step_on_a_finished_run_is_bad_input_with_its_status(
    cli: Cli, repo: Path, start: tuple[str, ...], status: str
) -> None:
    """Sending an event to a run that is over exits 2 and says how it ended; the journal
    gets nothing new."""
    started = as_json(cli("run", *start, "--json"))
    if status == "aborted":
        started = as_json(cli("step", started["run_id"], "stop", "-i", "next=x", "--json"))
    run_id = started["run_id"]
    assert started["status"] == status
    entries = "SELECT COUNT(*) FROM entries WHERE run_id = ?"
    before = query(repo, entries, (run_id,))
    proc = cli("step", run_id, "go", "--json")
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert f"run {run_id} has already finished ({status})" in proc.stderr
    assert as_json(proc)["error"]["kind"] == "bad_input"
    assert query(repo, entries, (run_id,)) == before
