"""What the change itself brought: the paths HEAD does not hold.

Evidence that a file is machine-made must predate the change it excuses. An
agent that writes a ``package.json`` beside the files it edited under ``out/``,
or a ``linguist-generated`` line into ``.gitattributes``, has written the
evidence along with the edits; believed, it hides them. The generated-file
rules ask this of every project file they lean on, and read the attributes as
HEAD holds them when the change touched an attributes file.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from vibflow.engine.errors import VibflowError

if TYPE_CHECKING:
    from vibflow.steps.checkpoints.models import CheckpointMeta
    from vibflow.steps.workspace import diffs
    from vibflow.steps.workspace.git import Git

#: A tracked change whose path HEAD does not hold.
_NEW = ("added", "renamed", "copied")
#: Checkpoints that say nothing about what was there before the change: a restore's
#: sandwich holds what was there before a restore (often the drift), and an agent
#: turn's is taken on its own at every prompt, after whatever the turns before
#: wrote (a ``go.mod`` one turn writes would vouch for the next turn's edits).
_NOT_BEFORE = ("sandwich", "agent_turn")
#: The newest checkpoints asked whether they hold a project file the change seems to
#: have brought.
CHECKPOINTS_ASKED = 50


@dataclass(frozen=True)
class Brought:
    """The paths the change added (an untracked folder as ``name/``, as the listing
    gives it), whether it added, edited, moved or deleted a ``.gitattributes``, and
    which ``.gitignore`` files it so touched.
    Without a commit nothing is brought: every file is new, none more than another."""

    paths: frozenset[str] = frozenset()
    attributes: bool = False
    #: The commit the change is judged against.
    head: str | None = None
    #: The ``.gitignore`` files the change added, edited, moved or deleted.
    ignore_files: frozenset[str] = frozenset()
    #: The trees of the checkpoints taken before: a file one of them holds was there
    #: before the change the plan judges (a project not committed yet), so its
    #: evidence stands.
    before: tuple[str, ...] = ()
    _folders: tuple[str, ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_folders", tuple(p for p in self.paths if p.endswith("/")))

    def has(self, path: str) -> bool:
        """Whether HEAD lacks ``path`` because the change brought it."""
        if not self.paths:
            return False
        return path in self.paths or any(path.startswith(d) for d in self._folders)


NOTHING = Brought()


def brought(
    head: str | None,
    tracked: Sequence[diffs.Change],
    untracked: Sequence[str],
    checkpoints: Sequence[CheckpointMeta] = (),
) -> Brought:
    """What the change listed as ``tracked`` (against HEAD) and ``untracked`` brought;
    ``checkpoints``' newest complete ones the user took (no sandwich, no agent
    turn's: ``_NOT_BEFORE``) may say a path was there before."""
    if head is None:
        return NOTHING
    names = (*(c.path for c in tracked), *(c.old_path or "" for c in tracked), *untracked)
    usable = [m for m in checkpoints if m.metadata_complete and m.reason not in _NOT_BEFORE]
    usable.sort(key=lambda m: m.created_at, reverse=True)
    return Brought(
        frozenset([*(c.path for c in tracked if c.status in _NEW), *untracked]),
        attributes=any(p.rpartition("/")[2] == ".gitattributes" for p in names),
        head=head,
        ignore_files=frozenset(p for p in names if p.rpartition("/")[2] == ".gitignore"),
        before=tuple(m.tree or m.commit for m in usable[:CHECKPOINTS_ASKED] if m.tree or m.commit),
    )


def held_before(git: Git, trees: Sequence[str], paths: Collection[str]) -> set[str]:
    """Those of ``paths`` one of ``trees`` holds (one ``cat-file --batch-check`` for
    every pair). A name git's ``TREE:path`` syntax cannot carry (a line break) is
    never held; a git that fails holds nothing."""
    asked = [(t, p) for t in trees for p in paths if "\n" not in p and "\r" not in p]
    if not asked:
        return set()
    lines = b"".join(f"{t}:{p}\n".encode("utf-8", "surrogateescape") for t, p in asked)
    try:
        out = git.run("cat-file", "--batch-check", stdin=lines)
    except VibflowError:
        return set()
    answers = out.split(b"\n")
    return {
        p
        for (_, p), answer in zip(asked, answers, strict=False)
        if answer and not answer.endswith(b" missing")
    }
