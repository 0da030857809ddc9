"""The four git reads a preview starts from, side by side, and the guess a
long-lived process works from while they run.

The reads: the two listings (``early_listing``: the tracked changes from HEAD
to the work tree, the untracked files), the recent commits on HEAD and the
co-change history of the intent's files, on threads kept for the process's
life.

A warm server (the MCP server) also keeps the two listings it read last
(:class:`LastListings`). While git lists again, the main thread would only
wait, so while the tree holds still the preview works everything out from the
last listings meanwhile; when the new ones are the same — names, statuses,
old names and blobs, every untracked name — so is everything worked out from
them, and that answer stands. Every other input (file states, contents,
memory, checkpoints) is read during the request either way. When they differ,
the guess is dropped and the work is done again from what git listed: the
guess is never an answer on its own.

Recent commits cost one ``git log`` bounded in commits and age, on HEAD's
first-parent line (a merge counts as the one commit that brought its files
in).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

from vibflow.engine.errors import VibflowError
from vibflow.steps.recovery import cochange
from vibflow.steps.recovery.early_listing import Listed, Listing, list_changes, listing_pool
from vibflow.steps.recovery.zone import RecentCommit
from vibflow.steps.recovery.zone_policy import ZonePolicy
from vibflow.steps.workspace.git import Git

#: The most names a kept listing holds (~100 bytes each); a larger tree lists afresh.
MAX_KEPT = 50_000
RECENT_COMMITS = 10
RECENT_COMMITS_DAYS = 14

# One record per commit: RS, then unit-separated fields; the subject goes last
# so a stray separator in it cannot shift the other fields.
_LOG_FORMAT = "%x1e%H%x1f%h%x1f%P%x1f%ct%x1f%s"
_SHA = re.compile(r"^(?:[0-9a-f]{40}|[0-9a-f]{64})$")


@dataclass(frozen=True)
class Reads:
    """One preview's four git reads, under way."""

    listing: Listing
    commits: Future[list[RecentCommit]]
    history: Future[list[cochange.Touched]]

    def listed(self) -> Listed:
        return self.listing.listed()


def begin(
    git: Git,
    scratch_index: Path,
    start: str,
    head: str | None,
    anchors: Sequence[str],
    zone: ZonePolicy,
    *,
    counts: bool,
    early: Listing | None = None,
) -> Reads:
    """Start the four reads from HEAD's commit ``head`` (``start``: it, or the empty
    tree); the listings are ``early``'s when it lists from ``start`` with the same
    counts (a fresh command's, started before vibflow was loaded: ``early_listing``)."""
    listing = (
        early
        if early is not None and early.start == start and counts
        else list_changes(git, scratch_index, start, counts=counts)
    )
    pool = listing_pool()
    return Reads(
        listing,
        pool.submit(recent_commits, git, head),
        pool.submit(
            cochange.read,
            git,
            head,
            anchors,
            commits=zone.cochange_commits,
            days=zone.cochange_days,
            max_files=zone.cochange_max_files,
        ),
    )


class LastListings:
    """The listings a long-lived process read last, by the commit they start from:
    a guess to work from (never an answer: see the module docstring), offered only
    while the tree holds still — when the last two listings were the same. An
    agent's turn that adds files changes the listings from one preview to the
    next; work from a guess it proves wrong is lost, and competes with git for
    the cores meanwhile (a third slower, measured), so after one miss the next
    preview works from git alone until two listings agree again."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last: tuple[str, Listed] | None = None
        self._still = False  # the last two listings were the same

    def guess(self, start: str) -> Listed | None:
        with self._lock:
            last, still = self._last, self._still
        return last[1] if still and last is not None and last[0] == start else None

    def saw(self, start: str, listed: Listed) -> None:
        """Note what git listed from ``start`` (a listing of more than
        :data:`MAX_KEPT` names is not kept: bounded memory for the server's life)."""
        tracked, untracked = listed
        with self._lock:
            if len(tracked) + len(untracked) > MAX_KEPT:
                self._last, self._still = None, False
                return
            self._still = self._last is not None and self._last == (start, listed)
            self._last = (start, listed)


def recent_commits(git: Git, head: str | None) -> list[RecentCommit]:
    """Up to ``RECENT_COMMITS`` commits from the last ``RECENT_COMMITS_DAYS`` days on
    HEAD's first-parent line, newest first, each with the paths it touched."""
    if head is None:
        return []  # no commits yet: nothing to walk, and git log would fail
    try:
        raw = git.run(
            # A root commit adds the whole project: diffing it costs a walk of every
            # tree (tens of ms at 20k files) and says nothing about one intent.
            "-c",
            "log.showRoot=false",
            "log",
            f"--max-count={RECENT_COMMITS}",
            f"--since={RECENT_COMMITS_DAYS}.days.ago",
            "--first-parent",
            "-m",  # with --first-parent: a merge shows what it brought in
            "--no-renames",  # both names count as touched, and no rename search to pay for
            "--no-color",
            "--no-show-signature",
            "--no-ext-diff",
            "--encoding=UTF-8",
            "--name-only",
            "-z",
            f"--format={_LOG_FORMAT}",
            head,
            "--",
        )
    except VibflowError:
        # A history git cannot walk (shallow, damaged) still gets a plan from the diff.
        return []
    return parse_log(raw)


def parse_log(raw: bytes) -> list[RecentCommit]:
    """Parse ``git log -z --name-only`` in ``_LOG_FORMAT``: each record is the header,
    then (if the commit was diffed) a newline and its NUL-separated paths."""
    records: list[tuple[list[str], list[str]]] = []
    first_path = False
    for token in raw.split(b"\0"):
        header = _header(token[1:]) if token.startswith(b"\x1e") else None
        if header is not None:
            records.append((header, []))
            first_path = True
            continue
        if not records or not token:
            continue
        # git puts one newline between a header and its first path.
        name = token[1:] if first_path and token.startswith(b"\n") else token
        first_path = False
        if name:
            records[-1][1].append(name.decode("utf-8", "surrogateescape"))
    out = []
    for (sha, short, parents, when, subject), paths in records:
        unique = tuple(dict.fromkeys(paths))
        out.append(
            RecentCommit(
                sha=sha,
                short=short,
                subject=subject,
                committed_at=float(when),
                paths=unique,
                files_count=len(unique) if parents.strip() else None,
            )
        )
    return out


def _header(raw: bytes) -> list[str] | None:
    fields = raw.decode("utf-8", "replace").split("\x1f", 4)
    if len(fields) != 5 or not _SHA.match(fields[0]) or not fields[3].isdigit():
        return None
    return fields
