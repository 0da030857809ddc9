"""What the change itself brought: the paths HEAD does not hold.

Evidence that a file is machine-made must predate the change it excuses. An
agent that writes a ``package.json`` beside the files it edited under ``out/``,
or a ``linguist-generated`` line into ``.gitattributes``, has written the
evidence along with the edits; believed, it hides them. The generated-file
rules ask this of every project file they lean on, and read the attributes as
HEAD holds them when the change touched an attributes file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from vibflow.steps.workspace import diffs

#: A tracked change whose path HEAD does not hold.
_NEW = ("added", "renamed", "copied")


@dataclass(frozen=True)
class Brought:
    """The paths the change added (an untracked folder as ``name/``, as the listing
    gives it), and whether it added, edited, moved or deleted a ``.gitattributes``.
    Without a commit nothing is brought: every file is new, none more than another."""

    paths: frozenset[str] = frozenset()
    attributes: bool = False
    _folders: tuple[str, ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_folders", tuple(p for p in self.paths if p.endswith("/")))

    def has(self, path: str) -> bool:
        """Whether HEAD lacks ``path`` because the change brought it."""
        if not self.paths:
            return False
        return path in self.paths or any(path.startswith(d) for d in self._folders)


NOTHING = Brought()


def brought(head: str | None, tracked: Sequence[diffs.Change], untracked: Sequence[str]) -> Brought:
    """What the change listed as ``tracked`` (against HEAD) and ``untracked`` brought."""
    if head is None:
        return NOTHING
    names = (*(c.path for c in tracked), *(c.old_path or "" for c in tracked), *untracked)
    return Brought(
        frozenset([*(c.path for c in tracked if c.status in _NEW), *untracked]),
        attributes=any(p.rpartition("/")[2] == ".gitattributes" for p in names),
    )
