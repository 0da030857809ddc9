"""Run the real CLI once per hostile file, each in its own forked process with a
memory limit and a deadline (driven by ``test_hostile_readers.py``).

Usage: ``python hostile_driver.py MANIFEST RESULTS``. The manifest is a JSON
list of cases ``{"id", "target", "source", "special", "argv"}``; for each, the
file is put in place in the project (``target``: policy, flow or journal),
a child is forked that limits its address space to :data:`MEMORY_LIMIT` and
runs ``vibflow ARGV`` in-process, and the parent kills it at the deadline.
The parent has imported vibflow already, so a child costs a fork, not a
cold start: the corpus runs in seconds. One JSON line per case is written to
RESULTS: its exit status (or how it died), its output and whether a backup
of a damaged journal was made.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import sys
import time
from pathlib import Path
from typing import Any

MEMORY_LIMIT = 200 * 1024 * 1024
# Generous: the machine running the suite may be shared and busy; a hang or a
# runaway expansion takes minutes, not seconds.
DEADLINE_SECONDS = 30.0


def place(repo: Path, case: dict[str, Any]) -> Path:
    state = repo / ".vibflow"
    target = {
        "policy": state / "policy.yaml",
        "flow": state / "flows" / "fz.yaml",
        "journal": state / "runs.db",
    }[case["target"]]
    special = case.get("special")
    if special is None:
        shutil.copyfile(case["source"], target)
    elif special == "fifo":
        os.mkfifo(target)
    elif special == "folder":
        target.mkdir()
    elif special == "link_loop":
        target.symlink_to(target.name)
    elif special.startswith("link:"):
        target.symlink_to(special.removeprefix("link:"))
    else:
        raise ValueError(special)
    return target


def clean(repo: Path, target: Path) -> bool:
    """Remove what the case left; say whether a damaged journal was backed up."""
    state = repo / ".vibflow"
    backups = list(state.glob("runs.db.corrupt-*"))
    for path in [target, *backups, *state.glob("runs.db-*")]:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)
    if target.name != "runs.db":
        for path in state.glob("runs.db*"):
            path.unlink(missing_ok=True)
    return bool(backups)


def child(repo: Path, argv: list[str], out: Path, err: Path) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    os.chdir(repo)
    for fd, path in ((1, out), (2, err)):
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(handle, fd)
        os.close(handle)
    sys.stdout = os.fdopen(1, "w", encoding="utf-8", closefd=False)
    sys.stderr = os.fdopen(2, "w", encoding="utf-8", closefd=False)
    code = 70
    try:
        from vibflow.cli.app import run_cli

        code = run_cli(argv)
    except BaseException:  # noqa: BLE001 - whatever escapes is the finding
        import traceback

        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def run_case(repo: Path, case: dict[str, Any], scratch: Path) -> dict[str, Any]:
    target = place(repo, case)
    out, err = scratch / "out", scratch / "err"
    pid = os.fork()
    if pid == 0:
        child(repo, case["argv"], out, err)
    started = time.monotonic()
    deadline = started + DEADLINE_SECONDS
    status: str | int = "timeout"
    while time.monotonic() < deadline:
        done, wait_status = os.waitpid(pid, os.WNOHANG)
        if done:
            if os.WIFEXITED(wait_status):
                status = os.WEXITSTATUS(wait_status)
            else:
                status = f"signal {os.WTERMSIG(wait_status)}"
            break
        time.sleep(0.005)
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    seconds = round(time.monotonic() - started, 3)
    backed_up = clean(repo, target)
    return {
        "id": case["id"],
        "status": status,
        "seconds": seconds,
        "stdout": out.read_text("utf-8", "replace")[-4000:],
        "stderr": err.read_text("utf-8", "replace")[-4000:],
        "backed_up": backed_up,
    }


def main(manifest: Path, results: Path) -> int:
    spec = json.loads(manifest.read_text("utf-8"))
    repo = Path(spec["repo"])
    scratch = Path(spec["scratch"])
    # Import everything a command needs once, before the first fork (the app
    # mounts its commands by name: import their modules too).
    import importlib

    import vibflow.cli.app
    import vibflow.wiring

    for where in vibflow.cli.app.COMMANDS.values():
        importlib.import_module(where.partition(":")[0])
    vibflow.wiring.policy_sections()
    del vibflow
    with results.open("w", encoding="utf-8") as fh:
        for case in spec["cases"]:
            fh.write(json.dumps(run_case(repo, case, scratch)) + "\n")
            fh.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
