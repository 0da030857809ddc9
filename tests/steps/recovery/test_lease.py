"""The project recovery lease, with real files, real processes and the real CLI.

Pins DESIGN §4.3: of four processes acquiring at once exactly one holds the
lease and the others are told it is busy (with the operation id and an ETA);
confirms of other runs exit 3 with that message and write nothing; read-only
commands never wait for it; a lease that expires mid-restore while a
competing owner takes over makes the apply stop before its next file, end
``aborted`` ("restore exceeded lock window") and leave the new owner's lease in
place; a torn lease file is replaced, ``lease.mutex`` is never deleted, the
generation grows on every takeover, and a dead holder on this host is taken
over at once.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from vibflow_testing.apply import APPLY, ok_json, to_confirm
from vibflow_testing.cli import as_json, clean_env, harness_cmd, vf
from vibflow_testing.git import git
from vibflow_testing.repo import write

from vibflow.steps.recovery.lease import LeaseBusy, LeaseFile, LeaseLost
from vibflow.wiring import Project

# A helper process that holds (or races for) the lease. argv: folder, operation id, mode,
# start-at epoch seconds. Prints one JSON line; a holder then waits for `<folder>/stop`.
LEASE_PROCESS = r"""
import json, os, sys, time
from pathlib import Path
from vibflow.steps.recovery.lease import LeaseBusy, LeaseFile

folder, op, mode, start_at = Path(sys.argv[1]), sys.argv[2], sys.argv[3], float(sys.argv[4])
lease_file = LeaseFile(folder, ttl_seconds=float(os.environ.get("LEASE_TTL", "60")))
while time.time() < start_at:
    time.sleep(0.001)
try:
    lease = lease_file.acquire(op)
except LeaseBusy as busy:
    answer = {"busy": busy.operation_id, "eta": busy.eta_seconds, "left": busy.lease_seconds_left}
    print(json.dumps(answer), flush=True)
    sys.exit(3)
print(json.dumps({"held": op, "generation": lease.record.generation}), flush=True)
if mode == "die":
    os._exit(0)  # no release: a dead holder's lease stays on disk
stop = folder / "stop"
if mode == "mutex":  # an apply in the middle of a file commit: lease and mutex held
    with lease.commit():
        while not stop.exists():
            time.sleep(0.02)
else:
    while not stop.exists():
        time.sleep(0.02)
lease.release()
"""


# -- helpers ------------------------------------------------------------------------------


def lease_process(
    folder: Path, op: str, mode: str = "hold", start_at: float = 0.0
) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", LEASE_PROCESS, str(folder), op, mode, str(start_at)],
        env=clean_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def first_line(proc: subprocess.Popen[str]) -> dict[str, Any]:
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line, proc.stderr.read() if proc.stderr else "no output"
    data = json.loads(line)
    assert isinstance(data, dict)
    return data


def stop(folder: Path, *procs: subprocess.Popen[str]) -> None:
    """Tell holders to release and exit; collect every process (closing its pipes)."""
    (folder / "stop").touch()
    for proc in procs:
        proc.communicate(timeout=30)
    (folder / "stop").unlink(missing_ok=True)


@pytest.fixture
def holder(repo: Path) -> Iterator[tuple[Path, subprocess.Popen[str], str]]:
    """A separate live process holding the project's lease (operation op_holder)."""
    folder = repo / ".vibflow" / "recovery"
    proc = lease_process(folder, "op_holder")
    assert first_line(proc)["held"] == "op_holder"
    yield folder, proc, "op_holder"
    if proc.poll() is None:
        stop(folder, proc)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def lease_json(folder: Path) -> dict[str, Any]:
    data = json.loads((folder / "lease.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def drifted(repo: Path, n: int = 4) -> list[str]:
    """n drift files under scripts/ committed, memory on the login form, a checkpoint,
    then all n changed by an agent. Returns their paths."""
    paths = [f"scripts/tool_{i:02d}.py" for i in range(n)]
    write(repo, "src/ui/login.py", "form\n")
    for rel in paths:
        write(repo, rel, f"original {rel}\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "app")
    assert vf(repo, "memory", "relevant", "src/ui/login.py", "the form", "--yes").returncode == 0
    ok_json(vf(repo, "checkpoint", "create", "--json"))
    time.sleep(0.05)
    for rel in paths:
        write(repo, rel, f"agent {rel}\n")
    return paths


def confirm_cmd(at: dict[str, Any]) -> list[str]:
    return harness_cmd(
        "step",
        at["run_id"],
        "confirm",
        "--input",
        f"confirmation={at['confirmation_expected']}",
        "--json",
    )


def restored(repo: Path, paths: list[str]) -> set[str]:
    return {p for p in paths if (repo / p).read_text(encoding="utf-8") == f"original {p}\n"}


# -- concurrency ------------------------------------------------------------------------------


@pytest.mark.cli
def test_four_processes_acquiring_at_once_exactly_one_holds(tmp_path: Path) -> None:
    """Four processes acquiring the same lease at the same instant: exactly one holds it,
    the other three are busy with the holder's operation id and an ETA near the TTL."""
    folder = tmp_path / "recovery"
    start_at = time.time() + 1.5
    procs = [lease_process(folder, f"op_racer{i}", "hold", start_at) for i in range(4)]
    answers = [first_line(p) for p in procs]
    held = [a for a in answers if "held" in a]
    busy = [a for a in answers if "busy" in a]
    assert len(held) == 1, answers
    assert len(busy) == 3, answers
    winner = held[0]["held"]
    assert all(b["busy"] == winner for b in busy)
    assert all(b["eta"] is None and 50 < b["left"] <= 60 for b in busy)  # no progress yet
    assert lease_json(folder)["operation_id"] == winner
    stop(folder, *procs)
    assert [p.returncode for p in procs].count(3) == 3
    assert not (folder / "lease.json").exists()


@pytest.mark.cli
def test_confirms_of_four_runs_are_busy_while_an_apply_holds_the_lease(
    repo: Path, holder: tuple[Path, subprocess.Popen[str], str]
) -> None:
    """Four runs confirmed at once while another apply holds the lease all exit 3 with the
    holder's operation id and a retry time, write nothing and keep the holder's lease;
    once it is released, a confirm goes through."""
    folder, proc, op = holder
    paths = drifted(repo)
    runs = [to_confirm(repo) for _ in range(4)]
    held_before = lease_json(folder)
    started = [
        subprocess.Popen(
            confirm_cmd(at),
            cwd=repo,
            env=clean_env(**APPLY),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for at in runs
    ]
    outs = [p.communicate(timeout=120) for p in started]
    for p, (out, _err) in zip(started, outs, strict=True):
        assert p.returncode == 3, out[-1500:]
        data = json.loads(out)
        assert (data["status"], data["state"]) == ("blocked", "confirm")
        assert op in data["blocked_reason"]
        assert "not known yet" in data["blocked_reason"]  # the holder reported no progress
    assert restored(repo, paths) == set()
    assert lease_json(folder) == held_before
    stop(folder, proc)
    done = subprocess.run(
        confirm_cmd(runs[0]),
        cwd=repo,
        env=clean_env(**APPLY),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-1500:]
    assert as_json(done)["status"] == "done"
    assert restored(repo, paths) == set(paths)


@pytest.mark.cli
def test_read_only_commands_are_never_blocked_by_a_held_lease(repo: Path) -> None:
    """While another process holds the lease *and* its mutex (mid-commit), `recover
    --explain`, `recover --preview`, `checkpoint list`, `memory show`, `runs list` and
    `recap` finish promptly with exit 0."""
    drifted(repo)
    folder = repo / ".vibflow" / "recovery"
    proc = lease_process(folder, "op_busy_apply", "mutex")
    try:
        assert first_line(proc)["held"] == "op_busy_apply"
        for args in (
            ("recover", "--explain", "--json"),
            ("recover", "--preview", "--json"),
            ("checkpoint", "list", "--json"),
            ("memory", "show", "--json"),
            ("runs", "list", "--json"),
            ("recap", "--json"),
        ):
            began = time.monotonic()
            out = vf(repo, *args, env=APPLY)
            took = time.monotonic() - began
            assert out.returncode == 0, (args, out.stderr)
            assert took < 8, f"{args} waited {took:.1f} s for the lease"
    finally:
        stop(folder, proc)


# -- a lease lost mid-restore ---------------------------------------------------------------


class SlowClock:
    """The real time, but every reading takes ``delay`` seconds: a restore that checks the
    lease per file becomes slow enough to outlive a 5 s lease."""

    def __init__(self, delay: float) -> None:
        self.delay = delay

    def __call__(self) -> datetime:
        time.sleep(self.delay)
        return datetime.now(UTC)


# A competing owner. argv: folder, repo, paths as JSON. Waits until the lease has expired,
# takes it over, prints its generation and which files were restored at that moment, then
# holds the lease until `<folder>/stop` exists.
RIVAL_PROCESS = r"""
import json, sys, time
from pathlib import Path
from vibflow.steps.recovery.lease import LeaseBusy, LeaseFile

folder, repo, paths = Path(sys.argv[1]), Path(sys.argv[2]), json.loads(sys.argv[3])
rival = LeaseFile(folder, ttl_seconds=60)
deadline = time.monotonic() + 90
while time.monotonic() < deadline:
    status = rival.status()
    if status is not None and status["expired"]:
        try:
            lease = rival.acquire("op_rival")
        except LeaseBusy:
            continue
        back = [p for p in paths if (repo / p).read_text() == f"original {p}\n"]
        print(json.dumps({"generation": lease.record.generation, "restored": back}), flush=True)
        while not (folder / "stop").exists():
            time.sleep(0.02)
        lease.release()
        sys.exit(0)
    time.sleep(0.01)
print(json.dumps({"timeout": True}), flush=True)
"""


def audit_of(repo: Path, run_id: str) -> list[dict[str, Any]]:
    rows = [
        json.loads(line)
        for line in (repo / ".vibflow/audit.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    return [r for r in rows if r.get("run_id") == run_id]


@pytest.mark.cli
def test_a_lease_lost_mid_restore_aborts_before_the_next_file(repo: Path) -> None:
    """With `recovery.lease_seconds: 5` and a restore slowed past it, a competing process
    takes the expired lease over: the apply writes no file after that, the run ends
    aborted with "restore exceeded lock window" (audit result aborted, no success
    reported) and the new owner's lease (next generation) is left in place."""
    write(repo, ".vibflow/policy.yaml", "recovery:\n  lease_seconds: 5\n")
    paths = drifted(repo, n=30)
    at = to_confirm(repo)
    project = Project(repo, env=clean_env(**APPLY))
    assert project.recovery_policy.lease_seconds == 5
    folder = project.state_dir / "recovery"
    project.__dict__["lease_file"] = LeaseFile(folder, ttl_seconds=5, clock=SlowClock(0.25))
    rival = subprocess.Popen(
        [sys.executable, "-c", RIVAL_PROCESS, str(folder), str(repo), json.dumps(paths)],
        env=clean_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        run = project.runner.send(
            at["run_id"], "confirm", {"confirmation": at["confirmation_expected"]}
        )
        taken = first_line(rival)
        assert "generation" in taken, "the competing owner never took the lease over"
        held = lease_json(folder)
        assert held["operation_id"] == "op_rival"
        assert held["generation"] == taken["generation"] >= 2
    finally:
        stop(folder, rival)
    assert (run.status, run.state) == ("aborted", "result")
    public = run.context["public"]
    assert public["result"]["aborted"] == "restore exceeded lock window"
    assert "undo" not in public["result"]
    assert "changed_files" not in public
    done_now = restored(repo, paths)
    assert done_now == set(taken["restored"]), "a file was written after the lease was lost"
    assert 0 < len(done_now) < len(paths)
    assert public["result"]["files_modified"] == len(done_now)
    assert ok_json(vf(repo, "runs", "show", at["run_id"], "--json"))["status"] == "aborted"
    mine = audit_of(repo, at["run_id"])
    from_apply = [r for r in mine if r.get("from_state") == "apply"]
    assert [r["result"] for r in from_apply] == ["aborted"]
    assert from_apply[0]["sandwich_checkpoint_id"] == at["sandwich_checkpoint_id"]
    assert (mine[-1]["event"], mine[-1]["result"]) == ("run_finished", "aborted")
    assert ok_json(vf(repo, "audit", "verify", "--json"))["ok"] is True


# -- the lease file itself ------------------------------------------------------------------


def test_a_torn_or_garbage_lease_file_is_replaced(tmp_path: Path) -> None:
    """A lease.json that is torn, not JSON, or JSON of the wrong shape is treated as no
    lease: acquiring replaces it with a whole, valid record."""
    folder = tmp_path / "recovery"
    folder.mkdir()
    for junk in (b'{"owner_id": "x", "generat', b"\x00\xff garbage", b"[1, 2, 3]", b"{}"):
        (folder / "lease.json").write_bytes(junk)
        lease = LeaseFile(folder).acquire("op_fresh")
        data = lease_json(folder)
        assert data["operation_id"] == "op_fresh"
        assert data["generation"] == lease.record.generation >= 1
        assert lease.release()


def test_the_mutex_file_is_never_deleted(tmp_path: Path) -> None:
    """acquire, check, renew, commit, release, expiry takeover and busy refusals all leave
    `lease.mutex` in place as the same file (same inode)."""
    folder = tmp_path / "recovery"
    clock = Clock()
    lease_file = LeaseFile(folder, ttl_seconds=5, clock=clock)
    first = lease_file.acquire("op_1")
    mutex = folder / "lease.mutex"
    inode = mutex.stat().st_ino
    first.check()
    first.renew()
    with first.commit():
        assert mutex.stat().st_ino == inode
    with pytest.raises(LeaseBusy):
        lease_file.acquire("op_2")
    clock.advance(6)
    second = lease_file.acquire("op_2")
    assert not first.release()
    assert second.release()
    assert mutex.exists()
    assert mutex.stat().st_ino == inode


def test_the_generation_grows_on_every_takeover_and_old_holders_lose(tmp_path: Path) -> None:
    """Each takeover of an expired lease raises the generation by one; every earlier holder
    then fails check/renew/commit with LeaseLost and its release leaves the current
    owner's lease untouched."""
    folder = tmp_path / "recovery"
    clock = Clock()
    lease_file = LeaseFile(folder, ttl_seconds=5, clock=clock)
    holders = [lease_file.acquire("op_0")]
    for i in range(1, 5):
        clock.advance(5.5)
        holders.append(lease_file.acquire(f"op_{i}"))
    assert [h.record.generation for h in holders] == [1, 2, 3, 4, 5]
    current = lease_json(folder)
    for old in holders[:-1]:
        with pytest.raises(LeaseLost):
            old.check()
        with pytest.raises(LeaseLost):
            old.renew()
        with pytest.raises(LeaseLost), old.commit():
            pytest.fail("an old holder entered the commit section")
        assert old.release() is False
        assert lease_json(folder) == current
    holders[-1].check()


def test_a_released_lease_never_revives_an_older_handle(tmp_path: Path) -> None:
    """After A expires, B takes over and releases, and C acquires anew, A's handle still
    fails its check (ownership is more than the generation number)."""
    folder = tmp_path / "recovery"
    clock = Clock()
    lease_file = LeaseFile(folder, ttl_seconds=5, clock=clock)
    a = lease_file.acquire("op_a")
    clock.advance(6)
    b = lease_file.acquire("op_b")
    assert b.release()
    c = lease_file.acquire("op_c")
    clock.advance(-6)  # even while A's own expiry has not passed
    with pytest.raises(LeaseLost):
        a.check()
    c.check()


@pytest.mark.cli
def test_a_live_holder_is_busy_until_expiry_then_taken_over(tmp_path: Path) -> None:
    """A lease held by a live process is busy (operation id, ETA counting down) until it
    expires; then the next acquirer takes it over with the next generation."""
    folder = tmp_path / "recovery"
    proc = lease_process(folder, "op_alive")
    try:
        assert first_line(proc)["generation"] == 1
        clock = Clock()
        lease_file = LeaseFile(folder, ttl_seconds=60, clock=clock)
        with pytest.raises(LeaseBusy) as busy:
            lease_file.acquire("op_next")
        assert busy.value.operation_id == "op_alive"
        assert busy.value.eta_seconds is None  # it reported no progress: no estimate
        assert 55 < busy.value.lease_seconds_left <= 60
        assert "op_alive" in busy.value.message
        clock.advance(30)
        with pytest.raises(LeaseBusy) as later:
            lease_file.acquire("op_next")
        assert 25 < later.value.lease_seconds_left <= 30
        clock.advance(31)
        taken = lease_file.acquire("op_next")
        assert taken.record.generation == 2
        assert lease_json(folder)["operation_id"] == "op_next"
    finally:
        stop(folder, proc)
    assert lease_json(folder)["operation_id"] == "op_next"  # the old holder's release was a no-op


@pytest.mark.cli
def test_a_dead_holder_on_this_host_is_taken_over_at_once(tmp_path: Path) -> None:
    """A lease left by a process that died without releasing (same host, far from expiry)
    is taken over immediately, with the next generation."""
    folder = tmp_path / "recovery"
    proc = lease_process(folder, "op_dead", "die")
    assert first_line(proc)["held"] == "op_dead"
    proc.communicate(timeout=30)
    left = lease_json(folder)
    assert left["operation_id"] == "op_dead"
    assert datetime.fromisoformat(left["expires_at"]) > datetime.now(UTC) + timedelta(seconds=50)
    began = time.monotonic()
    lease = LeaseFile(folder).acquire("op_after")
    assert time.monotonic() - began < 5
    assert lease.record.generation == left["generation"] + 1
    assert lease_json(folder)["operation_id"] == "op_after"


def test_a_holder_on_another_host_is_waited_for_until_expiry(tmp_path: Path) -> None:
    """A lease recorded by another host (liveness unknown) is never assumed dead: busy
    until it expires, then taken over."""
    folder = tmp_path / "recovery"
    folder.mkdir()
    clock = Clock()
    record = {
        "owner_id": "other-token",
        "operation_id": "op_elsewhere",
        "pid": 1,
        "host": "another-host.invalid",
        "started": "0",
        "acquired_at": clock.now.isoformat(),
        "expires_at": (clock.now + timedelta(seconds=60)).isoformat(),
        "generation": 7,
    }
    (folder / "lease.json").write_text(json.dumps(record), encoding="utf-8")
    lease_file = LeaseFile(folder, clock=clock)
    with pytest.raises(LeaseBusy) as busy:
        lease_file.acquire("op_here")
    assert busy.value.operation_id == "op_elsewhere"
    clock.advance(61)
    assert lease_file.acquire("op_here").record.generation == 8


def test_renew_if_due_renews_only_once_a_third_of_the_lease_is_used(tmp_path: Path) -> None:
    """A restore asks after every batch: the lease is rewritten only once a third of its
    time has passed, and a lease taken over meanwhile still fails with LeaseLost."""
    folder = tmp_path / "recovery"
    clock = Clock()
    lease_file = LeaseFile(folder, ttl_seconds=6, clock=clock)
    lease = lease_file.acquire("op_1")
    first = lease_json(folder)
    clock.advance(1.9)
    lease.renew_if_due()
    assert lease_json(folder) == first  # 4.1 s of 6 left: not yet
    clock.advance(0.2)
    lease.renew_if_due()
    renewed = lease_json(folder)
    assert renewed["expires_at"] > first["expires_at"]
    clock.advance(6.5)  # expired: someone else takes it
    other = lease_file.acquire("op_2")
    with pytest.raises(LeaseLost):
        lease.renew_if_due()
    assert other.release()


def test_generations_keep_growing_across_releases(tmp_path: Path) -> None:
    """A released lease leaves no lease.json, yet the next holder's generation is higher
    than every earlier one: a stalled earlier restore can never share its temp names."""
    folder = tmp_path / "recovery"
    lease_file = LeaseFile(folder)
    seen = []
    for i in range(4):
        lease = lease_file.acquire(f"op_{i}")
        seen.append(lease.record.generation)
        assert lease.release()
        assert not (folder / "lease.json").exists()
    assert seen == sorted(set(seen))
    assert seen[0] >= 1


def test_a_damaged_generation_counter_still_yields_a_higher_generation_than_the_lease(
    tmp_path: Path,
) -> None:
    """A torn counter file counts as nothing; the live lease's own generation still wins."""
    folder = tmp_path / "recovery"
    clock = Clock()
    lease_file = LeaseFile(folder, ttl_seconds=5, clock=clock)
    for _ in range(3):
        lease_file.acquire("op_x")
        clock.advance(6)
    (folder / "lease.generation").write_text("{torn", encoding="utf-8")
    assert lease_file.acquire("op_y").record.generation == 4
