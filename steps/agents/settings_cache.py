"""The hook's settings from a project's own policy, kept between hook calls.

A project with a ``.vibflow/policy.yaml`` has its policy loaded by the hook —
the YAML reader and every section's pydantic model, several times the turn
hook's whole budget — to read five numbers and the checkpoint policy. What it
read is kept in ``.vibflow/agents/settings-cache.json``, tied to the identity
of every file the policy is made of (the project's file and the shipped
defaults: size, times to the nanosecond, inode) and to vibflow's version; any
change to any of them reads the policy again. A policy that cannot be read is
never kept (each hook says so again). The cache is only a shortcut: a lost or
damaged one means reading the policy again. Standard library only.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

from vibflow.engine.atomicfile import atomic_write

FILE = "settings-cache.json"
VERSION = 1


def key(user_policy: Path, shipped: Path | None, version: str) -> list[Any] | None:
    """What the cached settings hold for: every policy file's identity, or ``None``
    when one cannot be read (then nothing is cached)."""
    files: list[Any] = [VERSION, version]
    try:
        st = user_policy.stat()
        files.append(["user", st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino])
        if shipped is not None:
            with os.scandir(shipped) as found:
                for entry in sorted(found, key=lambda e: e.name):
                    if entry.name.endswith((".yaml", ".yml")):
                        s = entry.stat()
                        files.append([entry.name, s.st_size, s.st_mtime_ns, s.st_ctime_ns])
    except OSError:
        return None
    return files


def load(folder: Path, wanted: list[Any] | None) -> dict[str, Any] | None:
    """The settings kept for ``wanted``, or ``None``."""
    if wanted is None:
        return None
    try:
        data = json.loads((folder / FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("key") != wanted:
        return None
    settings = data.get("settings")
    return settings if isinstance(settings, dict) else None


def save(folder: Path, wanted: list[Any] | None, settings: dict[str, Any]) -> None:
    if wanted is None:
        return
    body = json.dumps({"key": wanted, "settings": settings})
    # Not durable: a lost cache only means reading the policy again; one that cannot
    # be written is simply not kept (the settings were read all the same).
    with contextlib.suppress(OSError):
        atomic_write(folder / FILE, body, durable=False)
