"""The safe checkpoint as a second baseline for recovery — read-only.

The diff against HEAD cannot see what only the checkpoint knows: an untracked
file it held that the agent deleted, an uncommitted edit it held that the agent
reverted to HEAD's content. Nor can HEAD say what a restore from the checkpoint
does to a path: write it (the checkpoint holds it), delete it (it does not), or
leave it (it holds it exactly as it is now). This module answers both with a
``diff-tree`` of HEAD against the checkpoint (its cost grows with what they
differ in, not with the project) and one ``ls-tree`` for the few files old
enough to be unchanged since the checkpoint — never a git call per file.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from vibflow.engine.errors import VibflowError
from vibflow.steps.checkpoints.models import CheckpointMeta
from vibflow.steps.recovery.git_memo import GitMemo
from vibflow.steps.recovery.models import ChangedFile, SafeCheckpointCandidate
from vibflow.steps.recovery.options import epoch, safe_checkpoint, sides
from vibflow.steps.workspace import diffs
from vibflow.steps.workspace.git import Git

if TYPE_CHECKING:
    # Imported where used: a preview with no safe checkpoint never loads the restore
    # machinery (~47 M instructions of every fresh preview).
    from vibflow.steps.checkpoints import restore


@dataclass(frozen=True)
class CheckpointBase:
    """How the safe checkpoint differs from HEAD, by name: enough to tell, for any
    changed path, whether the checkpoint holds it (a restore writes it) or not (a
    restore deletes it), without listing the whole checkpoint."""

    checkpoint_id: str
    added: frozenset[str]  # in the checkpoint, not in HEAD (untracked then, or staged)
    removed: frozenset[str]  # in HEAD, not in the checkpoint (deleted then)
    unsaved: frozenset[str] = frozenset()  # left out of it (too large, unreadable)
    settled: frozenset[str] = frozenset()  # paths a restore from it would leave as they are
    #: Why each ``unsaved`` path was left out, in words (never its content).
    left_out_why: tuple[tuple[str, str], ...] = ()
    #: What it holds (mode, blob) where it differs from HEAD; elsewhere it holds HEAD's.
    sides: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    #: Changed paths that commits made since it was taken changed too: a restore from
    #: it puts them back as they were before those commits.
    committed: frozenset[str] = frozenset()

    def holds(self, path: str, in_head: bool) -> bool:
        return path in self.added if not in_head else path not in self.removed


def against_checkpoint(
    root: Path,
    git: Git,
    head: str | None,
    checkpoints: Sequence[CheckpointMeta],
    changed: Sequence[ChangedFile],
    mtimes: dict[str, float],
    judge: HeldJudge | None = None,
    head_blobs: Mapping[str, tuple[str, str]] | None = None,
) -> tuple[CheckpointBase | None, list[tuple[str, str]]]:
    """The safe checkpoint's differences from HEAD, and the changes only it shows.
    ``head_blobs``: HEAD's (mode, blob) of the changed files, as their listing gave
    them (else what the checkpoint holds for them is listed from git).

    The checkpoint is chosen exactly as the planner chooses it (the same function
    on the same ``mtimes``), so both name the same one. A file deleted since the
    checkpoint has no time of its own, so a deletion only the checkpoint shows
    (an untracked file it held) is timed by the folder it was in — the folder
    records when an entry left it. Those times join ``mtimes`` (the planner sees
    them too), which is what lets a deletion alone make the checkpoint predate
    the change.
    """
    candidate = safe_checkpoint(checkpoints, mtimes, head)
    meta = _probe(checkpoints, candidate, head)
    if meta is None:
        return None, []
    base, lost = since_checkpoint(root, git, head, meta, changed)
    if meta.base_head != head:
        lost = []  # commits since the checkpoint differ from it too: not drift
    for path, status in lost:
        if status == "deleted":
            mtimes[path] = _folder_time(root, path)
    if lost:
        chosen = safe_checkpoint(checkpoints, mtimes, head)
        if chosen is None or chosen.checkpoint_id != meta.checkpoint_id:
            meta = _probe(checkpoints, chosen, head, newest_only=False)
            if meta is None:
                return None, []
            base, lost = since_checkpoint(root, git, head, meta, changed)
            if meta.base_head != head:
                lost = []
    final = safe_checkpoint(checkpoints, mtimes, head)
    if final is not None and final.checkpoint_id == meta.checkpoint_id:
        # Only the safe point's comparison is used (the planner drops any other):
        # a probed checkpoint that stays a probe is never read file by file.
        # An agent turn's checkpoint is taken on its own, often right after a drift:
        # every file is judged by content, not only those older than it (a moved file
        # keeps its old time; a stash and pop gives identical files new ones).
        every = meta.reason == "agent_turn"
        settled = _as_held(root, git, meta, changed, base, judge, every=every, head=head_blobs)
        base = replace(base, settled=settled, committed=_committed_since(git, meta, head, changed))
    return base, lost


def _committed_since(
    git: Git, meta: CheckpointMeta, head: str | None, changed: Sequence[ChangedFile]
) -> frozenset[str]:
    """The changed paths that commits made since ``meta`` was taken changed too (one
    ``diff-tree`` of its commit against HEAD; none when it was taken on HEAD, or its
    commit is gone)."""
    if head is None or meta.base_head == head:
        return frozenset()
    try:
        delta = diffs.names_between(git, meta.base_head or diffs.EMPTY_TREE, head)
    except VibflowError:
        return frozenset()
    listed = {c.path for c in changed} | {c.old_path for c in changed if c.old_path}
    return frozenset(c.path for c in delta if c.path in listed)


def _probe(
    checkpoints: Sequence[CheckpointMeta],
    candidate: SafeCheckpointCandidate | None,
    head: str | None,
    *,
    newest_only: bool = True,
) -> CheckpointMeta | None:
    """The checkpoint to compare with: the candidate when it predates the change;
    otherwise (``newest_only``) the newest complete one taken on this HEAD, which
    may hold a file deleted since that makes it predate the change after all.

    ``None`` when there is none.
    """
    if candidate is None:
        return None
    by_commit = candidate.kind == "commit"
    if candidate.predates_change and candidate.metadata_complete and not by_commit:
        return next((m for m in checkpoints if m.checkpoint_id == candidate.checkpoint_id), None)
    # The last commit stands in only because no checkpoint seemed to predate the change;
    # a checkpoint on this HEAD may hold a file deleted since, which makes it predate.
    if not newest_only:
        return None
    usable = [
        m
        for m in checkpoints
        if m.metadata_complete and m.reason != "sandwich" and m.base_head == head
    ]
    return max(usable, key=lambda m: m.created_at, default=None)


def _folder_time(root: Path, path: str) -> float:
    """When the nearest existing folder above ``path`` last changed its entries."""
    folder = (root / path).parent
    while True:
        try:
            return folder.lstat().st_mtime
        except OSError:
            if folder in (root, folder.parent):
                return 0.0
            folder = folder.parent


def since_checkpoint(
    root: Path,
    git: Git,
    head: str | None,
    meta: CheckpointMeta,
    changed: Sequence[ChangedFile],
) -> tuple[CheckpointBase, list[tuple[str, str]]]:
    """How the checkpoint differs from HEAD, and the changes since the checkpoint that
    the diff against HEAD cannot see: a file the checkpoint held beyond HEAD (an
    untracked ``.env``, a new module) that is gone now is ``deleted``; a file whose
    uncommitted edit the checkpoint held and that equals HEAD again is ``modified``.

    One ``diff-tree`` of HEAD against the checkpoint (its cost grows with what they
    differ in, not with the project), then one ``lstat`` per file the checkpoint
    held beyond HEAD and the listing above does not name. ``settled`` is left empty:
    which files it already holds is judged only for the safe point
    (:func:`against_checkpoint`).
    """
    delta = diffs.names_between(git, head or diffs.EMPTY_TREE, meta.tree or meta.commit)
    added = frozenset(c.path for c in delta if c.status == "added")
    removed = frozenset(c.path for c in delta if c.status == "deleted")
    listed = {c.path for c in changed} | {c.old_path for c in changed if c.old_path}
    lost: list[tuple[str, str]] = []
    for c in delta:
        if c.path in listed or c.path.startswith(".vibflow/"):
            continue
        if c.status == "added":
            try:
                (root / c.path).lstat()
            except (FileNotFoundError, NotADirectoryError):
                lost.append((c.path, "deleted"))
            # Present but not listed: ignored since — not vibflow's to judge.
        elif c.status in ("modified", "type_changed"):
            lost.append((c.path, "modified"))  # back to HEAD's content: the edit is lost
    base = CheckpointBase(
        meta.checkpoint_id,
        added,
        removed,
        frozenset(s.path for s in meta.skipped),
        left_out_why=tuple((s.path, s.why) for s in meta.skipped),
        sides={c.path: c.new_side for c in delta if c.new_side is not None},
    )
    return base, lost


#: Filesystems that keep coarse times (FAT: 2 s) may date a later edit earlier.
_SLACK_SECONDS = 2.0


def _as_held(
    root: Path,
    git: Git,
    meta: CheckpointMeta,
    changed: Sequence[ChangedFile],
    base: CheckpointBase,
    judge: HeldJudge | None = None,
    *,
    every: bool = False,
    head: Mapping[str, tuple[str, str]] | None = None,
) -> frozenset[str]:
    """The paths of changed files a restore from the checkpoint would leave as they
    are: missing now and absent from it, or present with the content and mode it
    holds (as the restore itself judges it) — uncommitted work, or a move, from
    before it was taken. Only files last written before it (with slack for a coarse
    clock) are read, unless ``every``. What it holds for them is known from its
    differences from HEAD and HEAD's side of each change (``head``); one ``ls-tree``
    answers for any left over."""
    made = epoch(meta.created_at)
    if made is None:
        return frozenset()
    same: set[str] = set()
    maybe: dict[str, os.stat_result] = {}
    # Plain strings and ``os.lstat``: a ``Path`` per file cost more than the stat.
    top = str(root)
    join, lstat = os.path.join, os.lstat
    for c in changed:
        if c.generated:
            continue
        for path, in_head in sides(c):
            try:
                st = lstat(join(top, path))
            except (FileNotFoundError, NotADirectoryError):
                if not base.holds(path, in_head):
                    same.add(path)  # gone, and the checkpoint lacks it too
                continue
            except OSError:
                continue
            # Whole seconds may be a coarse clock rounding a later edit down; finer
            # times are taken as they are.
            slack = _SLACK_SECONDS if st.st_mtime_ns % 1_000_000_000 == 0 else 0.0
            if (every or st.st_mtime < made + slack) and base.holds(path, in_head):
                maybe[path] = st
    if maybe:
        held, unknown = _known_items(maybe, base, head or {})
        if unknown:
            held += _held_items(git, meta.commit or meta.tree, unknown)
        is_held = judge or is_as_held
        same.update(
            i.path for i in held if i.action == "write" and is_held(root, i, maybe.get(i.path))
        )
    return frozenset(same)


class HeldJudge(Protocol):
    """Whether the file at an item's path is exactly what the item holds (reads the
    file); ``st``: its ``lstat`` taken just before, when the caller has one. A
    long-lived process passes one that keeps verdicts (git_memo.HeldJudgements)."""

    def __call__(
        self, root: Path, item: restore.Item, st: os.stat_result | None = None
    ) -> bool: ...


def is_as_held(root: Path, item: restore.Item, st: os.stat_result | None = None) -> bool:
    """:meth:`restore.Current.read` then ``is_object``, with a regular file read by
    plain ``open`` (the same bytes and executable bit; anything else, a link
    included, is read by ``Current`` itself)."""
    from vibflow.steps.checkpoints import restore

    del st  # read afresh: the verdict must be of the bytes as they are now
    if item.action == "write" and item.mode in ("100644", "100755") and item.sha is not None:
        where = os.path.join(str(root), item.path)  # noqa: PTH118 - a Path per file costs more
        try:
            now = os.lstat(where)
            if stat.S_ISREG(now.st_mode):
                with open(where, "rb") as fh:  # noqa: PTH123
                    data = fh.read()
                current = restore.Current("file", data, bool(now.st_mode & stat.S_IXUSR))
                return current.is_object(item)
        except OSError:
            pass  # gone or unreadable meanwhile: ``Current`` says which, as before
    return restore.Current.read(root, item.path).is_object(item)


#: Past this many paths, one listing of the whole tree beats naming them: git
#: matches every entry against every pathspec (20,000 names: 7 s; the listing: 0.06 s).
_PATHSPECS_MAX = 256


#: The modes of what a restore writes as a file or a link (a submodule is not one).
_BLOB_MODES = frozenset({"100644", "100755", "120000"})


def _known_items(
    paths: Iterable[str], base: CheckpointBase, head: Mapping[str, tuple[str, str]]
) -> tuple[list[restore.Item], list[str]]:
    """What the checkpoint holds for ``paths`` (each one it holds), from what it
    differs from HEAD in and HEAD's side; and the paths neither says."""
    from vibflow.steps.checkpoints import restore

    items: list[restore.Item] = []
    unknown: list[str] = []
    for path in paths:
        side = base.sides.get(path)
        if side is None and path not in base.added and path not in base.removed:
            side = head.get(path)  # the checkpoint holds HEAD's here
        if side is None:
            unknown.append(path)
        elif side[0] in _BLOB_MODES:
            items.append(restore.Item(path, "write", side[0], side[1]))
    return items, unknown


def _held_items(git: Git, treeish: str, paths: list[str]) -> list[restore.Item]:
    """What ``treeish`` holds for each of ``paths`` (files only), as the restore reads it."""
    from vibflow.steps.checkpoints import restore

    if len(paths) <= _PATHSPECS_MAX:
        return restore.plan(git, treeish, paths)
    args = ("ls-tree", "-r", "-z", "--full-tree", treeish)
    wanted = dict.fromkeys(paths)
    if isinstance(git, GitMemo):
        # A long-lived process keeps the whole listing parsed beside its bytes:
        # the same object id, the same answer.
        blobs = git.parsed(args, _blobs)
    else:
        blobs = _blobs(git.run(*args, spool=True), wanted)
    items: list[restore.Item] = []
    for path in wanted:
        found = blobs.get(path)
        if found is not None:
            items.append(restore.Item(path, "write", found[0], found[1]))
    return items


def _blobs(listing: bytes, wanted: Container[str] | None = None) -> dict[str, tuple[str, str]]:
    """``ls-tree -r -z`` output → each blob's path → (mode, object id); only the
    ``wanted`` paths when given (the rest are not decoded further than their name)."""
    out: dict[str, tuple[str, str]] = {}
    for record in listing.split(b"\0"):
        meta, _, raw = record.partition(b"\t")
        if not raw:
            continue
        name = raw.decode("utf-8", "surrogateescape")
        if wanted is not None and name not in wanted:
            continue
        mode, kind, sha = meta.decode("ascii", "replace").split()
        if kind == "blob":
            out[name] = (mode, sha)
    return out


#: Older checkpoints looked at (one ``ls-tree`` of the held paths each) for one
#: that does not hold the drift, before the last commit stands in.
_SCAN_MAX = 64


def _older(
    checkpoints: Sequence[CheckpointMeta], made: float
) -> list[tuple[CheckpointMeta, float]]:
    """The checkpoints taken before ``made``, sandwiches aside, newest first, with
    their times: the last ``_SCAN_MAX`` of them."""
    timed = [(m, epoch(m.created_at)) for m in checkpoints if m.reason != "sandwich"]
    older = [(m, t) for m, t in timed if t is not None and t < made]
    return sorted(older, key=lambda mt: mt[1], reverse=True)[:_SCAN_MAX]


def without_drift(
    git: Git,
    checkpoints: Sequence[CheckpointMeta],
    chosen: CheckpointMeta,
    held: Sequence[str],
) -> list[CheckpointMeta] | None:
    """The checkpoints to choose the safe point from again when ``chosen`` — an agent
    turn's checkpoint — holds drift candidates (``held``) exactly as they are now, so a
    restore from it would leave that drift in place: those taken no later than the
    newest older checkpoint that holds none of them as they are now, or than the
    newest older one the *user* took (their word for "safe from here": never stepped
    back past). Empty when none qualifies: the last commit stands in. None when
    every held path already was as it is now before the agent's turns began (the
    oldest turn checkpoint in a row holds it so): the choice stands.

    Judged by content (what each checkpoint holds for those paths against what
    ``chosen`` holds, which is what is on disk now), never by file times."""
    # A held path the chosen checkpoint lacks is absent now too (a deletion): None.
    now: dict[str, tuple[str | None, str | None] | None] = dict.fromkeys(held)
    now.update(
        (i.path, (i.mode, i.sha))
        for i in _held_items(git, chosen.commit or chosen.tree, list(held))
    )
    made = epoch(chosen.created_at)
    if made is None:
        return None
    timed = [(m, epoch(m.created_at)) for m in checkpoints]
    older = _older(checkpoints, made)

    def holding(m: CheckpointMeta) -> set[str]:
        theirs = {i.path: (i.mode, i.sha) for i in _held_items(git, m.commit or m.tree, list(now))}
        return {path for path, was in now.items() if theirs.get(path) == was}

    # What the oldest turn checkpoint in a row (back to the user's last one) holds as
    # it is now predates the agent's turns — the user's own uncommitted work, not
    # drift to step back from. The chosen one may be that oldest one itself.
    oldest = chosen
    for m, _ in older:
        if m.reason != "agent_turn":
            break
        if m.metadata_complete:
            oldest = m
    if oldest is chosen:
        return None
    for path in holding(oldest):
        del now[path]
    if not now:
        return None
    for m, t in older:
        if m.reason == "agent_turn" and (not m.metadata_complete or holding(m)):
            continue  # it holds some of the drift as it is now
        return [x for x, tx in timed if tx is not None and tx <= t]
    return []


def earlier_sources(
    git: Git,
    checkpoints: Sequence[CheckpointMeta],
    chosen: CheckpointMeta,
    held: Sequence[str],
) -> dict[str, list[str]]:
    """Where each of ``held`` — drift candidates ``chosen`` (the user's word for
    "safe from here") already holds as they are now — can be restored from: the
    newest older checkpoint holding it otherwise, only when what it holds there is
    the last commit's version (the state before the drift). A file whose older
    version is anything else — the user's own edit, an earlier step of the drift —
    gets no source: no guess. Checkpoint id → paths. Judged by content."""
    made = epoch(chosen.created_at)
    if made is None or not held or git.head() is None:
        return {}  # without a commit there is no last commit's version to find
    paths = list(held)

    def items(treeish: str) -> dict[str, tuple[str | None, str | None]]:
        return {i.path: (i.mode, i.sha) for i in _held_items(git, treeish, paths)}

    mine = items(chosen.commit or chosen.tree)
    head = items("HEAD")
    waiting = set(paths)
    out: dict[str, list[str]] = {}
    for m, _ in _older(checkpoints, made):
        if not m.metadata_complete:
            continue
        if not waiting:
            break
        theirs = items(m.commit or m.tree)
        for path in sorted(waiting):
            if theirs.get(path) == mine.get(path):
                continue
            waiting.discard(path)
            if theirs.get(path) == head.get(path):
                out.setdefault(m.checkpoint_id, []).append(path)
    return out
