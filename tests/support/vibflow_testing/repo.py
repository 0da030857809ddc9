"""The one repository builder: real git repositories in a test's own temp folder.

``make_repo`` is the project the ``repo`` fixture hands out (one commit, the fixture
flows installed); ``init_repo`` builds any other. Git runs through ``vibflow_testing.git``.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any

from vibflow.steps.checkpoints.models import CheckpointPolicy
from vibflow.steps.checkpoints.store import CheckpointStore
from vibflow.steps.workspace.root import state_dir
from vibflow_testing import FLOWS
from vibflow_testing.git import run_git

OLD = time.time() - 3600  # an mtime safely outside git's racy-clean window
_CONFIG = (
    '[user]\n\temail = dev@example.invalid\n\tname = Dev\n[protocol "file"]\n\tallow = always\n'
)


def write(root: Path, rel: str, text: str | bytes, *, old: bool = False) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    if old:
        os.utime(path, (OLD, OLD))
    return path


def init_repo(root: Path, files: dict[str, str] | None = None, *, old: bool = False) -> Path:
    """A git repository at ``root`` with one commit of ``files`` (if any); ``old``
    backdates them out of git's racy-clean window."""
    root.mkdir(parents=True, exist_ok=True)
    run_git(root, "init", "-q", "-b", "main")
    # git's own config file format, appended in one write: three `git config`
    # processes per repository were a tenth of the suite's git time.
    with (root / ".git" / "config").open("a", encoding="utf-8") as fh:
        fh.write(_CONFIG)
    if files is not None:
        for rel, text in files.items():
            write(root, rel, text, old=old)
        run_git(root, "add", "-A")
        run_git(root, "commit", "-q", "-m", "init")
    return root


def make_repo(root: Path) -> Path:
    """A fresh project at ``root``: a git repository with one commit (``README.md``) and
    the valid fixture flows installed under ``.vibflow/flows``."""
    root.mkdir(parents=True)
    init_repo(root, {"README.md": "hello\n"})
    flows = root / ".vibflow" / "flows"
    flows.mkdir(parents=True)
    for f in (FLOWS / "valid").glob("*.yaml"):
        shutil.copy(f, flows / f.name)
    return root


def make_store(root: Path, **policy: Any) -> CheckpointStore:
    """The store as the CLI wires it: state under ``<root>/.vibflow``."""
    return CheckpointStore(root, state_dir(root), CheckpointPolicy(**policy))


def with_submodule(tmp_path: Path, *, old: bool = False) -> tuple[Path, Path]:
    """A repository with a committed submodule ``sub`` (from a local upstream holding
    ``lib.py``); returns the repository and the submodule's work tree."""
    upstream = init_repo(tmp_path / "upstream", {"lib.py": "v1\n"}, old=old)
    root = init_repo(tmp_path / "r", {"README.md": "hi\n"}, old=old)
    run_git(
        root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(upstream), "sub"
    )
    run_git(root, "commit", "-q", "-m", "submodule")
    sub = root / "sub"
    run_git(sub, "config", "user.email", "dev@example.invalid")
    run_git(sub, "config", "user.name", "Dev")
    return root, sub


def ignore_outside_tree(root: Path, line: str) -> None:
    """Add an ignore rule to ``.git/info/exclude`` (no file in the work tree changes)."""
    with (root / ".git" / "info" / "exclude").open("a", encoding="utf-8") as fh:
        fh.write(line + "\n")
