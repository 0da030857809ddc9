"""Crash a real vibflow process at every journal entry (and every item), resume it.

Each case SIGKILLs a real harness process at an injected point
(``VIBFLOW_CRASH_AT``), recovers with ``vibflow resume`` / ``vibflow step``
until the run ends, then checks the end state, the transition sequence against
an uninterrupted run, how many times each side effect ran (``effects.log``),
the journal's sequence numbers and the audit rail (one row per journal entry,
``vibflow audit verify`` ok).
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from vibflow_testing.cli import as_json, clean_env, effects_of, harness_cmd, query, vf, vf_many
from vibflow_testing.flows import read_effects

pytestmark = pytest.mark.cli  # every test here spawns the CLI

KILLED = -signal.SIGKILL
APPLY_ENV = {"VIBFLOW_TEST_APPLY": "1"}

# What an uninterrupted run records (pinned by the *_uninterrupted_* tests below).
LINEAR_TRANSITIONS = [
    ("one", "done", "two"),
    ("two", "done", "three"),
    ("three", "done", "four"),
    ("four", "done", "five"),
    ("five", "done", "end"),
]
LINEAR_OUTCOMES = [f"counter={n}" for n in range(1, 6)]
LINEAR_EFFECTS = Counter({f"{s} ran": 1 for s in ("one", "two", "three", "four", "five")})
# The journal entry whose commit ends each effect's step (the run's seq).
LINEAR_STEP_COMMIT = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
LINEAR_LAST = 5

GUARDED_TRANSITIONS = [
    ("preview", "done", "choose"),
    ("choose", "restore", "sandwich"),
    ("sandwich", "done", "confirm"),
    ("confirm", "confirm", "apply"),
    ("apply", "done", "really_apply"),
    ("really_apply", "done", "result"),
]
GUARDED_OUTCOMES = ["counter=1", "", "", "", "5 items", ""]
ITEMS = [f"item-{i:03d}" for i in range(5)]
GUARDED_EFFECTS = Counter(
    {"preview ran": 1, "sandwich sandwich": 1, "result ran": 1}
    | {f"apply item {key}": 1 for key in ITEMS}
)
GUARDED_STEP_COMMIT = {"preview": 1, "sandwich": 3, "apply": 5, "result": 7}
GUARDED_LAST = 7  # 7 = the 'finished' status entry of the final step 'result'

# The event (and inputs) each wait state of guarded_apply gets.
GUARDED_ANSWERS = {
    "choose": ("restore", "--input", "option=a"),
    "confirm": ("confirm", "--input", "confirmation=APPLY now"),
}


# -- helpers -------------------------------------------------------------------------


def only_run_id(root: Path) -> str:
    rows = query(root, "SELECT run_id FROM runs")
    assert len(rows) == 1, rows
    return str(rows[0][0])


def status_of(root: Path, run_id: str) -> tuple[str, str]:
    (row,) = query(root, "SELECT status, state FROM runs WHERE run_id=?", (run_id,))
    return str(row[0]), str(row[1])


def journal_seqs(root: Path, run_id: str) -> list[int]:
    return [
        r[0] for r in query(root, "SELECT seq FROM entries WHERE run_id=? ORDER BY seq", (run_id,))
    ]


def audit_rows(root: Path) -> list[dict[str, Any]]:
    path = root / ".vibflow" / "audit.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def assert_one_audit_row_per_entry(root: Path, run_id: str, seqs: list[int]) -> None:
    counts = audited_seqs(root, run_id)
    wrong = {seq: counts[seq] for seq in sorted(set(seqs) | set(counts)) if counts[seq] != 1}
    assert not wrong, f"journal entries without exactly one audit row (seq: rows): {wrong}"


def audited_seqs(root: Path, run_id: str) -> Counter[int]:
    """How many audit rows each journal entry (by seq) of ``run_id`` has."""
    return Counter(
        row["transition_seq"]
        for row in audit_rows(root)
        if row.get("run_id") == run_id and isinstance(row.get("transition_seq"), int)
    )


def advance(root: Path, run_id: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """One recovery action: answer a wait of guarded_apply, otherwise resume."""
    status, state = status_of(root, run_id)
    if status == "waiting":
        return vf(root, "step", run_id, *GUARDED_ANSWERS[state], "--json", env=env)
    return vf(root, "resume", run_id, "--json", env=env)


def crash_then_recover(root: Path, flow: str, crash: str) -> str:
    """Drive ``flow`` with ``VIBFLOW_CRASH_AT=crash`` until a process is killed,
    then ``vibflow resume`` and step it (without the crash) until it ends."""
    crashing = {**APPLY_ENV, "VIBFLOW_CRASH_AT": crash}
    proc = vf(root, "run", flow, "--json", env=crashing)
    run_id = only_run_id(root)
    for _ in range(10):
        if proc.returncode == KILLED:
            break
        assert proc.returncode == 0, proc.stderr
        assert status_of(root, run_id)[0] != "done", f"{crash} never fired"
        proc = advance(root, run_id, crashing)
    assert proc.returncode == KILLED, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr

    # The crash left exactly what was committed (audit rows may lag: a resume
    # re-derives them from the journal, checked once the run has ended).
    seqs = journal_seqs(root, run_id)
    assert seqs == list(range(len(seqs)))
    if crash.startswith("transition:"):
        assert seqs[-1] == int(crash.partition(":")[2])

    finished_at_crash = status_of(root, run_id)[0] == "done"
    proc = vf(root, "resume", run_id, "--json", env=APPLY_ENV)
    if finished_at_crash:
        assert proc.returncode == 3, proc.stderr
        assert "already finished" in proc.stderr
    else:
        assert proc.returncode == 0, proc.stderr
    for _ in range(10):
        if status_of(root, run_id)[0] == "done":
            break
        proc = advance(root, run_id, APPLY_ENV)
        assert proc.returncode == 0, proc.stderr
    assert status_of(root, run_id)[0] == "done"
    return run_id


def assert_like_uninterrupted(
    root: Path,
    run_id: str,
    *,
    final_state: str,
    transitions: list[tuple[str, str, str]],
    outcomes: list[str],
) -> dict[str, Any]:
    """End state, transitions, journal and audit match an uninterrupted run."""
    show, verify = vf_many(root, ("runs", "show", run_id, "--json"), ("audit", "verify", "--json"))
    assert show.returncode == 0, show.stderr
    data = as_json(show)
    assert (data["status"], data["state"]) == ("done", final_state)
    assert data["error"] is None
    assert data["blocked_reason"] is None
    got = [(t["from"], t["event"], t["to"]) for t in data["transitions"]]
    assert got == transitions
    assert [t["outcome"] for t in data["transitions"]] == outcomes
    assert data["refusals"] == []

    # Extra entries are only the crash's bookkeeping (and the final 'finished').
    extra = query(
        root,
        "SELECT kind, event FROM entries WHERE run_id=? AND kind != 'transition' ORDER BY seq",
        (run_id,),
    )
    assert extra[0] == ("start", None)
    assert {e for _, e in extra[1:]} <= {"interrupted", "resumed", "finished"}
    assert {k for k, _ in extra[1:]} <= {"status"}

    seqs = journal_seqs(root, run_id)
    assert seqs == list(range(len(seqs)))
    (max_seq,) = query(root, "SELECT seq FROM runs WHERE run_id=?", (run_id,))[0]
    assert max_seq == seqs[-1]
    assert_one_audit_row_per_entry(root, run_id, seqs)

    assert verify.returncode == 0, verify.stdout + verify.stderr
    report = as_json(verify)
    assert report["ok"] is True
    assert report["corrupt_rows"] == 0
    return data


def assert_effect_counts(
    effects: Counter[str], expected: Counter[str], commit_seq: dict[str, int], crashed_at: int
) -> None:
    """Every effect ran once or twice, and exactly once if its step's commit
    landed before the crash."""
    assert set(effects) == set(expected)
    for key, count in effects.items():
        state = key.split()[0]
        if commit_seq[state] <= crashed_at:
            assert count == 1, (key, count)
        else:
            assert 1 <= count <= 2, (key, count)


def guarded_uninterrupted(root: Path) -> str:
    proc = vf(root, "run", "guarded_apply", "--json")
    assert proc.returncode == 0, proc.stderr
    run_id = str(as_json(proc)["run_id"])
    for _ in range(3):
        if status_of(root, run_id)[0] == "done":
            break
        proc = advance(root, run_id, APPLY_ENV)
        assert proc.returncode == 0, proc.stderr
    return run_id


# -- the uninterrupted reference -------------------------------------------------------


def test_linear_uninterrupted_reference(repo: Path) -> None:
    """An uninterrupted linear run records exactly the reference transitions and effects."""
    proc = vf(repo, "run", "linear", "--json")
    assert proc.returncode == 0, proc.stderr
    run_id = str(as_json(proc)["run_id"])
    assert_like_uninterrupted(
        repo, run_id, final_state="end", transitions=LINEAR_TRANSITIONS, outcomes=LINEAR_OUTCOMES
    )
    assert journal_seqs(repo, run_id)[-1] == LINEAR_LAST
    assert effects_of(repo, run_id) == LINEAR_EFFECTS


def test_guarded_apply_uninterrupted_reference(repo: Path) -> None:
    """An uninterrupted guarded_apply run records exactly the reference transitions and effects."""
    run_id = guarded_uninterrupted(repo)
    assert_like_uninterrupted(
        repo,
        run_id,
        final_state="result",
        transitions=GUARDED_TRANSITIONS,
        outcomes=GUARDED_OUTCOMES,
    )
    assert journal_seqs(repo, run_id)[-1] == GUARDED_LAST
    assert effects_of(repo, run_id) == GUARDED_EFFECTS


# -- crash at every journal entry ------------------------------------------------------


@pytest.mark.parametrize("n", range(1, LINEAR_LAST + 1))
def test_linear_crash_after_entry_resumes_like_uninterrupted(repo: Path, n: int) -> None:
    """linear killed right after journal entry N resumes to the uninterrupted end, effects once."""
    run_id = crash_then_recover(repo, "linear", f"transition:{n}")
    assert_like_uninterrupted(
        repo, run_id, final_state="end", transitions=LINEAR_TRANSITIONS, outcomes=LINEAR_OUTCOMES
    )
    effects = effects_of(repo, run_id)
    assert_effect_counts(effects, LINEAR_EFFECTS, LINEAR_STEP_COMMIT, n)
    # A kill right after a commit never cuts a step in half: nothing repeats.
    assert effects == LINEAR_EFFECTS


@pytest.mark.parametrize("n", range(1, GUARDED_LAST + 1))
def test_guarded_apply_crash_after_entry_resumes_like_uninterrupted(repo: Path, n: int) -> None:
    """guarded_apply killed right after journal entry N resumes to the same end, effects once."""
    run_id = crash_then_recover(repo, "guarded_apply", f"transition:{n}")
    assert_like_uninterrupted(
        repo,
        run_id,
        final_state="result",
        transitions=GUARDED_TRANSITIONS,
        outcomes=GUARDED_OUTCOMES,
    )
    effects = effects_of(repo, run_id)
    assert_effect_counts(effects, GUARDED_EFFECTS, GUARDED_STEP_COMMIT, n)
    assert effects == GUARDED_EFFECTS


def test_linear_crash_in_every_resume_still_runs_each_step_once(repo: Path) -> None:
    """Killing the run and then every resume at its first transition still runs each step once."""
    crash_at = 1
    proc = vf(repo, "run", "linear", "--json", env={"VIBFLOW_CRASH_AT": f"transition:{crash_at}"})
    assert proc.returncode == KILLED
    run_id = only_run_id(repo)
    kills = 1
    while status_of(repo, run_id)[0] != "done":
        # A resume writes 'interrupted' and 'resumed' before its first transition.
        crash_at = journal_seqs(repo, run_id)[-1] + 3
        proc = vf(
            repo, "resume", run_id, "--json", env={"VIBFLOW_CRASH_AT": f"transition:{crash_at}"}
        )
        assert proc.returncode == KILLED, proc.stderr
        assert journal_seqs(repo, run_id)[-1] == crash_at
        kills += 1
    assert kills == len(LINEAR_TRANSITIONS)
    assert_like_uninterrupted(
        repo, run_id, final_state="end", transitions=LINEAR_TRANSITIONS, outcomes=LINEAR_OUTCOMES
    )
    assert effects_of(repo, run_id) == LINEAR_EFFECTS
    attempts = [line.rsplit("attempt=", 1)[1] for line in read_effects(repo)]
    assert attempts == ["1", "2", "3", "4", "5"]


# -- crash between items of a per-item step ----------------------------------------------


@pytest.mark.parametrize("k", range(1, 5))
def test_guarded_apply_crash_after_item_skips_finished_items(repo: Path, k: int) -> None:
    """Killed after item K of 'apply', resume skips the K finished items: every item runs once."""
    run_id = crash_then_recover(repo, "guarded_apply", f"item:{k}")
    (done_items,) = query(repo, "SELECT count(*) FROM items WHERE run_id=?", (run_id,))[0]
    assert done_items == len(ITEMS)
    assert_like_uninterrupted(
        repo,
        run_id,
        final_state="result",
        transitions=GUARDED_TRANSITIONS,
        outcomes=GUARDED_OUTCOMES,
    )
    assert effects_of(repo, run_id) == GUARDED_EFFECTS
    attempt_of = {
        line.split()[3]: line.rsplit("attempt=", 1)[1]
        for line in read_effects(repo)
        if " apply item " in line
    }
    # Items finished before the kill ran in attempt 1 only; the rest in the resume.
    assert attempt_of == {key: ("1" if i < k else "2") for i, key in enumerate(ITEMS)}


def crash_then_recover_items_twice(root: Path) -> str:
    proc = vf(root, "run", "guarded_apply", "--json")
    run_id = str(as_json(proc)["run_id"])
    proc = advance(root, run_id, APPLY_ENV)
    assert proc.returncode == 0, proc.stderr
    proc = advance(root, run_id, {**APPLY_ENV, "VIBFLOW_CRASH_AT": "item:2"})
    assert proc.returncode == KILLED, proc.stderr
    proc = vf(root, "resume", run_id, "--json", env={"VIBFLOW_CRASH_AT": "item:1"})
    assert proc.returncode == KILLED, proc.stderr
    proc = vf(root, "resume", run_id, "--json")
    assert proc.returncode == 0, proc.stderr
    assert status_of(root, run_id)[0] == "done"
    return run_id


def test_guarded_apply_crash_after_item_twice_still_runs_each_item_once(repo: Path) -> None:
    """Killed after item 2, then the resume killed after its next item: every item runs once."""
    run_id = crash_then_recover_items_twice(repo)
    assert_like_uninterrupted(
        repo,
        run_id,
        final_state="result",
        transitions=GUARDED_TRANSITIONS,
        outcomes=GUARDED_OUTCOMES,
    )
    assert effects_of(repo, run_id) == GUARDED_EFFECTS
    attempt_of = {
        line.split()[3]: line.rsplit("attempt=", 1)[1]
        for line in read_effects(repo)
        if " apply item " in line
    }
    assert attempt_of == dict(zip(ITEMS, ["1", "1", "2", "3", "3"], strict=True))


# -- crash inside a step -------------------------------------------------------------------


def wait_for_state(root: Path, proc: subprocess.Popen[str], state: str, timeout: float = 30) -> str:
    """Poll the journal until the (single) run is running at ``state``; its run id."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the process ended before reaching the state"
        try:
            rows = query(root, "SELECT run_id, status, state FROM runs")
        except sqlite3.Error:  # the journal is still being created
            rows = []
        if rows and rows[0][1:] == ("running", state):
            return str(rows[0][0])
        time.sleep(0.02)
    raise AssertionError(f"the run never reached '{state}'")


def test_kill_inside_an_idempotent_step_reruns_it_once(repo: Path) -> None:
    """A process SIGKILLed inside an idempotent step: resume re-runs it, each effect once."""
    proc = subprocess.Popen(
        harness_cmd("run", "crash_slow", "--input", "sleep=1.5"),
        cwd=repo,
        env=clean_env(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        run_id = wait_for_state(repo, proc, "nap")
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.kill()
        assert proc.wait(timeout=30) == KILLED
    assert effects_of(repo, run_id) == Counter({"before ran": 1})
    resumed = vf(repo, "resume", run_id, "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert_like_uninterrupted(
        repo,
        run_id,
        final_state="end",
        transitions=[("before", "done", "nap"), ("nap", "done", "after"), ("after", "done", "end")],
        outcomes=["counter=1", "", "counter=2"],
    )
    assert effects_of(repo, run_id) == Counter({"before ran": 1, "nap slow": 1, "after ran": 1})


# -- steps that are not simply re-run ------------------------------------------------------


def test_interrupted_unsafe_step_needs_rerun_step(repo: Path) -> None:
    """Resume refuses (exit 3, names --rerun-step) a run interrupted in a non-idempotent step."""
    proc = vf(repo, "run", "crash_unsafe", "--json", env={"VIBFLOW_CRASH_AT": "transition:1"})
    assert proc.returncode == KILLED
    run_id = only_run_id(repo)
    before = read_effects(repo)

    refused = vf(repo, "resume", run_id, "--json")
    assert refused.returncode == 3, refused.stderr
    assert "--rerun-step" in refused.stderr
    assert "Traceback" not in refused.stderr
    assert as_json(refused)["error"]["kind"] == "not_resumable"
    assert read_effects(repo) == before  # nothing re-ran
    assert status_of(repo, run_id) == ("interrupted", "risky")

    again = vf(repo, "resume", run_id, "--rerun-step", "--json")
    assert again.returncode == 0, again.stderr
    assert as_json(again)["status"] == "done"
    assert effects_of(repo, run_id) == Counter({"before ran": 1, "risky unsafe": 1, "after ran": 1})
    assert_like_uninterrupted(
        repo,
        run_id,
        final_state="end",
        transitions=[
            ("before", "done", "risky"),
            ("risky", "done", "after"),
            ("after", "done", "end"),
        ],
        outcomes=["counter=1", "", "counter=2"],
    )


def test_interrupted_reconcilable_step_is_reconciled_not_rerun(repo: Path) -> None:
    """Resume calls the reconcile hook of an interrupted step instead of running it again."""
    proc = vf(repo, "run", "crash_reconciled", "--json", env={"VIBFLOW_CRASH_AT": "transition:1"})
    assert proc.returncode == KILLED
    run_id = only_run_id(repo)

    resumed = vf(repo, "resume", run_id, "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert as_json(resumed)["status"] == "done"
    assert effects_of(repo, run_id) == Counter(
        {"before ran": 1, "settle reconciled": 1, "after ran": 1}
    )
    assert_like_uninterrupted(
        repo,
        run_id,
        final_state="end",
        transitions=[
            ("before", "done", "settle"),
            ("settle", "done", "after"),
            ("after", "done", "end"),
        ],
        outcomes=["counter=1", "reconciled", "counter=2"],
    )


def test_guard_refusal_audit_row_still_names_the_guard_after_a_crash(repo: Path) -> None:
    """A guard refusal cut off by a crash is re-audited on resume naming the refusing guard."""
    proc = vf(repo, "run", "guarded_apply", "--json")
    run_id = str(as_json(proc)["run_id"])
    proc = vf(repo, "step", run_id, *GUARDED_ANSWERS["choose"], "--json")
    assert proc.returncode == 0, proc.stderr
    # Without VIBFLOW_TEST_APPLY the feature flag refuses: entry 4 is the refusal.
    proc = vf(
        repo, "step", run_id, *GUARDED_ANSWERS["confirm"], env={"VIBFLOW_CRASH_AT": "transition:4"}
    )
    assert proc.returncode == KILLED, proc.stderr
    assert status_of(repo, run_id) == ("blocked", "confirm")

    proc = vf(repo, "resume", run_id, "--json", env=APPLY_ENV)
    assert proc.returncode == 0, proc.stderr
    assert as_json(proc)["status"] == "done"
    assert_one_audit_row_per_entry(repo, run_id, journal_seqs(repo, run_id))
    refusals = [
        row
        for row in audit_rows(repo)
        if row.get("run_id") == run_id and row["event"] == "guard_refused"
    ]
    assert [(r["transition_seq"], r["result"]) for r in refusals] == [(4, "refused")]
    assert refusals[0].get("guard") == "feature_flag"  # as an uninterrupted refusal records
    assert effects_of(repo, run_id) == GUARDED_EFFECTS
