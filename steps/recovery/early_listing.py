"""The two git listings a preview starts from, and starting them before the
rest of vibflow is loaded.

The tracked changes from HEAD to the work tree (``git diff``, names exact,
renames followed) and the untracked files (``git ls-files --others``) run on
threads kept for the process's life (:func:`listing_pool`), the diff submitted
first: it is the longest, and git works on the other core meanwhile.

A fresh ``vibflow recover`` spends ~0.15 s importing the advisor, its models
and the policy before it asks git anything, while git's listing alone takes a
third of a preview at 20,000 files. So the command starts the listings as soon
as it knows the project's root (:func:`start_early`, called before those
imports) and the preview takes them when it gets there, if HEAD has not moved
meanwhile. This module stays light for that reason: git, the diff parser and
the thread pool, nothing that builds a model.
"""

from __future__ import annotations

import atexit
import contextlib
import threading
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from vibflow.steps.recovery import refreshed_index
from vibflow.steps.recovery.scratch import new_scratch
from vibflow.steps.workspace import diffs
from vibflow.steps.workspace.git import Git
from vibflow.steps.workspace.root import state_dir

#: The tracked changes and the untracked names (as ``ls-files`` gives them).
Listed = tuple[list[diffs.Change], list[str]]

_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


def listing_pool() -> ThreadPoolExecutor:
    """The threads a preview's git reads run on (side by side: git works on the
    other core while this process parses and waits), kept for the process's life.
    A warm server's concurrent previews share them (their reads queue)."""
    global _POOL  # noqa: PLW0603 - one pool per process, made on first use
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(4, "vibflow-signals")
        return _POOL


@dataclass(frozen=True)
class Listing:
    """The two listings from commit ``start``, under way. ``scratch``: the index
    copy this listing owns (an early one), removed once it is read."""

    start: str
    tracked: Future[list[diffs.Change]]
    untracked: Future[list[str]]
    scratch: Path | None = None

    def listed(self) -> Listed:
        return self.tracked.result(), self.untracked.result()

    def close(self) -> None:
        """Wait for the diff, then remove the index copy this listing owns."""
        if self.scratch is not None:
            wait([self.tracked])
            with contextlib.suppress(OSError):
                self.scratch.unlink(missing_ok=True)


def list_changes(git: Git, scratch_index: Path, start: str, *, counts: bool) -> Listing:
    """Start both listings from ``start`` (HEAD's commit, or the empty tree). The
    scratch index is filled here — from the user's index, or the copy of it git
    last refreshed (``refreshed_index``) — before any read starts: reads that
    follow the diff (a warm process's line counts) use it too, and must never see
    it half written."""
    filled = refreshed_index.fill(git.git_dir(), git.root, scratch_index)
    pool = listing_pool()
    return Listing(
        start,
        pool.submit(_tracked, git, scratch_index, start, filled, counts),
        pool.submit(git.z, "ls-files", "-z", "--others", "--exclude-standard"),
    )


def _tracked(
    git: Git, scratch_index: Path, start: str, filled: refreshed_index.Filled, counts: bool
) -> list[diffs.Change]:
    changes = diffs.head_to_worktree(git, scratch_index, start, counts=counts, copy=False)
    # What git refreshed in the copy is kept for the next preview: one copy of the
    # index, made only after git did refresh entries (and hashed files for it).
    refreshed_index.keep(scratch_index, filled)
    return changes


def start_early(root: Path) -> Listing | None:
    """The listings of the project at ``root``, started now, through an index copy
    of their own; None when they cannot be (the preview then lists as usual, and
    says what is wrong)."""
    try:
        git = Git(root)
        start = git.head() or diffs.EMPTY_TREE
        scratch = new_scratch(state_dir(root) / "recovery")
    except Exception:  # noqa: BLE001 - only a head start: the preview reports what is wrong
        return None
    try:
        listing = list_changes(git, scratch, start, counts=True)
    except Exception:  # noqa: BLE001 - likewise
        scratch.unlink(missing_ok=True)
        return None
    found = Listing(start, listing.tracked, listing.untracked, scratch)
    # Closed by the preview that takes it, and in any case when the command ends (it
    # failed before its preview, Ctrl-C while it loaded): the diff is waited for
    # first, since git writes its refreshed copy back under the same name.
    atexit.register(found.close)
    return found
