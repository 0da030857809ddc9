"""What both ways of taking a checkpoint share — the full store
(:mod:`.store`) and the agent hook's lean path (:mod:`.quick`) — written once,
without pydantic, so the hook can import it.

Both write the same commits into the same refs from the same private snapshot
index and state file (``checkpoints/index``, ``snapshot.json``), and each must
carry on from what the other left: the commit identity, the timestamp format,
the state file's reading and writing, and the checks the no-change reuse makes
(a folder of included files that became a repository, an included file that
became ignored, the last checkpoint's ref still holding the commit written)
must be the same code, not two copies kept equal by hand.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from vibflow.engine.atomicfile import atomic_write
from vibflow.steps.checkpoints import gitstate
from vibflow.steps.workspace.git import Git

#: Who checkpoint commits are made by (never the user's identity or config).
IDENTITY = {
    "GIT_AUTHOR_NAME": "vibflow",
    "GIT_AUTHOR_EMAIL": "vibflow@localhost",
    "GIT_COMMITTER_NAME": "vibflow",
    "GIT_COMMITTER_EMAIL": "vibflow@localhost",
}


def now_iso() -> str:
    """A checkpoint's ``created_at``: UTC, microseconds, ``Z``."""
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def read_state(path: Path) -> dict[str, Any]:
    """The snapshot state (``{}`` when missing or unreadable: start from the user's index)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save_state(path: Path, state: dict[str, Any]) -> None:
    # Not durable: a state file lost to a power cut reads as empty, and an empty
    # state only makes the next snapshot start from the user's index.
    atomic_write(path, json.dumps(state), durable=False)


def reasons(last: dict[str, Any]) -> list[tuple[str, str]] | None:
    """(path, reason) of each file the last checkpoint left out, from its saved meta."""
    meta = last.get("meta")
    if not isinstance(meta, dict) or not isinstance(meta.get("skipped", []), list):
        return None
    return sorted(
        (str(s.get("path")), str(s.get("reason")))
        for s in meta.get("skipped", [])
        if isinstance(s, dict)
    )


def nested_repo_appeared(root: Path, paths: set[str] | list[str]) -> bool:
    """Did a folder holding included untracked files become a repository of its
    own? The private index still lists its files, so status would not say."""
    folders: set[str] = set()
    for path in paths:
        cut = path.rstrip("/").rfind("/")
        while cut > 0 and (folder := path[:cut]) not in folders:
            folders.add(folder)
            cut = folder.rfind("/")
    base = str(root)
    # Plain strings, not Path objects: this runs on every no-change checkpoint.
    return any(os.path.exists(f"{base}/{folder}/.git") for folder in folders)  # noqa: PTH110


def now_ignored(git: Git, paths: list[str]) -> list[str]:
    """Which of these untracked paths an ignore rule now matches."""
    if not paths:
        return []
    # "./" keeps a name starting with ":" from reading as pathspec magic.
    # --no-index: these paths were untracked and the user's index has not changed
    # since (checked first), and loading it costs most of the call.
    out = git.run(
        "check-ignore",
        "--no-index",
        "-z",
        "--stdin",
        stdin=gitstate.nul([f"./{p}" for p in paths]),
        ok=(0, 1),
    )
    return [p.decode("utf-8", "surrogateescape").removeprefix("./") for p in out.split(b"\0") if p]


def loose_ref_holds(git_dir: Path, ref: str, commit: str) -> bool | None:
    """Whether the loose ref file ``ref`` holds ``commit`` — ``None`` when there is
    no loose file to read (packed refs after gc, another ref store: ask git)."""
    try:
        found = (gitstate.common_dir(git_dir) / ref).read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError):
        return None
    return found.strip() == commit
