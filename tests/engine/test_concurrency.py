"""Several real vibflow processes on one project at once.

Different runs advance side by side without disturbing each other (journal and
audit stay consistent); processes racing for the *same* run get exactly one
winner, and the losers a clear busy/bad-input message, never a traceback.
"""

from __future__ import annotations

import json
import signal
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from vibflow_testing.cli import as_json, effects_of, query, vf, vf_many

pytestmark = pytest.mark.cli  # every test here spawns the CLI

KILLED = -signal.SIGKILL
LINEAR_EFFECTS = Counter({f"{s} ran": 1 for s in ("one", "two", "three", "four", "five")})


def audit_rows(root: Path) -> list[dict[str, Any]]:
    path = root / ".vibflow" / "audit.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def assert_journal_and_audit_consistent(root: Path) -> None:
    """Per run: entry seqs 0..n with n = runs.seq, each audited; audit verify ok."""
    for run_id, last in query(root, "SELECT run_id, seq FROM runs"):
        seqs = [
            r[0]
            for r in query(root, "SELECT seq FROM entries WHERE run_id=? ORDER BY seq", (run_id,))
        ]
        assert seqs == list(range(last + 1)), (run_id, seqs)
        audited = sorted(
            row["transition_seq"]
            for row in audit_rows(root)
            if row.get("run_id") == run_id and "transition_seq" in row
        )
        assert audited == seqs, f"{run_id}: audit rows per entry seq {audited}, entries {seqs}"
    numbers = [row["sequence_number"] for row in audit_rows(root)]
    assert numbers == list(range(1, len(numbers) + 1))
    verify = vf(root, "audit", "verify", "--json")
    assert verify.returncode == 0, verify.stdout + verify.stderr
    report = as_json(verify)
    assert report["ok"] is True
    assert report["rows"] == len(numbers)


def assert_loser_is_clean(proc: subprocess.CompletedProcess[str], codes: set[int]) -> None:
    assert proc.returncode in codes, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr + proc.stdout
    assert proc.stderr.startswith("vibflow: ")
    assert len(proc.stderr.strip().splitlines()) == 1
    error = as_json(proc)["error"]
    assert error["kind"] in {"busy", "unknown_event", "run_finished"}


# -- different runs side by side -------------------------------------------------------------


def test_different_runs_advance_concurrently_and_all_finish(repo: Path) -> None:
    """Linear runs, a slow run and readers started at once all end done; journal and audit agree."""
    procs = vf_many(
        repo,
        ("run", "linear", "--json"),
        ("run", "linear", "--json"),
        ("run", "linear", "--json"),
        ("run", "crash_slow", "--input", "sleep=0.5", "--json"),
        ("runs", "list", "--json"),
        ("recap", "--json"),
    )
    for proc in procs:
        assert proc.returncode == 0, (proc.args, proc.stderr)
        assert "Traceback" not in proc.stderr
    started = [as_json(p) for p in procs[:4]]
    assert [(r["status"], r["state"]) for r in started] == [("done", "end")] * 4
    run_ids = [r["run_id"] for r in started]
    assert len(set(run_ids)) == 4
    for run_id in run_ids[:3]:
        assert effects_of(repo, run_id) == LINEAR_EFFECTS
    assert effects_of(repo, run_ids[3]) == Counter({"before ran": 1, "nap slow": 1, "after ran": 1})
    # Readers looking while runs advanced never took a live owner for dead.
    assert query(repo, "SELECT count(*) FROM entries WHERE event='interrupted'") == [(0,)]
    assert_journal_and_audit_consistent(repo)


def test_advancing_one_run_while_another_crashes_and_resumes(repo: Path) -> None:
    """Resuming a crashed run amid other runs leaves all runs done, journal and audit consistent."""
    crashed = vf(repo, "run", "linear", "--json", env={"VIBFLOW_CRASH_AT": "transition:2"})
    assert crashed.returncode == KILLED
    ((crashed_id,),) = query(repo, "SELECT run_id FROM runs")
    procs = vf_many(
        repo,
        ("resume", crashed_id, "--json"),
        ("run", "linear", "--json"),
        ("run", "crash_slow", "--input", "sleep=0.3", "--json"),
    )
    for proc in procs:
        assert proc.returncode == 0, (proc.args, proc.stderr)
    assert {as_json(p)["status"] for p in procs} == {"done"}
    assert effects_of(repo, crashed_id) == LINEAR_EFFECTS
    assert effects_of(repo, as_json(procs[1])["run_id"]) == LINEAR_EFFECTS
    assert_journal_and_audit_consistent(repo)


# -- the same run from several processes --------------------------------------------------------


def test_same_event_to_same_waiting_run_advances_it_once(repo: Path) -> None:
    """Four processes sending `restore` to one waiting run: one wins, the rest exit 2/3 cleanly."""
    started = vf(repo, "run", "guarded_apply", "--json")
    assert started.returncode == 0, started.stderr
    run_id = as_json(started)["run_id"]

    procs = vf_many(repo, *[("step", run_id, "restore", "--input", "option=a", "--json")] * 4)
    winners = [p for p in procs if p.returncode == 0]
    assert len(winners) == 1, [(p.returncode, p.stderr) for p in procs]
    assert (as_json(winners[0])["status"], as_json(winners[0])["state"]) == ("waiting", "confirm")
    for proc in procs:
        if proc is not winners[0]:
            assert_loser_is_clean(proc, {2, 3})

    show = as_json(vf(repo, "runs", "show", run_id, "--json"))
    moves = [(t["from"], t["event"], t["to"]) for t in show["transitions"]]
    assert moves.count(("choose", "restore", "sandwich")) == 1
    assert moves == [
        ("preview", "done", "choose"),
        ("choose", "restore", "sandwich"),
        ("sandwich", "done", "confirm"),
    ]
    assert effects_of(repo, run_id) == Counter({"preview ran": 1, "sandwich sandwich": 1})
    assert_journal_and_audit_consistent(repo)


def test_same_event_while_winner_is_still_running_is_busy(repo: Path) -> None:
    """Senders racing a winner that is busy in a slow step all get exit 3, and it advanced once."""
    # The winner's step sleeps long enough that every sender has started before it ends,
    # even when a loaded machine takes seconds to start four interpreters.
    started = vf(repo, "run", "crash_wait_slow", "--input", "sleep=6", "--json")
    assert started.returncode == 0, started.stderr
    run_id = as_json(started)["run_id"]

    procs = vf_many(repo, *[("step", run_id, "go", "--input", "option=a", "--json")] * 4)
    winners = [p for p in procs if p.returncode == 0]
    assert len(winners) == 1, [(p.returncode, p.stderr) for p in procs]
    assert as_json(winners[0])["status"] == "done"
    for proc in procs:
        if proc is not winners[0]:
            assert_loser_is_clean(proc, {3})

    show = as_json(vf(repo, "runs", "show", run_id, "--json"))
    assert [(t["from"], t["event"], t["to"]) for t in show["transitions"]] == [
        ("ask", "go", "nap"),
        ("nap", "done", "after"),
        ("after", "done", "end"),
    ]
    assert effects_of(repo, run_id) == Counter({"nap slow": 1, "after ran": 1})
    assert_journal_and_audit_consistent(repo)


def test_concurrent_resumes_of_one_interrupted_run_resume_it_once(repo: Path) -> None:
    """Four `vibflow resume RUN` at once on an interrupted run: one resumes it, the rest exit 3."""
    crashed = vf(repo, "run", "linear", "--json", env={"VIBFLOW_CRASH_AT": "transition:2"})
    assert crashed.returncode == KILLED
    ((run_id,),) = query(repo, "SELECT run_id FROM runs")

    procs = vf_many(repo, *[("resume", run_id, "--json")] * 4)
    winners = [p for p in procs if p.returncode == 0]
    assert len(winners) == 1, [(p.returncode, p.stderr) for p in procs]
    assert as_json(winners[0])["status"] == "done"
    for proc in procs:
        if proc is not winners[0]:
            assert_loser_is_clean(proc, {3})

    assert effects_of(repo, run_id) == LINEAR_EFFECTS
    events = [r[0] for r in query(repo, "SELECT event FROM entries WHERE run_id=?", (run_id,))]
    assert events.count("interrupted") == 1
    assert events.count("resumed") == 1
    assert_journal_and_audit_consistent(repo)
