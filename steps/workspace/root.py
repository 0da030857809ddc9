"""Resolve the project root from git, never from a marker folder.

A stray ``.vibflow/`` (or a parent project's) must never decide which tree we
look at: the root is what ``git rev-parse --show-toplevel`` says for the
working directory. ``<root>/.vibflow/`` holds all of vibflow's state and
carries its own ``.gitignore`` so vibflow never edits the user's files.
"""

from __future__ import annotations

from pathlib import Path

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.steps.workspace.git import GitError, run_git

STATE_DIR = ".vibflow"


def find_root(start: Path) -> Path:
    try:
        out = run_git(start, "rev-parse", "--show-toplevel", timeout=30)
    except GitError as exc:
        if exc.returncode is not None:
            raise _outside_work_tree() from exc
        if isinstance(exc.__cause__, FileNotFoundError):
            raise VibflowError(
                ErrorCode.NOT_A_PROJECT,
                "git is not installed or not on PATH",
                hint="Install git; vibflow works on git projects.",
            ) from exc
        raise VibflowError(
            ErrorCode.NOT_A_PROJECT,
            f"could not run git ({type(exc.__cause__).__name__})",
        ) from exc
    # Only the line end is git's: a folder name may itself end in a space.
    top = out.decode("utf-8", "surrogateescape").removesuffix("\n")
    if not top.strip():
        raise _outside_work_tree()
    return Path(top).resolve()


def _outside_work_tree() -> VibflowError:
    return VibflowError(
        ErrorCode.NOT_A_PROJECT,
        "this folder is not inside a git work tree",
        hint="Run vibflow from inside your project's git repository (or `git init` first).",
    )


def state_dir(root: Path) -> Path:
    """``<root>/.vibflow``, created with a ``.gitignore`` that ignores itself."""
    path = root / STATE_DIR
    path.mkdir(exist_ok=True)
    ignore = path / ".gitignore"
    if not ignore.exists():
        ignore.write_text("# vibflow's local state: never committed\n*\n", encoding="utf-8")
    return path
