"""The index entries of restored files, put back to HEAD's.

A restore writes the work tree. An agent that staged its change (``git add``,
``git mv``, ``git rm``) left it in the index too, where writing the file's
content does not reach: the next ``git commit`` would still commit the agent's
change (a ``git rm``'d file the restore put back would be dropped from the
repository), and the next plan would read the staged change as drift again.
So once the files are restored, the index entries of exactly the restored paths
that differ from HEAD are reset to HEAD's — unstaged, as ``git reset -- PATH``
does. Every other entry and every file's content are left alone, and a restore
of files nobody staged leaves the index file untouched. Doing it again changes
nothing, so a resumed restore simply runs it again.
"""

from __future__ import annotations

from collections.abc import Iterable

from vibflow.steps.workspace.diffs import EMPTY_TREE
from vibflow.steps.workspace.git import Git


def staged(git: Git, paths: Iterable[str], head: str | None) -> list[str]:
    """Of ``paths``, those whose index entry differs from HEAD's (plumbing: the index
    is only read)."""
    wanted = set(paths)
    if not wanted:
        return []
    listed = git.z(
        "diff-index", "--cached", "-z", "--name-only", "--no-renames", head or EMPTY_TREE
    )
    return sorted(p for p in listed if p in wanted)


def unstage(git: Git, paths: Iterable[str]) -> list[str]:
    """Reset the index entries of ``paths`` that differ from HEAD to HEAD's (an entry
    HEAD does not have is taken out of the index); the paths reset."""
    head = git.head()
    hit = staged(git, paths, head)
    if not hit:
        return []
    spec = b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for p in hit)
    if head is not None:
        git.run(
            "--literal-pathspecs",
            "reset",
            "-q",
            head,
            "--pathspec-from-file=-",
            "--pathspec-file-nul",
            stdin=spec,
        )
    else:  # no commit yet: HEAD holds nothing, so every such entry leaves the index
        git.run(
            "--literal-pathspecs",
            "rm",
            "--cached",
            "-q",
            "-r",
            "--ignore-unmatch",
            "--pathspec-from-file=-",
            "--pathspec-file-nul",
            stdin=spec,
        )
    return hit
