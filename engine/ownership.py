"""Who owns a run, and whether that owner is still alive.

A run being advanced records its owner: pid, host, and the process's start
time. A pid alone is not enough (pids are reused) and age is not evidence
(a slow step is not a dead one), so a run is *interrupted* only when its owner
is on this host and either no process has that pid or the process with that
pid started at a different time. Owners on another host are never declared
dead from here.
"""

from __future__ import annotations

import enum
import os
import socket
import uuid
from functools import cache
from pathlib import Path

from vibflow.engine.journal import Owner


class Liveness(enum.Enum):
    ALIVE = "alive"
    DEAD = "dead"
    UNKNOWN = "unknown"  # another host: we cannot tell


def process_start_time(pid: int) -> str | None:
    """Kernel start time of ``pid`` (clock ticks since boot + boot id), or None."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    # The command name (field 2) may contain spaces and parentheses.
    fields = stat[stat.rfind(")") + 2 :].split()
    if len(fields) <= 19 or fields[0] in ("Z", "X"):
        return None  # a zombie has finished; only its exit status remains
    return f"{_boot_id()}:{fields[19]}"


@cache
def _boot_id() -> str:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text(encoding="ascii").strip()
    except OSError:
        return "no-boot-id"


@cache
def hostname() -> str:
    return socket.gethostname()


def current_owner() -> Owner:
    """A fresh owner identity for this process (new token every call)."""
    pid = os.getpid()
    return Owner(pid, hostname(), _own_start_time(pid), uuid.uuid4().hex)


@cache
def _own_start_time(pid: int) -> str:
    # Keyed by pid so a forked child reads its own; /proc reads cost ~0.4 ms here,
    # once per run otherwise.
    return process_start_time(pid) or ""


def liveness(owner: Owner) -> Liveness:
    if owner.host != hostname():
        return Liveness.UNKNOWN
    started = process_start_time(owner.pid)
    if started is None:
        if Path("/proc").is_dir():
            return Liveness.DEAD
        return _signal_probe(owner.pid)
    if owner.started and started != owner.started:
        return Liveness.DEAD  # the pid was reused by another process
    return Liveness.ALIVE


def _signal_probe(pid: int) -> Liveness:
    """Fallback where /proc does not exist (macOS): signal 0 tells existence."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return Liveness.DEAD
    except PermissionError:
        return Liveness.ALIVE
    return Liveness.ALIVE
