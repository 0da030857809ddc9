"""Driving the recover flow's guarded apply through the real CLI: a ``drifted`` project,
the run up to the choice and the confirmation, and readers of what it left (tree state,
audit rows, checkpoint blobs)."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import subprocess
import time
from pathlib import Path
from typing import Any

from vibflow_testing import ROOT
from vibflow_testing.cli import as_json, vf
from vibflow_testing.git import git
from vibflow_testing.repo import write

APPLY = {"VIBFLOW_RECOVERY_APPLY": "1"}
RECOVER_YAML = ROOT / "flows" / "recover.yaml"
APPLY_GUARD_LINES = [
    "- confirmation_matches",
    "- {feature_flag: RECOVERY_APPLY}",
    "- {grant: recovery_apply}",
    "- lock_acquired",
    "- sandwich_present",
    "- paths_valid",
]

APP = {
    "src/ui/login.py": "def render():\n    return '<form>'\n",
    "src/services/auth.py": "def check(user, password):\n    return len(password) >= 12\n",
    "config.yaml": "shop:\n  currency: EUR\n",
    "bin/deploy.sh": "#!/bin/sh\necho deploy\n",
    "docs/guide.md": "# Guide\n",
}
DRIFT = {  # what the simulated agent leaves behind (outside the login-form intent)
    "src/services/auth.py": "def check(user, password):\n    return True\n",
    "config.yaml": "shop:\n  currency: USD\n",
    "bin/deploy.sh": "#!/bin/sh\necho deploy --force\n",
}
IN_SCOPE_EDIT = "def render():\n    return '<form aria-label=\"login\">'\n"
NEW_FILE = "src/services/extra.py"
PARTIAL_PATHS = sorted(
    ["bin/deploy.sh", "config.yaml", "docs/guide.md", NEW_FILE, "src/services/auth.py"]
)


def ok_json(proc: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert proc.returncode == 0, (proc.returncode, proc.stdout[-2000:], proc.stderr)
    return as_json(proc)


def commit_all(root: Path, message: str = "app") -> None:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)


def tree_state(root: Path) -> dict[str, tuple[str, str]]:
    """Every work-tree path outside .git/.vibflow → (kind+mode, content or link hash)."""
    out: dict[str, tuple[str, str]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in (".git", ".vibflow")]
        for name in filenames + [d for d in dirnames if Path(dirpath, d).is_symlink()]:
            path = Path(dirpath, name)
            rel = path.relative_to(root).as_posix()
            st = path.lstat()
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", str(path.readlink()))
            else:
                kind = "exec" if st.st_mode & stat.S_IXUSR else "file"
                out[rel] = (kind, hashlib.sha256(path.read_bytes()).hexdigest())
    return out


def audit_rows(root: Path) -> list[dict[str, Any]]:
    path = root / ".vibflow" / "audit.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def run_rows(root: Path, run_id: str) -> list[dict[str, Any]]:
    return [r for r in audit_rows(root) if r.get("run_id") == run_id]


def checkpoint_commit(root: Path, checkpoint_id: str) -> str:
    return ok_json(vf(root, "checkpoint", "show", checkpoint_id, "--json"))["commit"]


def show_blob(root: Path, commit: str, rel: str) -> str:
    return git(root, "show", f"{commit}:{rel}")


def drifted(repo: Path) -> str:
    """The app committed, memory on the login form (plus a verification covering auth), a
    checkpoint; then an agent edits the form (in scope), loosens auth, changes config,
    changes deploy.sh and drops its +x, deletes the guide and adds a service file.
    Returns the checkpoint id."""
    for rel, text in APP.items():
        write(repo, rel, text)
    (repo / "bin/deploy.sh").chmod(0o755)
    commit_all(repo)
    for args in (
        ("memory", "intent", "Make the login form accessible", "--yes"),
        ("memory", "relevant", "src/ui/login.py", "the login form", "--yes"),
        (
            "memory",
            "verify",
            "pytest tests/test_auth.py",
            "--result",
            "pass",
            "--files",
            "src/services/auth.py",
        ),
    ):
        proc = vf(repo, *args)
        assert proc.returncode == 0, proc.stderr
    ckpt = ok_json(vf(repo, "checkpoint", "create", "--json"))["checkpoint_id"]
    time.sleep(0.05)
    write(repo, "src/ui/login.py", IN_SCOPE_EDIT)
    for rel, text in DRIFT.items():
        write(repo, rel, text)
    (repo / "bin/deploy.sh").chmod(0o644)
    (repo / "docs/guide.md").unlink()
    write(repo, NEW_FILE, "def extra():\n    return 1\n")
    return ckpt


def agent_rewrote(root: Path, names: list[str]) -> str:
    """``names`` committed as ``orig <name>``, a checkpoint, then each rewritten by an
    agent as ``agent <name>``. Returns the checkpoint id."""
    for rel in names:
        write(root, rel, f"orig {rel}\n")
    commit_all(root)
    ckpt = str(ok_json(vf(root, "checkpoint", "create", "--json"))["checkpoint_id"])
    time.sleep(0.05)  # the agent's edits come strictly after the checkpoint
    for rel in names:
        write(root, rel, f"agent {rel}\n")
    return ckpt


def start(root: Path) -> dict[str, Any]:
    """`vibflow run recover --json` with apply enabled: waits at choose."""
    run = ok_json(vf(root, "run", "recover", "--json", env=APPLY))
    assert (run["status"], run["state"]) == ("waiting", "choose"), run
    return run


def option(run: dict[str, Any], level: int) -> dict[str, Any]:
    """The option of ``level`` as the run's JSON shows it (ids and counts, no paths)."""
    return next(o for o in run["plan"]["options"] if o["level"] == level)


def stored_option(root: Path, run: dict[str, Any], level: int) -> dict[str, Any]:
    """The option of ``level`` with all its paths, from the plan kept beside the run."""
    plan_file = root / ".vibflow" / "recovery" / "plans" / f"{run['run_id']}.json"
    plan = json.loads(plan_file.read_text(encoding="utf-8"))
    return next(o for o in plan["options"] if o["level"] == level)


def choose(root: Path, run: dict[str, Any], level: int, *extra: str) -> dict[str, Any]:
    """Choose the option of ``level``: the run takes its sandwich and waits at confirm."""
    opt = option(run, level)
    assert opt["blocked_reason"] is None, opt
    at = ok_json(
        vf(
            root,
            "step",
            run["run_id"],
            "choose",
            "--input",
            f"option={opt['option_id']}",
            *extra,
            "--json",
            env=APPLY,
        )
    )
    assert (at["status"], at["state"]) == ("waiting", "confirm"), at
    return at


def to_confirm(root: Path, level: int = 3) -> dict[str, Any]:
    return choose(root, start(root), level)


def confirm(
    root: Path, at: dict[str, Any], *extra: str, env: dict[str, str] | None = APPLY
) -> subprocess.CompletedProcess[str]:
    return vf(
        root,
        "step",
        at["run_id"],
        "confirm",
        "--input",
        f"confirmation={at['confirmation_expected']}",
        *extra,
        "--json",
        env=env,
    )


def run_show(root: Path, run_id: str) -> dict[str, Any]:
    return ok_json(vf(root, "runs", "show", run_id, "--json"))


def assert_refused(
    root: Path,
    proc: subprocess.CompletedProcess[str],
    before: dict[str, tuple[str, str]],
    run_id: str,
    guard: str,
) -> dict[str, Any]:
    """Exit 3, the run blocked at confirm, no file changed, a guard_refused audit row naming
    ``guard`` and no lease left behind."""
    assert proc.returncode == 3, (proc.returncode, proc.stdout[-1500:], proc.stderr)
    data = as_json(proc)
    assert (data["status"], data["state"]) == ("blocked", "confirm")
    assert data["blocked_reason"]
    assert "changed_files" not in data
    assert tree_state(root) == before
    refusals = [r for r in run_rows(root, run_id) if r["event"] == "guard_refused"]
    assert refusals, "no guard_refused audit row"
    assert refusals[-1]["guard"] == guard
    assert refusals[-1]["result"] == "refused"
    assert not (root / ".vibflow" / "recovery" / "lease.json").exists()
    return data
