"""Resolve the project root from git, never from a marker folder.

A stray ``.vibflow/`` (or a parent project's) must never decide which tree we
look at: the root is what ``git rev-parse --show-toplevel`` says for the
working directory. ``<root>/.vibflow/`` holds all of vibflow's state and
carries its own ``.gitignore`` so vibflow never edits the user's files.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from vibflow.engine.errors import ErrorCode, VibflowError

STATE_DIR = ".vibflow"


def find_root(start: Path) -> Path:
    try:
        proc = subprocess.run(
            ["git", "-C", str(start), "rev-parse", "--show-toplevel"],
            capture_output=True,
            text=True,
            check=False,
            timeout=30,
        )
    except FileNotFoundError as exc:
        raise VibflowError(
            ErrorCode.NOT_A_PROJECT,
            "git is not installed or not on PATH",
            hint="Install git; vibflow works on git projects.",
        ) from exc
    except (OSError, subprocess.SubprocessError) as exc:
        raise VibflowError(
            ErrorCode.NOT_A_PROJECT, f"could not run git ({type(exc).__name__})"
        ) from exc
    if proc.returncode != 0 or not proc.stdout.strip():
        raise VibflowError(
            ErrorCode.NOT_A_PROJECT,
            "this folder is not inside a git work tree",
            hint="Run vibflow from inside your project's git repository (or `git init` first).",
        )
    return Path(proc.stdout.strip()).resolve()


def state_dir(root: Path) -> Path:
    """``<root>/.vibflow``, created with a ``.gitignore`` that ignores itself."""
    path = root / STATE_DIR
    path.mkdir(exist_ok=True)
    ignore = path / ".gitignore"
    if not ignore.exists():
        ignore.write_text("# vibflow's local state: never committed\n*\n", encoding="utf-8")
    return path
