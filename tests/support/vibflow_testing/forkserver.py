"""A fork server for the harness CLI: each ``vibflow ARGS`` the tests run is still a real
process of its own — its own pid, file descriptors, working folder, environment, exit
status, and it can be killed — but it is forked from a server that has already imported
vibflow, instead of paying the interpreter's start and ~0.3 s of imports every time.

Why: the suite runs the CLI a few thousand times; on a 2-core machine the imports alone
were most of ``make test``'s wall time. Nothing is *called* before the fork — the server
only imports modules — so every process starts with the same empty caches, lazily built
detectors and unread environment as a fresh interpreter would. Tests that need a truly
fresh interpreter (import-time behaviour, memory limits, terminals, the installed console
script) spawn ``harness_cmd`` themselves, and ``VIBFLOW_TEST_FORKSERVER=0`` sends every
call through a fresh interpreter again.

Protocol, over a Unix socket: the client sends one JSON line (argv, cwd, env) with the
child's stdin, stdout and stderr descriptors attached (``SCM_RIGHTS``); the server forks a
monitor, the monitor forks the worker and answers with the worker's pid and then its wait
status. The server itself never waits on anything but ``accept``, so it stays
single-threaded and children never inherit a lock held by another thread.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

_HEADER_MAX = 1 << 20
#: This test process's server and its socket (one per pytest worker, started on first use).
_servers: list[tuple[subprocess.Popen[bytes], str]] = []


def enabled() -> bool:
    return os.environ.get("VIBFLOW_TEST_FORKSERVER", "1") != "0"


# -- the client side (in the test process) ----------------------------------------------


def _ensure_server() -> str:
    if _servers and _servers[-1][0].poll() is None:
        return _servers[-1][1]
    folder = tempfile.mkdtemp(prefix="vf-fork-")
    path = str(Path(folder) / "sock")
    proc = subprocess.Popen(
        [sys.executable, __file__, path],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=None,
        env={k: v for k, v in os.environ.items() if not k.startswith("VIBFLOW_")},
        cwd=folder,
    )
    deadline = time.monotonic() + 60
    while not Path(path).exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("the test kit's fork server did not start")
        time.sleep(0.01)
    _servers.append((proc, path))
    atexit.register(_stop, proc)
    return path


def _stop(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(OSError):
        proc.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=5)


def run(
    args: list[str],
    *,
    cwd: Path,
    env: dict[str, str],
    stdin: str | None,
    timeout: float,
) -> subprocess.CompletedProcess[str]:
    """Run ``vibflow ARGS`` (with the test kit registered) as a forked process and wait."""
    path = _ensure_server()
    with (
        tempfile.TemporaryFile() as out,
        tempfile.TemporaryFile() as err,
        tempfile.TemporaryFile() as given,
    ):
        if stdin is not None:
            given.write(stdin.encode())
            given.flush()
            given.seek(0)
            in_fd = given.fileno()
            devnull = None
        else:
            devnull = os.open(os.devnull, os.O_RDONLY)
            in_fd = devnull
        try:
            status = _exchange(path, args, cwd, env, (in_fd, out.fileno(), err.fileno()), timeout)
        finally:
            if devnull is not None:
                os.close(devnull)
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode(errors="replace")
        stderr = err.read().decode(errors="replace")
    if status is None:
        raise subprocess.TimeoutExpired(["vibflow", *args], timeout, stdout, stderr)
    code = os.waitstatus_to_exitcode(status)
    return subprocess.CompletedProcess(["vibflow", *args], code, stdout, stderr)


def _exchange(
    path: str,
    args: list[str],
    cwd: Path,
    env: dict[str, str],
    fds: tuple[int, int, int],
    timeout: float,
) -> int | None:
    header = json.dumps({"argv": args, "cwd": str(cwd), "env": env}).encode() + b"\n"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect(path)
        socket.send_fds(sock, [header], list(fds))
        sock.settimeout(timeout)
        reader = sock.makefile("rb")
        pid = int(json.loads(reader.readline())["pid"])
        try:
            line = reader.readline()
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            return None
        return int(json.loads(line)["status"])


# -- the server side ----------------------------------------------------------------------


def _serve(path: str) -> None:
    # Import everything a command may need, call nothing (see the module docstring).
    import vibflow_testing.flows  # noqa: F401
    from vibflow.cli import app  # noqa: F401

    _preload()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # monitors are reaped by the kernel
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as srv:
        srv.bind(path + ".tmp")
        srv.listen(64)
        Path(path + ".tmp").rename(path)
        while True:
            conn, _ = srv.accept()
            data, fds, _flags, _addr = socket.recv_fds(conn, _HEADER_MAX, 3)
            while not data.endswith(b"\n"):
                more = conn.recv(_HEADER_MAX)
                if not more:
                    break
                data += more
            if os.fork() == 0:
                srv.close()
                _monitor(conn, json.loads(data), fds)
            conn.close()
            for fd in fds:
                os.close(fd)


def _preload() -> None:
    """Import (never build) the modules most commands load lazily."""
    import importlib
    import pkgutil

    import vibflow.engine
    import vibflow.steps

    for package in (vibflow.engine, vibflow.steps):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            with contextlib.suppress(Exception):
                importlib.import_module(info.name)
    for name in ("vibflow.wiring", "vibflow.recap_wiring", "vibflow.handoff_wiring"):
        with contextlib.suppress(Exception):
            importlib.import_module(name)


def _monitor(conn: socket.socket, request: dict[str, Any], fds: list[int]) -> None:
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    worker = os.fork()
    if worker == 0:
        conn.close()
        _work(request, fds)
    for fd in fds:
        os.close(fd)
    status = 1 << 8
    try:
        conn.sendall(json.dumps({"pid": worker}).encode() + b"\n")
        _, status = os.waitpid(worker, 0)
        conn.sendall(json.dumps({"status": status}).encode() + b"\n")
    finally:
        os._exit(0)


def _work(request: dict[str, Any], fds: list[int]) -> None:
    code = 1
    try:
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = [str(Path(__file__).with_name("harness.py")), *request["argv"]]
        from vibflow.cli.app import run_cli
        from vibflow_testing.flows import register

        code = run_cli(request["argv"], registry_hook=register)
    except BaseException:  # noqa: BLE001 - the process's last word, like an uncaught error
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                code = code or 1
        os._exit(code)


if __name__ == "__main__":
    sys.path[0] = str(Path(__file__).resolve().parent.parent)
    _serve(sys.argv[1])
