"""Crash the recover flow's 50-file full rollback at every journal entry and at items.

Each case SIGKILLs a real harness process (``VIBFLOW_CRASH_AT=transition:N``
for every entry of the flow, ``item:K`` inside the apply), then drives the run
on with ``vibflow resume`` / ``vibflow step`` until it ends, and checks: the
run ends ``done``; the work tree is byte-identical (content and mode) to an
uninterrupted run's; no file restored before the crash is written again; the
audit rail has a row for every journal entry and verifies. After an item
crash, ``vibflow recap`` names the interrupted run first with its resume
command, and a file the user edits before resuming is not overwritten: the run
goes back to confirm with a new sandwich.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import stat
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from vibflow_testing.cli import as_json, vf
from vibflow_testing.git import git

pytestmark = pytest.mark.cli  # every test here spawns the CLI

KILLED = -signal.SIGKILL
APPLY = {"VIBFLOW_RECOVERY_APPLY": "1"}
FILES = [f"src/pkg/mod_{i:02d}.py" for i in range(50)]
EXECUTABLE = {FILES[3], FILES[17]}  # +x in the checkpoint, dropped by the agent
# The recover flow through a full rollback, one journal entry each (seq 0 is the start).
FLOW_ENTRIES = [
    (1, "explain", "done", "recommend"),
    (2, "recommend", "done", "preview"),
    (3, "preview", "done", "choose"),
    (4, "choose", "choose", "route"),
    (5, "route", "restore", "sandwich"),
    (6, "sandwich", "done", "confirm"),
    (7, "confirm", "confirm", "apply"),
    (8, "apply", "done", "result"),
    (9, "result", "finished", "result"),
]
LAST = FLOW_ENTRIES[-1][0]
ITEM_CRASHES = [1, 2, 10, 25, 49]

Stamp = dict[str, tuple[int, int]]


# -- helpers ------------------------------------------------------------------------------


def ok_json(proc: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert proc.returncode == 0, (proc.returncode, proc.stdout[-2000:], proc.stderr)
    return as_json(proc)


def tree_state(root: Path) -> dict[str, tuple[str, str]]:
    """Every work-tree path outside .git/.vibflow → (file|exec, sha256 of its bytes)."""
    out: dict[str, tuple[str, str]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in (".git", ".vibflow")]
        for name in filenames:
            path = Path(dirpath, name)
            kind = "exec" if path.lstat().st_mode & stat.S_IXUSR else "file"
            out[path.relative_to(root).as_posix()] = (
                kind,
                hashlib.sha256(path.read_bytes()).hexdigest(),
            )
    return out


def stamps(root: Path) -> Stamp:
    """(inode, mtime_ns) of each of the 50 files: a restore's atomic rename changes both."""
    out = {}
    for rel in FILES:
        st = (root / rel).lstat()
        out[rel] = (st.st_ino, st.st_mtime_ns)
    return out


def original(rel: str) -> str:
    return f"# {rel}\nVALUE = {sum(map(ord, rel))}\n"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A committed project of 50 files (two executable); copied for every case."""
    root = tmp_path_factory.mktemp("base") / "project"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.email", "dev@example.invalid")
    git(root, "config", "user.name", "Dev")
    (root / "README.md").write_text("hello\n", encoding="utf-8")
    for rel in FILES:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(original(rel), encoding="utf-8")
        if rel in EXECUTABLE:
            path.chmod(0o755)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "app")
    return root


def drifted_copy(base: Path, where: Path) -> Path:
    """A copy of the base project with a checkpoint, then all 50 files changed by an
    agent (and the two executables made plain)."""
    root = where / "project"
    shutil.copytree(base, root, symlinks=True)
    ok_json(vf(root, "checkpoint", "create", "--json"))
    time.sleep(0.05)
    for rel in FILES:
        (root / rel).write_text(f"# {rel}\nVALUE = 'agent was here'\n", encoding="utf-8")
        if rel in EXECUTABLE:
            (root / rel).chmod(0o644)
    return root


def restored(root: Path) -> set[str]:
    """The files already back to their checkpoint content and mode."""
    out = set()
    for rel in FILES:
        path = root / rel
        executable = bool(path.stat().st_mode & stat.S_IXUSR)
        if path.read_text(encoding="utf-8") == original(rel) and executable == (rel in EXECUTABLE):
            out.add(rel)
    return out


def only_run_id(root: Path) -> str:
    runs = ok_json(vf(root, "runs", "list", "--json"))["runs"]
    assert len(runs) == 1, runs
    return str(runs[0]["run_id"])


class Driver:
    """Drive one recover run to its end, passing ``crash`` to every command until one
    process is killed; records the kill and the tree around it. Each move reads the
    previous command's ``--json`` (``runs show`` only after a kill)."""

    def __init__(self, root: Path, crash: str | None) -> None:
        self.root = root
        self.crash = crash
        self.kills: list[tuple[str, ...]] = []
        self.after_crash: Stamp = {}
        self.restored_at_crash: set[str] = set()
        self.run_id = ""

    def call(self, *args: str) -> dict[str, Any]:
        env = dict(APPLY)
        armed = self.crash is not None and not self.kills
        if armed:
            env["VIBFLOW_CRASH_AT"] = str(self.crash)
        proc = vf(self.root, *args, "--json", env=env)
        if proc.returncode == KILLED:
            assert armed, f"killed without a crash point: {args}"
            self.kills.append(args)
            self.after_crash = stamps(self.root)
            self.restored_at_crash = restored(self.root)
            if not self.run_id:
                self.run_id = only_run_id(self.root)
            return self.show()
        assert proc.returncode in (0, 1), (args, proc.returncode, proc.stderr)
        data = as_json(proc)
        self.run_id = self.run_id or data["run_id"]
        return data

    def start(self) -> dict[str, Any]:
        return self.call("run", "recover")

    def show(self) -> dict[str, Any]:
        return ok_json(vf(self.root, "runs", "show", self.run_id, "--json"))

    def move(self, data: dict[str, Any]) -> dict[str, Any]:
        """One move: resume an interrupted run, or answer its wait."""
        status, state = data["status"], data["state"]
        if status in ("interrupted", "running"):
            return self.call("resume", self.run_id)
        if (status, state) == ("waiting", "choose"):
            opt = next(o for o in data["plan"]["options"] if o["level"] == 4)
            return self.call("step", self.run_id, "choose", "--input", f"option={opt['option_id']}")
        if (status, state) == ("waiting", "confirm"):
            return self.confirm(data)
        raise AssertionError(f"unexpected run status {status} at {state}")

    def confirm(self, data: dict[str, Any]) -> dict[str, Any]:
        return self.call(
            "step",
            self.run_id,
            "confirm",
            "--input",
            f"confirmation={data['confirmation_expected']}",
        )

    def finish(self, data: dict[str, Any], limit: int = 12) -> dict[str, Any]:
        for _ in range(limit):
            if data["status"] in ("done", "failed", "aborted"):
                return data
            data = self.move(data)
        raise AssertionError(f"run {self.run_id} did not end after {limit} moves")


def timeline(root: Path, run_id: str) -> list[dict[str, Any]]:
    entries = ok_json(vf(root, "runs", "timeline", run_id, "--json"))["entries"]
    assert [e["seq"] for e in entries] == list(range(len(entries)))
    return list(entries)


def moves_of(entries: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    """The run's transitions and its finish, without the crash bookkeeping entries
    (interrupted / resumed) a crash adds."""
    return [
        (e["from"], e["event"], e["to"])
        for e in entries[1:]
        if e["event"] not in ("interrupted", "resumed")
    ]


def audit_report(root: Path, run_id: str) -> tuple[dict[str, Any], list[int]]:
    """`vibflow audit verify` and the sorted transition_seq of the run's audit rows (after
    a recap, so any rows a crash left unflushed are re-derived first)."""
    ok_json(vf(root, "recap", "--json"))
    report = ok_json(vf(root, "audit", "verify", "--json"))
    rows = [
        json.loads(line)
        for line in (root / ".vibflow" / "audit.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    return report, sorted(r["transition_seq"] for r in rows if r.get("run_id") == run_id)


@dataclass
class Case:
    """What one crashed-and-resumed (or uninterrupted) run left behind."""

    crash: str | None
    driver: Driver | None = None
    end: dict[str, Any] = field(default_factory=dict)
    tree: dict[str, tuple[str, str]] = field(default_factory=dict)
    final: Stamp = field(default_factory=dict)
    entries: list[dict[str, Any]] = field(default_factory=list)
    audit: dict[str, Any] = field(default_factory=dict)
    audit_seqs: list[int] = field(default_factory=list)
    error: BaseException | None = None

    def check(self) -> Driver:
        if self.error is not None:
            raise self.error
        assert self.driver is not None
        return self.driver


def run_case(base: Path, where: Path, crash: str | None) -> Case:
    case = Case(crash)
    try:
        root = drifted_copy(base, where)
        driver = case.driver = Driver(root, crash)
        case.end = driver.finish(driver.start())
        case.tree = tree_state(root)
        case.final = stamps(root)
        case.entries = timeline(root, driver.run_id)
        case.audit, case.audit_seqs = audit_report(root, driver.run_id)
    except BaseException as exc:  # noqa: BLE001 - re-raised by the test that reads the case
        case.error = exc
    return case


CRASHES = [f"transition:{e[0]}" for e in FLOW_ENTRIES] + [f"item:{k}" for k in ITEM_CRASHES]


@pytest.fixture(scope="module")
def matrix(base: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str | None, Case]:
    """Every crash case plus the uninterrupted reference, run side by side (each in its
    own project copy; the work is real subprocesses, so threads overlap their waits)."""
    where = {c: tmp_path_factory.mktemp("case") for c in [None, *CRASHES]}
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {c: pool.submit(run_case, base, where[c], c) for c in where}
        return {c: f.result() for c, f in futures.items()}


def assert_same_end(case: Case, reference: Case) -> Driver:
    """The crash fired once, the run ended done with the reference tree, transitions and
    changed count, no file restored before the crash was written again, and the audit has
    a row for every journal entry and verifies."""
    driver = case.check()
    reference.check()
    assert len(driver.kills) == 1, f"the crash point {case.crash} never fired"
    assert case.end["status"] == "done", case.end.get("result")
    assert case.tree == reference.tree
    for rel in driver.restored_at_crash:
        assert case.final[rel] == driver.after_crash[rel], f"{rel} was written again"
    assert moves_of(case.entries) == moves_of(reference.entries)
    assert case.end["changed_files"] == reference.end["changed_files"]
    assert case.audit["ok"] is True, case.audit
    assert case.audit_seqs == list(range(len(case.entries))), case.audit_seqs
    return driver


# -- the uninterrupted reference and the matrix ---------------------------------------------


def test_the_uninterrupted_rollback_restores_all_50_files(
    matrix: dict[str | None, Case],
) -> None:
    """The reference run ends done through every journal entry of the flow, once each, and
    puts all 50 files (content and +x) back to the checkpoint."""
    ref = matrix[None]
    driver = ref.check()
    assert ref.end["status"] == "done"
    got = [(e["seq"], e["from"], e["event"], e["to"]) for e in ref.entries[1:]]
    assert got == FLOW_ENTRIES
    back = restored(driver.root)
    assert back == set(FILES), f"{50 - len(back)} of 50 files were not restored"
    assert ref.end["changed_files"] == 50
    assert ref.audit["ok"] is True
    assert ref.audit_seqs == list(range(LAST + 1))


@pytest.mark.parametrize(
    "seq", [e[0] for e in FLOW_ENTRIES], ids=[f"{e[0]}-{e[1]}-{e[3]}" for e in FLOW_ENTRIES]
)
def test_crash_at_every_journal_entry_resumes_to_the_same_tree(
    matrix: dict[str | None, Case], seq: int
) -> None:
    """A SIGKILL right after journal entry N (every entry of the flow) and resuming end
    done with the uninterrupted tree, no file rewritten, an audit row per entry."""
    assert_same_end(matrix[f"transition:{seq}"], matrix[None])


@pytest.mark.parametrize("k", ITEM_CRASHES)
def test_crash_after_item_k_resumes_to_the_same_tree(
    matrix: dict[str | None, Case], k: int
) -> None:
    """A SIGKILL in `vibflow step RUN confirm` after the K-th restored file leaves exactly K
    files restored; resuming finishes the rest without rewriting those K and ends done with
    the uninterrupted tree."""
    case = matrix[f"item:{k}"]
    driver = assert_same_end(case, matrix[None])
    assert driver.kills[0][:3] == ("step", driver.run_id, "confirm")
    assert len(driver.restored_at_crash) == k


# -- after an item crash -----------------------------------------------------------------------


def crash_mid_apply(base: Path, tmp_path: Path, k: int = 10) -> tuple[Driver, dict[str, Any]]:
    """A rollback killed after the K-th file, left interrupted."""
    root = drifted_copy(base, tmp_path)
    driver = Driver(root, f"item:{k}")
    data = driver.start()
    while not driver.kills:
        assert data["status"] not in ("done", "failed", "aborted"), "the crash never fired"
        data = driver.move(data)
    return driver, data


def test_recap_after_an_item_crash_lists_the_run_first_with_its_resume_command(
    base: Path, tmp_path: Path
) -> None:
    """`vibflow recap --json` after a crash at item K lists the interrupted run first with
    `vibflow resume RUN`; the human recap shows the same command, before a waiting run."""
    driver, _ = crash_mid_apply(base, tmp_path)
    root = driver.root
    other = ok_json(vf(root, "run", "recover", "--json", env=APPLY))  # a newer, waiting run
    assert other["status"] == "waiting"
    recap = ok_json(vf(root, "recap", "--json"))
    first = recap["open_runs"][0]
    assert first["run_id"] == driver.run_id
    assert first["status"] == "interrupted"
    assert first["resume_command"] == f"vibflow resume {driver.run_id}"
    human = vf(root, "recap")
    assert human.returncode == 0
    assert human.stdout.index(driver.run_id) < human.stdout.index(other["run_id"])
    assert f"vibflow resume {driver.run_id}" in human.stdout


def test_resume_after_an_edit_to_a_not_yet_restored_file_asks_again(
    base: Path, matrix: dict[str | None, Case], tmp_path: Path
) -> None:
    """Editing the file the crashed apply would have written next, then resuming, does not
    overwrite the edit: the run returns to confirm with a new sandwich holding the edit,
    and a second confirmation finishes with the uninterrupted tree."""
    driver, interrupted = crash_mid_apply(base, tmp_path, k=10)
    root = driver.root
    victim = sorted(set(FILES) - driver.restored_at_crash)[0]
    edit = "# edited by hand while the apply was interrupted\n"
    (root / victim).write_text(edit, encoding="utf-8")
    back = driver.call("resume", driver.run_id)
    assert (back["status"], back["state"]) == ("waiting", "confirm")
    assert (root / victim).read_text(encoding="utf-8") == edit
    second = back["sandwich_checkpoint_id"]
    assert second != interrupted["sandwich_checkpoint_id"]
    commit = ok_json(vf(root, "checkpoint", "show", second, "--json"))["commit"]
    assert git(root, "show", f"{commit}:{victim}") == edit
    end = driver.confirm(back)
    assert end["status"] == "done"
    assert (root / victim).read_text(encoding="utf-8") == original(victim)
    assert tree_state(root) == matrix[None].tree
    report, seqs = audit_report(root, driver.run_id)
    assert report["ok"] is True
    assert seqs == list(range(len(timeline(root, driver.run_id))))
