"""Bring the private snapshot index up to the work tree: the full store's way
of taking a checkpoint's tree (:class:`~.store.CheckpointStore` commits it).

The private index starts as a copy of the user's real index (so its stat
data lets git re-hash only what changed — an empty index re-hashes every
file) and is kept between checkpoints, re-copied only when the user's index
changes. Every index-touching command runs with ``GIT_INDEX_FILE`` pointing at
the private copy: the user's index is never written.

Included: tracked changes and untracked, non-ignored files, listed one by one
(``ls-files -o``, never collapsed directories). Left out and listed: untracked
files over the size cap, nested repositories and untracked files that likely
hold a secret (:mod:`.secret_files`). Never included: ignored files, vibflow's
own ``.vibflow/`` and the temp files a killed restore left. The agent hook's
lean path (:mod:`.quick`) reaches the same tree from one ``status``; the state
file both keep (``snapshot.json``) says what the private index holds.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vibflow.steps.checkpoints import gitstate, snapshot_core
from vibflow.steps.checkpoints.leftovers import is_restore_temp
from vibflow.steps.checkpoints.models import Skipped
from vibflow.steps.checkpoints.secret_files import SecretFiles
from vibflow.steps.workspace.diffs import copy_as_read
from vibflow.steps.workspace.git import Git, GitError

Progress = Callable[[str], None]


@dataclass
class Snapshot:
    tree: str
    head: str | None
    file_count: int
    untracked: list[str]
    skipped: list[Skipped] = field(default_factory=list)
    unscanned: int = 0


class Snapshotter:
    """The private index of one project's checkpoints (``<state>/checkpoints``)."""

    def __init__(
        self, root: Path, git: Git, folder: Path, size_cap: int, secrets: SecretFiles
    ) -> None:
        self.root = root
        self.git = git
        self.index = folder / "index"
        self.state_file = folder / "snapshot.json"
        self.size_cap = size_cap
        self.secrets = secrets

    def take(self, progress: Progress | None = None) -> tuple[Snapshot, dict[str, Any]]:
        """Bring the private index up to the working tree; return its tree."""
        try:
            return self._take_once(progress)
        except GitError as exc:
            if exc.subcommand != "write-tree":
                raise
            # The private index can name blobs no ref keeps alive (a working-tree
            # diff), which the user's own gc may have pruned: start it afresh.
            self.index.unlink(missing_ok=True)
            return self._take_once(progress)

    def _take_once(self, progress: Progress | None) -> tuple[Snapshot, dict[str, Any]]:
        git_dir = self.git.git_dir()
        user_index = git_dir / "index"
        state = snapshot_core.read_state(self.state_file)
        # A killed snapshot can leave git's lock file on our private index; we
        # hold our own lock here, so any such lock file is an orphan.
        orphan = self.index.with_name("index.lock")
        if orphan.exists():
            orphan.unlink()
        signature = gitstate.signature(user_index)
        if state.get("user_index") != signature or not self.index.exists():
            if signature is None:
                self.index.unlink(missing_ok=True)
            else:
                # The index's mtime is kept: git compares it with file mtimes to
                # spot "racily clean" entries, so a fresh mtime would let a
                # same-size edit made in the same second as `git add` slip by.
                # Bytes and mtime come from one open file, in case the user's
                # index is replaced while it is copied.
                copy_as_read(user_index, self.index)
            previous: set[str] = set()
            was_missing: set[str] = set()
        else:
            previous = set(state.get("untracked", []))
            was_missing = set(state.get("missing_tracked", []))
        # The untracked list is saved *before* its files are added (below), so it
        # may name files a killed snapshot never added; it says what is in the
        # private index only when that snapshot finished (its tree is recorded).
        unfinished = state.get("tree") is None
        env = {"GIT_INDEX_FILE": str(self.index)}
        if progress:
            progress("listing untracked files")
        listed = self.git.z("ls-files", "-z", "--others", "--exclude-standard")
        untracked, skipped, unscanned = self.filter_untracked(listed, progress=progress)
        current = set(untracked)
        gone = sorted(previous - current)
        # Record every untracked file that may enter the private index *before*
        # adding them: if this process dies half-way, the next snapshot still
        # knows to take out any of them that became ignored or vanished.
        # Tracked files missing now: `add -u` drops them from the private index,
        # so if one reappears later it must be put back explicitly.
        # diff-files, not `ls-files --deleted`: a tracked file that became a folder is
        # gone too (`add -u` drops it), and only diff-files says so; missed here, the
        # file would never be put back when it returns.
        missing = set(self.git.z("diff-files", "-z", "--name-only", "--diff-filter=D"))
        back = sorted(
            p
            for p in was_missing - missing
            if (self.root / p).exists() or (self.root / p).is_symlink()
        )
        state.update(
            {
                "user_index": signature,
                "untracked": sorted(previous | current),
                "missing_tracked": sorted(missing | was_missing),
                # The private index is about to change: until this snapshot ends,
                # nothing may claim to know which tree it holds.
                "tree": None,
            }
        )
        snapshot_core.save_state(self.state_file, state)
        if gone:
            self.git.run(
                "update-index", "-z", "--force-remove", "--stdin", stdin=gitstate.nul(gone), env=env
            )
        if progress:
            progress("hashing changed files")
        self.git.run("add", "-u", env=env)
        new = [p for p in untracked if unfinished or p not in previous] + back
        if new:
            # Only files new since the last finished snapshot; earlier ones are in
            # the private index already and `add -u` refreshed them. After a killed
            # snapshot every untracked file is added again (adding one twice is
            # harmless; leaving one out would silently drop it from checkpoints).
            self.git.run("update-index", "--add", "-z", "--stdin", stdin=gitstate.nul(new), env=env)
        tree = self.git.text("write-tree", env=env)
        snap = Snapshot(tree, self.git.head(), self._count(git_dir), untracked, skipped, unscanned)
        state.update({"untracked": untracked, "missing_tracked": sorted(missing), "tree": tree})
        return snap, state

    def _count(self, git_dir: Path) -> int:
        if any(git_dir.glob("sharedindex.*")):
            # A split index's header counts only its own part: ask git.
            env = {"GIT_INDEX_FILE": str(self.index)}
            return len(self.git.run("ls-files", "-z", env=env).split(b"\0")) - 1
        return gitstate.index_entries(self.index)

    def filter_untracked(
        self, listed: list[str], *, every_file: bool = True, progress: Progress | None = None
    ) -> tuple[list[str], list[Skipped], int]:
        """(included, left out, how many included were not scanned for secrets)."""
        cap = self.size_cap
        fits: list[tuple[str, os.stat_result]] = []
        skipped: list[Skipped] = []
        for rel in listed:
            if rel.startswith(".vibflow/") or is_restore_temp(rel):
                continue  # vibflow's own: its state, a killed restore's temp files
            if rel.endswith("/"):
                skipped.append(Skipped(path=rel.rstrip("/"), reason="nested_repo"))
                continue
            # Before the size: a large secret file is left out as a secret, which
            # is what keeps a restore from ever deleting it.
            rule = self.secrets.name_rule(rel)
            if rule is not None:
                skipped.append(Skipped(path=rel, reason="secret_name", detail=rule))
                continue
            try:
                st = (self.root / rel).lstat()
            except OSError:
                skipped.append(Skipped(path=rel, reason="unreadable"))
                continue
            if st.st_size > cap:
                skipped.append(Skipped(path=rel, reason="too_large", size=st.st_size))
                continue
            fits.append((rel, st))
        found = self.secrets.by_content(fits, every_file=every_file, progress=progress)
        left_out = {s.path for s in found.skipped}
        kept = [rel for rel, _ in fits if rel not in left_out]
        return kept, sorted(skipped + found.skipped, key=lambda s: s.path), found.unscanned
