"""Co-change history (``anchor_co_occurrence``, spec §5): which files changed
together with the intent's files in the recent history, and how often.

One bounded ``git log``: the newest ``commits`` commits of the last ``days``
days that touched an explicit file (``--full-diff``: with every file those
commits touched), merges left out, renames not searched. A commit that touched
more than ``max_files`` files (a reformat, a dependency bump, the first
import) says nothing about what belongs together, so it is skipped; so is a
root commit, which adds everything, and a commit that created an explicit file
(the first import of a project whose history starts with a README: everything
arrives with everything). A file changed together with an explicit file in
``min_together`` or more commits is in the zone; once is a hint — unless that
once is all the history the explicit file has (``evidence``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from vibflow.engine.errors import VibflowError
from vibflow.steps.workspace.git import Git

_FORMAT = "%x1e%H%x1f%P"
_SHA = re.compile(rb"^(?:[0-9a-f]{40}|[0-9a-f]{64})$")


@dataclass(frozen=True)
class CoChange:
    """How often a file changed together with an explicit file."""

    anchor: str  # the explicit file it changed with most often
    together: int  # commits that touched both
    window: int  # commits read (that touched an explicit file)
    #: Of ``together``, the commits that created the file: a page added with its
    #: route says the two exist together, not that editing one edits the other.
    created: int = 0


class Touched(tuple[str, ...]):
    """The paths one commit touched (a tuple, as before), and which it added."""

    added: frozenset[str]

    def __new__(cls, paths: Iterable[str], added: Iterable[str] = ()) -> Touched:
        made = super().__new__(cls, paths)
        made.added = frozenset(added)
        return made


def read(
    git: Git,
    head: str | None,
    anchors: Sequence[str],
    *,
    commits: int,
    days: int,
    max_files: int,
) -> list[Touched]:
    """The file sets of the recent commits that touched one of ``anchors``."""
    if head is None or not anchors or commits <= 0:
        return []
    try:
        raw = git.run(
            # A root commit's paths are never read (see parse), and diffing it against
            # nothing walks the whole project (30 ms at 20,000 files): not shown. Which
            # commits are listed does not change (showRoot only governs the diff shown).
            "-c",
            "log.showRoot=false",
            "--literal-pathspecs",
            "log",
            f"--max-count={commits}",
            f"--since={days}.days.ago",
            "--no-merges",
            "--full-diff",
            "--no-renames",
            "--no-color",
            "--no-ext-diff",
            "--name-status",
            "-z",
            f"--format={_FORMAT}",
            head,
            "--",
            *anchors,
        )
    except VibflowError:
        return []  # a history git cannot walk gives no co-change evidence, not an error
    return parse(raw, max_files, created=anchors)


def parse(raw: bytes, max_files: int, *, created: Iterable[str] = ()) -> list[Touched]:
    """Records of ``git log -z --name-status --format=%x1e%H%x1f%P``: the paths of
    each commit with a parent, at most ``max_files`` paths and none of ``created``
    added by it."""
    skip_if_added = set(created)
    out: list[Touched] = []
    current: list[str] | None = None
    added: set[str] = set()
    status: bytes | None = None

    def close() -> None:
        if current is not None and len(current) <= max_files and not added & skip_if_added:
            out.append(Touched(dict.fromkeys(current), added))

    for token in raw.split(b"\0"):
        if token.startswith(b"\x1e"):
            close()
            sha, _, parents = token[1:].partition(b"\x1f")
            current = [] if _SHA.match(sha) and parents.strip() else None
            added = set()
            status = None
            continue
        if current is None or not token:
            continue
        if status is None:
            status = token.lstrip(b"\n")[:1]  # the header line ends in a newline
            continue
        name = token.decode("utf-8", "surrogateescape")
        current.append(name)
        if status == b"A":
            added.add(name)
        status = None
    close()
    return out


def count(
    history: Iterable[tuple[str, ...]], anchors: Iterable[str], candidates: Iterable[str]
) -> dict[str, CoChange]:
    """For each candidate that changed together with an anchor: how often, with which.
    An anchor that is a folder (``src/ui/``, with its slash) covers the files under it."""
    commits = list(history)
    files = {a for a in anchors if not a.endswith("/")}
    folders = [a.rstrip("/") + "/" for a in anchors if a.endswith("/")]
    wanted = set(candidates)
    pairs: dict[str, dict[str, int]] = {}
    born: dict[str, int] = {}
    for paths in commits:
        touched = [p for p in paths if p in files]
        for folder in folders:
            if any(p.startswith(folder) for p in paths):
                touched.append(folder)
        if not touched:
            continue
        made: frozenset[str] = getattr(paths, "added", frozenset())
        for p in paths:
            if p in wanted:
                if p in made:
                    born[p] = born.get(p, 0) + 1
                per = pairs.setdefault(p, {})
                for a in touched:
                    if p != a and not p.startswith(a if a.endswith("/") else a + "/"):
                        per[a] = per.get(a, 0) + 1
    out = {}
    for path, per in pairs.items():
        if per:
            anchor, together = max(per.items(), key=lambda kv: (kv[1], kv[0]))
            out[path] = CoChange(anchor, together, len(commits), born.get(path, 0))
    return out
