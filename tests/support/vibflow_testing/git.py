"""The one way a test runs git.

Every call pins ``GIT_OPTIONAL_LOCKS=0``, so a test's own git calls never refresh the
user's index behind the code under test; ``optional_locks=True`` behaves like a user's
plain ``git status`` instead (it may write the index).
"""

from __future__ import annotations

import os
import subprocess
from datetime import datetime
from pathlib import Path


def git_proc(
    root: Path,
    *args: str,
    stdin: bytes | None = None,
    check: bool = True,
    optional_locks: bool = False,
    **env: str,
) -> subprocess.CompletedProcess[bytes]:
    """Run ``git -C root ARGS`` and return the finished process (bytes out)."""
    locks = {} if optional_locks else {"GIT_OPTIONAL_LOCKS": "0"}
    return subprocess.run(
        ["git", "-C", str(root), *args],
        check=check,
        capture_output=True,
        input=stdin,
        env={**os.environ, **locks, **env},
    )


def run_git(root: Path, *args: str, stdin: bytes | None = None, **env: str) -> bytes:
    """git's stdout as bytes; raises if git fails."""
    return git_proc(root, *args, stdin=stdin, **env).stdout


def git(root: Path, *args: str, stdin: bytes | None = None, **env: str) -> str:
    """git's stdout as text (names kept byte-exact with ``surrogateescape``)."""
    return run_git(root, *args, stdin=stdin, **env).decode("utf-8", "surrogateescape")


def gtext(root: Path, *args: str, stdin: bytes | None = None, **env: str) -> str:
    """git's stdout as text, stripped."""
    return git(root, *args, stdin=stdin, **env).strip()


def dated(when: datetime) -> dict[str, str]:
    """The environment that dates a commit at ``when`` (author and committer)."""
    stamp = f"@{int(when.timestamp())} +0000"
    return {"GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
