"""``linguist-generated`` / ``linguist-vendored``: what a project's ``.gitattributes``
say of its files, read as git reads them.

GitHub's linguist attributes are the most explicit word a repository has on which
of its files are machine-made or someone else's code. git itself resolves them
(nesting, later lines winning, negation with ``-attr`` or ``attr=false``), so they are
asked of ``git check-attr`` in one batch — and only when an attributes file could
apply at all, since most projects have none and a git process costs more than the
look.

Only the repository's word counts, as GitHub's linguist reads it: the
``.gitattributes`` files git tracks. git would also read its own
``info/attributes``, the user's ``core.attributesFile`` (or the global one) and
an untracked or ignored ``.gitattributes``; none of them is in the repository or
its diff, so an agent that wrote ``src/** linguist-generated`` into one would
hide its edits unseen. They are shut out: ``check-attr --cached`` reads the
index, never the work tree (and HEAD's own, when the index holds an attributes
file apart from HEAD); ``core.attributesFile`` points at nothing; and when
``info/attributes`` exists, git is given a repository folder of vibflow's own
(``.vibflow/recovery/attributes.git``) that lends the project's objects and has
no ``info/`` folder.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from vibflow.engine.atomicfile import atomic_write
from vibflow.engine.errors import VibflowError
from vibflow.steps.checkpoints.gitstate import common_dir
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
    local = _info_attributes(git)
    if as_committed or local is not None:
        return _as_committed(root, git, paths, local)
    if not _has_attributes(root, paths):
        return {}
    if _staged_apart(git):
        return _as_committed(root, git, paths, None)
    # The index: an attributes file only the work tree holds is not the repository's
    # (one the change edited or staged is read as committed, above).
    return _ask(git, paths, {})


def _staged_apart(git: Git) -> bool:
    """Whether the index holds an attributes file other than HEAD's: staged, then put
    back in the work tree, it is no change the listing shows, yet ``--cached`` would
    read it. Without a commit, the index is all there is."""
    try:
        out = git.run(
            "diff-index",
            "--cached",
            "--name-only",
            "-z",
            "HEAD",
            "--",
            ":(glob)**/.gitattributes",
            ok=(0, 128),
        )
    except VibflowError:
        return True  # not known: read as committed, nothing believed that HEAD lacks
    return bool(out.strip(b"\0"))


def _as_committed(root: str, git: Git, paths: Sequence[str], local: Path | None) -> dict[str, Said]:
    """The attributes of HEAD's attributes files, read from a scratch index of HEAD:
    git 2.39 has no ``check-attr --source``. The index is one of the preview's
    scratch files (a killed process's is swept). With ``local`` (git's own
    ``info/attributes``), git reads it through vibflow's own repository folder."""
    folder = state_dir(Path(root)) / "recovery"
    try:
        index = new_scratch(folder)
    except (VibflowError, OSError):
        return {}  # no scratch file: no attribute is believed, nothing is hidden
    env = {"GIT_INDEX_FILE": str(index)}
    try:
        git.run("read-tree", "HEAD", env=env)
        if local is not None:
            env.update(_without_info(root, folder, local.parent.parent))
        return _ask(git, paths, env)
    except (VibflowError, OSError):
        return {}  # HEAD unreadable, or no folder of our own: no attribute is believed
    finally:
        index.unlink(missing_ok=True)


def _info_attributes(git: Git) -> Path | None:
    """git's own ``info/attributes`` (in the common folder of linked work trees), if
    there is one."""
    try:
        common = common_dir(git.git_dir())
    except VibflowError:
        return None
    found = common / "info" / "attributes"
    return found if found.is_file() else None


def _without_info(root: str, folder: Path, common: Path) -> dict[str, str]:
    """The environment that has git read the project through a repository folder of
    vibflow's own: the project's objects, no ``info/attributes``. Its files never
    change, so it is written once and shared by every process."""
    own = folder / "attributes.git"
    head = own / "HEAD"
    if not head.is_file():
        for sub in ("refs", "objects"):
            (own / sub).mkdir(parents=True, exist_ok=True)
        # An index of SHA-256 ids reads as one only in a repository that says so.
        try:
            config = (common / "config").read_text(encoding="utf-8", errors="replace")
        except OSError:
            config = ""
        sha256 = re.search(r"(?im)^\s*objectformat\s*=\s*sha256\s*$", config) is not None
        atomic_write(
            own / "config",
            "[core]\n\trepositoryformatversion = 1\n[extensions]\n\tobjectformat = sha256\n"
            if sha256
            else "[core]\n\trepositoryformatversion = 0\n",
        )
        atomic_write(head, "ref: refs/heads/none\n")
    return {
        "GIT_DIR": str(own),
        "GIT_COMMON_DIR": str(own),
        "GIT_WORK_TREE": root,
        "GIT_OBJECT_DIRECTORY": str(common / "objects"),
    }


def _ask(git: Git, paths: Sequence[str], env: Mapping[str, str]) -> dict[str, Said]:
    try:
        raw = git.run(
            # Neither the user's attributes file nor the system's: not the repository's.
            "-c",
            f"core.attributesFile={os.devnull}",
            "check-attr",
            "--cached",
            "-z",
            "--stdin",
            "linguist-generated",
            "linguist-vendored",
            stdin=b"\0".join(p.encode("utf-8", "surrogateescape") for p in paths) + b"\0",
            env={"GIT_ATTR_NOSYSTEM": "1", **env},
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


def _has_attributes(root: str, paths: Iterable[str]) -> bool:
    """Whether an attributes file could apply to any of ``paths`` (each folder on
    their way is looked at once)."""
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
    return False
