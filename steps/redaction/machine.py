"""What counts as private on this machine, for one project root: the spellings
of the project root and the home folder, the user's own name, the machine's
host names and the folders at ``/`` — the context the privacy filter
(:mod:`.privacy`) masks by.

Names too common to be anyone's (``root``, ``runner``, ``app``) and host
names that are ordinary words are never masked: they would be masked
wherever they appear in prose. Read once per process where it cannot change.
"""

from __future__ import annotations

import contextlib
import functools
import getpass
import os
import re
import socket
from pathlib import Path, PurePath
from typing import NamedTuple

# First segments that make an absolute POSIX path local on any machine we
# support (macOS, Linux, WSL, Git Bash, dev containers, CI runners).
KNOWN_TOP_DIRS = frozenset(
    {
        "Users",
        "home",
        "root",
        "tmp",
        "var",
        "private",
        "opt",
        "usr",
        "etc",
        "mnt",
        "Volumes",
        "srv",
        "media",
        "run",
        "proc",
        "sys",
        "dev",
        "bin",
        "sbin",
        "lib",
        "lib32",
        "lib64",
        "libx32",
        "boot",
        "snap",
        "nix",
        "Library",
        "Applications",
        "System",
        "cygdrive",
        "workspace",
        "workspaces",
        "builds",
        "github",
    }
)
# Account names too common to mask wherever they appear as a word.
GENERIC_NAMES = frozenset(
    {
        "root",
        "admin",
        "administrator",
        "user",
        "users",
        "ubuntu",
        "debian",
        "runner",
        "vagrant",
        "ec2-user",
        "centos",
        "docker",
        "node",
        "app",
        "dev",
        "developer",
        "test",
        "guest",
        "jenkins",
        "git",
        "www-data",
        "nobody",
        "pi",
        "vscode",
        "codespace",
        "codespaces",
        "gitpod",
        "circleci",
        "build",
        "builder",
        "ci",
        "home",
        "default",
        "owner",
        "me",
        "localhost",
    }
)


class PrivacyContext(NamedTuple):
    """What counts as private on this machine, for one project root."""

    roots: tuple[str, ...] = ()
    homes: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    hosts: tuple[str, ...] = ()
    top_dirs: frozenset[str] = KNOWN_TOP_DIRS

    @classmethod
    def for_root(cls, root: Path | None) -> PrivacyContext:
        """The context of this process: its home, user, host and ``/``, plus ``root``."""
        homes: tuple[str, ...] = ()
        names: list[str] = []
        try:
            home = Path.home()
        except (RuntimeError, KeyError, OSError):
            home = None
        if home is not None:
            homes = _forms(home)
            names.append(home.name)
        with contextlib.suppress(OSError, KeyError, ImportError):
            names.append(getpass.getuser())
        return cls(
            roots=_forms(root) if root is not None else (),
            homes=homes,
            names=tuple(sorted({n for n in names if _maskable_name(n)})),
            hosts=_machine_hosts(),
            top_dirs=KNOWN_TOP_DIRS | _local_top_dirs(),
        )


def _forms(path: Path) -> tuple[str, ...]:
    """The spellings of ``path`` a text may contain (as given, resolved, JSON-escaped)."""
    forms: set[str] = set()
    candidates: list[PurePath] = [path]
    with contextlib.suppress(OSError, RuntimeError):
        # abspath keeps symlinks (the spelling a user typed), resolve() follows them.
        candidates += [Path(os.path.abspath(path)), path.resolve()]  # noqa: PTH100
    for p in candidates:
        s = str(p)
        if len(p.parts) <= 1 or not p.is_absolute():
            continue  # never treat "/" or "C:\\" (or a relative path) as a root
        forms.add(s.rstrip("/\\"))
        if "\\" in s:
            forms.add(s.replace("\\", "/").rstrip("/"))
            forms.add(s.replace("\\", "\\\\").rstrip("\\"))
    # Longest first, so a resolved spelling wins over its prefix.
    return tuple(sorted(forms, key=lambda f: (-len(f), f)))


def _maskable_name(name: str) -> bool:
    return (
        len(name) >= 3
        and name.lower() not in GENERIC_NAMES
        and re.fullmatch(r"[A-Za-z0-9._-]+", name) is not None
    )


@functools.lru_cache(maxsize=1)
def _machine_hosts() -> tuple[str, ...]:
    try:
        full = socket.gethostname()
    except OSError:
        return ()
    out = {h for h in (full, full.split(".")[0]) if _maskable_host(h)}
    return tuple(sorted(out, key=lambda h: (-len(h), h)))


def _maskable_host(host: str) -> bool:
    # A plain word ("work", "devbox") would be masked everywhere it appears in
    # prose; only names that cannot be ordinary words are masked.
    return (
        len(host) >= 4
        and host.lower() not in GENERIC_NAMES
        and re.fullmatch(r"[A-Za-z0-9.-]+", host) is not None
        and any(c.isdigit() or c in ".-" for c in host)
    )


@functools.lru_cache(maxsize=1)
def _local_top_dirs() -> frozenset[str]:
    try:
        with os.scandir("/") as entries:
            return frozenset(e.name for e in entries if e.is_dir() and not e.name.startswith("."))
    except OSError:
        return frozenset()
