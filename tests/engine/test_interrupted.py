"""Runs whose owner died are reported interrupted and can be picked up again;
runs whose owner is alive are not.

Owners are real harness processes killed with SIGKILL, either at an injected
point (``VIBFLOW_CRASH_AT``) or by this test while a slow step sleeps.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import pytest
from vibflow_testing.cli import as_json, clean_env, effects_of, harness_cmd, query, vf

pytestmark = pytest.mark.cli  # every test here spawns the CLI

KILLED = -signal.SIGKILL
LINEAR_EFFECTS = Counter({f"{s} ran": 1 for s in ("one", "two", "three", "four", "five")})


def vf_popen(root: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        harness_cmd(*args),
        cwd=root,
        env=clean_env(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    )


def listed(root: Path) -> dict[str, dict[str, Any]]:
    proc = vf(root, "runs", "list", "--json")
    assert proc.returncode == 0, proc.stderr
    return {r["run_id"]: r for r in as_json(proc)["runs"]}


def crashed_linear(root: Path, at: int = 2) -> str:
    """A linear run whose process was SIGKILLed right after journal entry ``at``."""
    proc = vf(root, "run", "linear", "--json", env={"VIBFLOW_CRASH_AT": f"transition:{at}"})
    assert proc.returncode == KILLED, proc.stderr
    (row,) = query(root, "SELECT run_id FROM runs")
    return str(row[0])


@contextmanager
def live_slow_run(root: Path, sleep: str = "30") -> Iterator[tuple[subprocess.Popen[str], str]]:
    """A crash_slow run whose owner process is alive, sleeping inside step 'nap'."""
    proc = vf_popen(root, "run", "crash_slow", "--input", f"sleep={sleep}")
    try:
        deadline = time.monotonic() + 30
        run_id = None
        while run_id is None:
            assert time.monotonic() < deadline, "the run never reached 'nap'"
            assert proc.poll() is None, "the slow run ended early"
            try:
                rows = query(root, "SELECT run_id, status, state FROM runs")
            except sqlite3.Error:  # the journal is still being created
                rows = []
            if rows and rows[0][1:] == ("running", "nap"):
                run_id = str(rows[0][0])
            else:
                time.sleep(0.02)
        yield proc, run_id
    finally:
        proc.kill()
        proc.wait(timeout=30)


# -- an owner that died --------------------------------------------------------------------


def test_run_whose_owner_died_is_listed_interrupted(repo: Path) -> None:
    """After its owner is SIGKILLed, `runs list --json` shows the run interrupted at its state."""
    run_id = crashed_linear(repo)
    run = listed(repo)[run_id]
    assert (run["status"], run["state"]) == ("interrupted", "three")
    assert str(run["recap_id"]).startswith("rcp_")
    # Noticing it is journaled (and audited) once, not on every look.
    listed(repo)
    events = [r[0] for r in query(repo, "SELECT event FROM entries WHERE run_id=?", (run_id,))]
    assert events.count("interrupted") == 1


def test_killed_owner_not_yet_reaped_counts_as_dead(repo: Path) -> None:
    """An owner killed but not yet reaped (a zombie) counts as dead: the run is interrupted."""
    with live_slow_run(repo) as (proc, run_id):
        os.kill(proc.pid, signal.SIGKILL)
        stat = Path(f"/proc/{proc.pid}/stat")
        deadline = time.monotonic() + 10
        while stat.read_text(encoding="ascii").rsplit(")", 1)[1].split()[0] != "Z":
            assert time.monotonic() < deadline, "the killed owner never became a zombie"
            time.sleep(0.01)
        assert listed(repo)[run_id]["status"] == "interrupted"
        assert stat.exists()  # still unreaped while the run was judged
    assert proc.returncode == KILLED


def test_project_recap_lists_interrupted_run_with_resume_command(repo: Path) -> None:
    """`vibflow recap --json` lists an interrupted run in open_runs with `vibflow resume RUN`."""
    run_id = crashed_linear(repo)
    proc = vf(repo, "recap", "--json")  # no `runs list` first: the recap itself notices
    assert proc.returncode == 0, proc.stderr
    data = as_json(proc)
    assert data["kind"] == "project"
    (item,) = [r for r in data["open_runs"] if r["run_id"] == run_id]
    assert item["status"] == "interrupted"
    assert item["state"] == "three"
    assert item["resume_command"] == f"vibflow resume {run_id}"


def test_run_recap_of_interrupted_run_has_resume_hint(repo: Path) -> None:
    """`vibflow recap RUN --json` of an interrupted run carries a resume_hint with run and state."""
    run_id = crashed_linear(repo)
    proc = vf(repo, "recap", run_id, "--json")
    assert proc.returncode == 0, proc.stderr
    body = as_json(proc)
    assert body["kind"] == "run"
    assert body["subject_id"] == run_id
    assert "interrupted" in body["headline"]
    hint = body["resume_hint"]
    assert hint["run_id"] == run_id
    assert hint["state"] == "three"
    assert hint["command"] == f"vibflow resume {run_id}"
    assert f"vibflow resume {run_id}" in body["next_actions"]


def test_resume_from_recap_continues_the_interrupted_run(repo: Path) -> None:
    """`vibflow resume --from-recap ID` finishes the run the recap names, each step once."""
    run_id = crashed_linear(repo)
    recap_id = as_json(vf(repo, "recap", run_id, "--json"))["id"]
    proc = vf(repo, "resume", "--from-recap", recap_id, "--json")
    assert proc.returncode == 0, proc.stderr
    data = as_json(proc)
    assert (data["run_id"], data["status"], data["state"]) == (run_id, "done", "end")
    assert data["attempt"] == 2
    assert effects_of(repo, run_id) == LINEAR_EFFECTS
    assert len(listed(repo)) == 1  # no new run


def test_resume_from_recap_fork_starts_new_run_at_hint_state(repo: Path) -> None:
    """`--from-recap ID --fork` makes a new run (parent_run = old) starting at the hint's state."""
    run_id = crashed_linear(repo)
    recap_id = as_json(vf(repo, "recap", run_id, "--json"))["id"]
    proc = vf(repo, "resume", "--from-recap", recap_id, "--fork", "--json")
    assert proc.returncode == 0, proc.stderr
    fork = as_json(proc)
    new_id = fork["run_id"]
    assert new_id != run_id
    assert new_id.startswith("run_")
    assert fork["parent_run"] == run_id
    assert (fork["status"], fork["state"]) == ("done", "end")

    timeline = as_json(vf(repo, "runs", "timeline", new_id, "--json"))["entries"]
    assert (timeline[0]["kind"], timeline[0]["to"]) == ("start", "three")
    show = as_json(vf(repo, "runs", "show", new_id, "--json"))
    assert [(t["from"], t["event"], t["to"]) for t in show["transitions"]] == [
        ("three", "done", "four"),
        ("four", "done", "five"),
        ("five", "done", "end"),
    ]
    assert effects_of(repo, new_id) == Counter({"three ran": 1, "four ran": 1, "five ran": 1})
    # The old run is left as it was: interrupted, nothing re-ran for it.
    old = listed(repo)[run_id]
    assert (old["status"], old["state"]) == ("interrupted", "three")
    assert effects_of(repo, run_id) == Counter({"one ran": 1, "two ran": 1})
    audit = vf(repo, "audit", "verify", "--json")
    assert audit.returncode == 0, audit.stdout
    assert as_json(audit)["ok"] is True


# -- an owner that is alive ------------------------------------------------------------------


def test_run_with_live_owner_is_running_and_resume_is_busy(repo: Path) -> None:
    """A run whose owner is alive (sleeping in a step) is `running`, and resume exits 3 (busy)."""
    with live_slow_run(repo) as (proc, run_id):
        run = listed(repo)[run_id]
        assert (run["status"], run["state"]) == ("running", "nap")

        busy = vf(repo, "resume", run_id, "--json")
        assert busy.returncode == 3, busy.stderr
        assert "Traceback" not in busy.stderr
        assert as_json(busy)["error"]["kind"] == "busy"
        assert f"process {proc.pid}" in busy.stderr

        aborted = vf(repo, "runs", "abort", run_id)
        assert aborted.returncode == 3, aborted.stderr

        recap = as_json(vf(repo, "recap", "--json"))
        assert run_id not in [r["run_id"] for r in recap["open_runs"]]
        assert proc.poll() is None  # none of that disturbed the owner

        entries = query(repo, "SELECT kind, event FROM entries WHERE run_id=?", (run_id,))
        assert ("status", "interrupted") not in entries
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    # Only now that it is dead is it interrupted.
    assert listed(repo)[run_id]["status"] == "interrupted"


# -- a process killed between claiming a waiting run and its first commit --------------------


def _stopped(pid: int) -> None:
    """Wait until ``pid`` has really stopped (or died) after SIGSTOP."""
    stat = Path(f"/proc/{pid}/stat")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            state = stat.read_text(encoding="ascii").rsplit(")", 1)[1].split()[0]
        except OSError:
            return
        if state in ("T", "t", "Z", "X"):
            return
        time.sleep(0.0001)
    raise AssertionError(f"process {pid} did not stop")


def _has_open(pid: int, path: Path) -> bool:
    try:
        fds = list(Path(f"/proc/{pid}/fd").iterdir())
    except OSError:
        return False
    for fd in fds:
        try:
            if fd.readlink() == path:
                return True
        except OSError:
            continue
    return False


def _kill_inside_claim(root: Path, attempts: int = 5) -> str | None:
    """SIGKILL `vibflow step` after it claimed a waiting run, before it committed.

    Once the step process has opened the journal it is run in tiny bursts
    (SIGCONT, SIGSTOP) and the journal is read while it is stopped: the first
    time the claim shows on a run that has not moved, the process is killed
    right there. Retried on a fresh run if it ever got through; returns the
    stuck run's id, or None.
    """
    path = (root / ".vibflow" / "runs.db").resolve()
    sql = "SELECT owner_token, seq FROM runs WHERE run_id=?"
    for _ in range(attempts):
        started = vf(root, "run", "guarded_apply", "--json")
        assert started.returncode == 0, started.stderr
        run_id = str(as_json(started)["run_id"])
        hit = False
        with closing(sqlite3.connect(f"file:{path}?mode=rw", uri=True, timeout=30)) as db:
            proc = subprocess.Popen(
                harness_cmd("step", run_id, "restore", "--input", "option=a"),
                cwd=root,
                env=clean_env(),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            try:
                while proc.poll() is None and not _has_open(proc.pid, path):
                    time.sleep(0.001)
                while proc.poll() is None:
                    os.kill(proc.pid, signal.SIGSTOP)
                    _stopped(proc.pid)
                    try:
                        token, seq = db.execute(sql, (run_id,)).fetchone()
                    except sqlite3.OperationalError:
                        # Frozen mid-transaction it can hold a WAL lock our read
                        # needs (SQLITE_PROTOCOL): let it run on and look again.
                        os.kill(proc.pid, signal.SIGCONT)
                        continue
                    if seq == 1 and token is not None:
                        os.kill(proc.pid, signal.SIGKILL)
                        hit = True
                        break
                    os.kill(proc.pid, signal.SIGCONT)
                    if seq != 1:
                        break
            finally:
                if proc.returncode is None and not hit:
                    os.kill(proc.pid, signal.SIGCONT)
                proc.wait(timeout=60)
        if hit:
            assert proc.returncode == KILLED
            assert query(root, "SELECT status, seq FROM runs WHERE run_id=?", (run_id,)) == [
                ("waiting", 1)
            ]
            return run_id
    return None


def test_waiting_run_whose_claiming_process_died_can_be_stepped(repo: Path) -> None:
    """A `step` killed after claiming a waiting run, before committing, leaves it steppable."""
    run_id = _kill_inside_claim(repo)
    if run_id is None:
        pytest.skip("could not kill a process inside the claim window")
    proc = vf(repo, "step", run_id, "restore", "--input", "option=a", "--json")
    assert proc.returncode == 0, proc.stderr
    data = as_json(proc)
    assert (data["status"], data["state"]) == ("waiting", "confirm")
    assert effects_of(repo, run_id)["sandwich sandwich"] == 1


def test_waiting_run_whose_claiming_process_died_can_be_aborted(repo: Path) -> None:
    """A waiting run whose claiming process died can still be aborted with `runs abort`."""
    run_id = _kill_inside_claim(repo)
    if run_id is None:
        pytest.skip("could not kill a process inside the claim window")
    proc = vf(repo, "runs", "abort", run_id, "--json")
    assert proc.returncode == 0, proc.stderr
    assert as_json(proc)["status"] == "aborted"
