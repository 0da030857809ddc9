"""``linguist-generated`` / ``linguist-vendored``: what a project's ``.gitattributes``
say of its files, read as git reads them.

GitHub's linguist attributes are the most explicit word a repository has on which
of its files are machine-made or someone else's code. git itself resolves them
(nesting, later lines winning, negation with ``-attr`` or ``attr=false``), so they are
asked of ``git check-attr`` in one batch — and only when an attributes file could
apply at all, since most projects have none and a git process costs more than the
look.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from vibflow.engine.errors import VibflowError
from vibflow.steps.recovery.scratch import new_scratch
from vibflow.steps.workspace.root import state_dir

if TYPE_CHECKING:
    from vibflow.steps.workspace.git import Git

#: What the attributes say of a file: generated, vendored, or (``False``) explicitly
#: neither — the user's own, whatever other rules would say.
Said = Literal["generated", "vendored", False]


def linguist_attributes(
    root: str, git: Git, paths: Sequence[str], *, as_committed: bool = False
) -> dict[str, Said]:
    """What the attributes say of each of ``paths`` (project-relative); a path they say
    nothing of is absent. An attributes file git cannot read never stops a plan.

    ``as_committed``: read the attributes files as HEAD holds them, not as the work
    tree does. An attributes file the change itself edits proves nothing: an agent
    that adds ``src/** linguist-generated`` would otherwise hide every edit it made
    under ``src/``. The caller asks so only when an attributes file changed (a
    scratch index of HEAD costs a ``read-tree``)."""
    if not paths:
        return {}
    if as_committed:
        return _as_committed(root, git, paths)
    if not _has_attributes(root, git, paths):
        return {}
    return _ask(git, paths, ())


def _as_committed(root: str, git: Git, paths: Sequence[str]) -> dict[str, Said]:
    """The attributes of HEAD's attributes files (and git's own ``info/attributes``),
    read from a scratch index of HEAD: git 2.39 has no ``check-attr --source``. The
    index is one of the preview's scratch files (a killed process's is swept)."""
    try:
        index = new_scratch(state_dir(Path(root)) / "recovery")
    except (VibflowError, OSError):
        return {}  # no scratch file: no attribute is believed, nothing is hidden
    env = {"GIT_INDEX_FILE": str(index)}
    try:
        git.run("read-tree", "HEAD", env=env)
        return _ask(git, paths, ("--cached",), env)
    except VibflowError:
        return {}  # HEAD unreadable: no attribute is believed
    finally:
        index.unlink(missing_ok=True)


def _ask(
    git: Git, paths: Sequence[str], flags: Sequence[str], env: Mapping[str, str] | None = None
) -> dict[str, Said]:
    try:
        raw = git.run(
            "check-attr",
            *flags,
            "-z",
            "--stdin",
            "linguist-generated",
            "linguist-vendored",
            stdin=b"\0".join(p.encode("utf-8", "surrogateescape") for p in paths) + b"\0",
            env=env,
        )
    except VibflowError:
        return {}
    fields = raw.split(b"\0")
    values: dict[str, dict[str, str]] = {}
    for i in range(0, len(fields) - 2, 3):
        path = fields[i].decode("utf-8", "surrogateescape")
        values.setdefault(path, {})[fields[i + 1].decode()] = fields[i + 2].decode()
    out: dict[str, Said] = {}
    for path, said in values.items():
        gen, ven = said.get("linguist-generated"), said.get("linguist-vendored")
        if gen in ("set", "true"):
            out[path] = "generated"
        elif ven in ("set", "true"):
            out[path] = "vendored"
        elif gen in ("unset", "false") or ven in ("unset", "false"):
            out[path] = False
    return out


def _has_attributes(root: str, git: Git, paths: Iterable[str]) -> bool:
    """Whether an attributes file could apply to any of ``paths`` (each folder on
    their way is looked at once); git's own ``info/attributes`` too."""
    seen: set[str] = set()
    isfile = os.path.isfile
    for path in paths:
        folder = path.rpartition("/")[0]
        while folder not in seen:
            seen.add(folder)
            where = os.path.join(root, folder, ".gitattributes")  # noqa: PTH118
            if isfile(where):
                return True
            if not folder:
                break
            folder = folder.rpartition("/")[0]
    try:
        return (git.git_dir() / "info" / "attributes").is_file()
    except VibflowError:
        return False
