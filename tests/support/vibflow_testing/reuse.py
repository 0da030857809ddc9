"""The reuse oracle for the checkpoint fast-path tests.

Every test builds a real repository, makes one kind of change after a checkpoint
and creates again. The expected answer comes from the full snapshot path run by
a *fresh* store (its own state folder, so no shortcut and no memory of the last
checkpoint): the new checkpoint's tree must equal that tree, and the last
checkpoint may come back (``reused``) only when that tree, HEAD and the skipped
list are all unchanged. Trees are also read back with ``git ls-tree -r``.

Which path answered is seen through ``progress``: the full snapshot reports its
steps, the fast path reports none. Real git, real files; nothing is mocked.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from pathlib import Path

import vibflow_testing.repo as repokit
from vibflow.steps.checkpoints.models import REF_PREFIX, CheckpointMeta, CheckpointPolicy
from vibflow.steps.checkpoints.store import CheckpointStore
from vibflow_testing.git import git_proc, gtext, run_git

CAP_MB = 0.01  # 10,485 bytes: small enough to cross with test files
SMALL = b"s" * 1_000
BIG = b"b" * 20_000
BIGGER = b"B" * 40_000


def old_repo(root: Path, files: dict[str, str] | None = None) -> Path:
    """A git repository at ``root`` with one commit of ``files`` (if any), all old mtimes."""
    return repokit.init_repo(root, files, old=True)


@dataclass(frozen=True)
class Outcome:
    meta: CheckpointMeta
    fast: bool  # answered without a full snapshot (no progress reported)


def create(store: CheckpointStore, message: str = "") -> Outcome:
    steps: list[str] = []
    meta = store.create(message, progress=steps.append)
    return Outcome(meta, fast=not steps)


def tree_of(root: Path, rev: str) -> dict[str, tuple[str, str]]:
    """``path -> (mode, object)`` from ``git ls-tree -r <rev>``, names exact."""
    out = run_git(root, "ls-tree", "-r", "-z", "--full-tree", rev)
    entries: dict[str, tuple[str, str]] = {}
    for record in out.split(b"\0"):
        if record:
            head, name = record.split(b"\t", 1)
            mode, _kind, obj = head.decode().split()
            entries[name.decode("utf-8", "surrogateescape")] = (mode, obj)
    return entries


def content(root: Path, meta: CheckpointMeta, rel: str) -> bytes:
    return run_git(root, "cat-file", "blob", tree_of(root, meta.commit)[rel][1])


def head(root: Path) -> str | None:
    probe = git_proc(root, "rev-parse", "-q", "--verify", "HEAD", check=False)
    return probe.stdout.decode().strip() or None


def checkpoint_refs(root: Path) -> list[str]:
    return gtext(root, "for-each-ref", "--format=%(refname) %(objectname)", REF_PREFIX).split("\n")


def full_path_tree(root: Path, policy: CheckpointPolicy) -> str:
    """The tree the full snapshot path gives now: a fresh store, no memory, no fast path."""
    fresh = CheckpointStore(root, root.parent / f"oracle-{uuid.uuid4().hex}", policy)
    return fresh.working_tree()


def skipped_of(meta: CheckpointMeta) -> list[tuple[str, str]]:
    return sorted((s.path, s.reason) for s in meta.skipped)


def assert_same_answer(
    root: Path,
    store: CheckpointStore,
    last: CheckpointMeta,
    out: Outcome,
    *,
    skipped: list[tuple[str, str]],
    last_pinned: bool = True,
) -> None:
    """``out`` is what the full snapshot path would answer after ``last``.

    Its tree is the full path's tree (read from the commit too), its skipped list is
    ``skipped``, its base is HEAD, and it is the last checkpoint again exactly when
    tree, HEAD and skipped paths are unchanged and the last checkpoint still exists.
    """
    expected = full_path_tree(root, store.policy)
    meta = out.meta
    assert meta.tree == expected, "the checkpoint's tree differs from the full snapshot's"
    assert gtext(root, "rev-parse", meta.commit + "^{tree}") == expected
    assert skipped_of(meta) == sorted(skipped)
    assert meta.base_head == head(root)
    identical = (
        expected == last.tree
        and head(root) == last.base_head
        and sorted(p for p, _ in skipped) == sorted(s.path for s in last.skipped)
        and last_pinned
    )
    assert meta.reused == identical, (
        f"reused={meta.reused} (fast path: {out.fast}) but the full snapshot path "
        f"{'reuses' if identical else 'makes a new checkpoint'}"
    )
    if meta.reused:
        assert (meta.checkpoint_id, meta.commit) == (last.checkpoint_id, last.commit)
    else:
        assert meta.checkpoint_id != last.checkpoint_id
        assert f"{REF_PREFIX}{meta.checkpoint_id} {meta.commit}" in checkpoint_refs(root)


def private_index(root: Path) -> Path:
    return root / ".vibflow" / "checkpoints" / "index"
