"""Create, list, show and diff checkpoints with git plumbing.

A checkpoint is ``write-tree`` of a *private* snapshot index
(:mod:`.snapshot` brings it up to the work tree), committed with
``commit-tree`` and pinned by ``update-ref refs/vibflow/checkpoints/<id>``.
The user's index, HEAD, branches, stash, config and files are never written.
When nothing changed since the last checkpoint, that one is reused: one
``git status`` against the private index says so (:meth:`CheckpointStore._unchanged_last`).
A checkpoint is never rewritten, so a user's checkpoint asked for with new
words (``-m``, MCP ``message``) over an unchanged tree is a new checkpoint of
the same tree — the list shows what they said last, and the earlier one keeps
its own words (:func:`_may_reuse`). A commit of a known tree costs no snapshot.
The metadata (a JSON body in the commit message) lists what was left out;
the message is stored redacted. The agent hook's lean path (:mod:`.quick`)
takes the same checkpoints without pydantic; what both share is
:mod:`.snapshot_core`.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.steps.checkpoints import gitstate, snapshot_core
from vibflow.steps.checkpoints.models import (
    META_MARKER,
    REF_PREFIX,
    CheckpointMeta,
    CheckpointPolicy,
    FileChange,
)
from vibflow.steps.checkpoints.records import CHECKPOINT_ID, REF_FORMAT, parse_record
from vibflow.steps.checkpoints.report import redact_message
from vibflow.steps.checkpoints.secret_files import SecretFiles
from vibflow.steps.checkpoints.snapshot import Progress, Snapshotter
from vibflow.steps.checkpoints.snapshot_core import IDENTITY as _IDENTITY
from vibflow.steps.checkpoints.snapshot_core import nested_repo_appeared, reasons
from vibflow.steps.workspace import diffs
from vibflow.steps.workspace.git import Git

#: Fields of an answer about a checkpoint, never stored in it.
_ANSWER_ONLY = {"commit", "reused", "same_tree_as"}
#: The checkpoint ids kept agent turns name (``None``: the records cannot be read).
Pins = Callable[[], "set[str] | None"]


class CheckpointStore:
    def __init__(
        self,
        root: Path,
        state_dir: Path,
        policy: CheckpointPolicy | None = None,
        *,
        pins: Pins | None = None,
    ) -> None:
        self.root = root.resolve()
        self._pins = pins
        self.git = Git(self.root)
        self.policy = policy or CheckpointPolicy()
        self.dir = state_dir.resolve() / "checkpoints"
        self._index = self.dir / "index"
        self._state_file = self.dir / "snapshot.json"
        self.secrets = SecretFiles(self.root, self.policy.secrets, self.dir / "secret_scan.json")
        self._snapshots = Snapshotter(
            self.root, self.git, self.dir, self.policy.size_cap_bytes, self.secrets
        )

    # -- snapshots ------------------------------------------------------------

    def _lock(self) -> Any:
        from filelock import FileLock

        self.dir.mkdir(parents=True, exist_ok=True)
        return FileLock(str(self.dir / "create.lock"), timeout=120)

    def _state(self) -> dict[str, Any]:
        return snapshot_core.read_state(self._state_file)

    def _save_state(self, state: dict[str, Any]) -> None:
        snapshot_core.save_state(self._state_file, state)

    def _unchanged_last(self) -> CheckpointMeta | None:
        """The last checkpoint, when nothing it covers has changed since — or ``None``.

        One ``git status`` against the private snapshot index answers it: no
        work-tree change, no new untracked file (only the same skipped ones),
        the same HEAD, and the user's index untouched. Anything else — and any
        doubt — goes the full snapshot way.
        """
        state = self._state()
        last = state.get("last") or {}
        if not isinstance(last.get("meta"), dict) or not self._index.exists():
            return None
        if last.get("size_cap") != self.policy.size_cap_bytes:
            return None  # files included under the old cap may be over the new one
        if last.get("secrets") != self.secrets.fingerprint:
            return None  # the secret-file rules changed: files may move in or out
        if state.get("tree") is None or state["tree"] != last.get("tree"):
            return None  # the private index moved on since (a diff against the work tree)
        git_dir = self.git.git_dir()
        index_now = gitstate.signature(git_dir / "index")
        if state.get("user_index") is None or state["user_index"] != index_now:
            return None
        previous = [p for p in state.get("untracked", []) if isinstance(p, str)]
        with ThreadPoolExecutor(1, "vibflow-check-ignore") as pool:
            # Independent of the status below: asked side by side, git answers
            # both in the time of the status alone.
            ignored = (
                pool.submit(snapshot_core.now_ignored, self.git, previous) if previous else None
            )
            out = self.git.run(
                *gitstate.status_args(git_dir),
                # Our private index: git may store the stat data it refreshed.
                env={"GIT_INDEX_FILE": str(self._index), "GIT_OPTIONAL_LOCKS": "1"},
            )
            now_ignored = ignored is not None and bool(ignored.result())
        head, clean, untracked = gitstate.parse_status(out)
        if not clean or head != last.get("head"):
            return None
        if not self._still_skipped(untracked, reasons(last)):
            return None
        if nested_repo_appeared(self.root, previous):
            return None
        if now_ignored:
            return None  # an ignore rule outside the tree (info/exclude) changed
        return self._last_meta(git_dir, last)

    def _still_skipped(self, untracked: list[str], before: list[tuple[str, str]] | None) -> bool:
        """Is every untracked file (none of them in the private index) one the last
        checkpoint left out (``before``: path, reason), for the same reason, and
        still to be left out?"""
        names = sorted(u.rstrip("/") for u in untracked if not u.startswith(".vibflow/"))
        if before is None or names != [path for path, _ in before]:
            return False
        # The same rules a snapshot applies (a content verdict comes from the
        # scan cache unless the file changed since).
        keep, now, _ = self._snapshots.filter_untracked(untracked, every_file=False)
        if keep or any(s.reason == "unreadable" for s in now):
            return False
        return sorted((s.path, s.reason) for s in now) == before

    def _last_meta(self, git_dir: Path, last: dict[str, Any]) -> CheckpointMeta | None:
        cid, commit = str(last.get("checkpoint_id", "")), str(last.get("commit", ""))
        if not CHECKPOINT_ID.fullmatch(cid):
            return None
        # A loose ref holding the commit we wrote proves the checkpoint is still
        # there; packed refs (after gc) or another ref store: ask git.
        if snapshot_core.loose_ref_holds(git_dir, REF_PREFIX + cid, commit):
            try:
                meta = CheckpointMeta.model_validate({**last["meta"], "commit": commit})
            except (ValueError, TypeError):
                meta = None
        else:
            meta = self._find(cid)
        return meta.model_copy(update={"reused": True}) if meta is not None else None

    def working_tree(self) -> str:
        """A tree object of the working tree as a checkpoint would see it (no ref)."""
        with self._lock():
            snap, state = self._snapshots.take()
            self._save_state(state)
        return snap.tree

    # -- create / list / show -------------------------------------------------

    def create(
        self, message: str = "", *, reason: str = "manual", progress: Progress | None = None
    ) -> CheckpointMeta:
        said = redact_message(message, self.root) if message else ""
        same_tree_as: str | None = None  # an unchanged tree given new words
        with self._lock():
            if reason != "sandwich":
                unchanged = self._unchanged_last()
                if unchanged is not None and _may_reuse(unchanged, reason, said):
                    return unchanged
            snap, state = self._snapshots.take(progress)
            last = state.get("last") or {}
            skipped_now = sorted(s.path for s in snap.skipped)
            reasons_now = sorted((s.path, s.reason) for s in snap.skipped)
            if (
                last.get("tree"),
                last.get("head"),
                last.get("skipped", []),
                reasons(last),
            ) == (snap.tree, snap.head, skipped_now, reasons_now):
                existing = self._find(last.get("checkpoint_id", ""))
                if (
                    existing is not None
                    and reason != "sandwich"
                    and _may_reuse(existing, reason, said)
                ):
                    self._save_state(state)
                    return existing.model_copy(update={"reused": True})
                if existing is not None and reason != "sandwich":
                    same_tree_as = existing.checkpoint_id
            meta = CheckpointMeta(
                checkpoint_id=f"ckpt_{uuid.uuid4().hex}",
                created_at=snapshot_core.now_iso(),
                message=said,
                reason=reason,
                base_head=snap.head,
                file_count=snap.file_count,
                untracked_count=len(snap.untracked),
                skipped=snap.skipped,
                unscanned_count=snap.unscanned,
                tree=snap.tree,
            )
            if progress:
                progress("recording the checkpoint")
            body = json.dumps({META_MARKER: meta.model_dump(mode="json", exclude=_ANSWER_ONLY)})
            subject = f"vibflow checkpoint {meta.checkpoint_id}"
            args = ["commit-tree", snap.tree, "-m", subject, "-m", body]
            if snap.head:
                args[2:2] = ["-p", snap.head]
            commit = self.git.text(*args, env=_IDENTITY)
            self.git.run("update-ref", REF_PREFIX + meta.checkpoint_id, commit)
            state["last"] = {
                "tree": snap.tree,
                "head": snap.head,
                "checkpoint_id": meta.checkpoint_id,
                "skipped": skipped_now,
                "commit": commit,
                "meta": meta.model_dump(mode="json", exclude=_ANSWER_ONLY),
                "size_cap": self.policy.size_cap_bytes,
                "secrets": self.secrets.fingerprint,
            }
            self._save_state(state)
            # Growth stays bounded: every new checkpoint applies the retention policy.
            self.prune()
            return meta.model_copy(update={"commit": commit, "same_tree_as": same_tree_as})

    def all(self) -> list[CheckpointMeta]:
        out = self.git.run("for-each-ref", f"--format={REF_FORMAT}%00%00", REF_PREFIX)
        metas = [parse_record(r) for r in out.split(b"\0\0\n") if r.strip()]
        return sorted(metas, key=lambda m: m.created_at)

    def _find(self, checkpoint_id: str) -> CheckpointMeta | None:
        # for-each-ref takes patterns: only an exact id shape may reach it.
        if not CHECKPOINT_ID.fullmatch(checkpoint_id):
            return None
        out = self.git.run("for-each-ref", f"--format={REF_FORMAT}", REF_PREFIX + checkpoint_id)
        return parse_record(out.rstrip(b"\n")) if out.strip() else None

    def get(self, checkpoint_id: str) -> CheckpointMeta:
        meta = self._find(checkpoint_id)
        if meta is None:
            raise VibflowError(
                ErrorCode.BAD_INPUT,
                f"there is no checkpoint '{checkpoint_id[:40]}'",
                hint="`vibflow checkpoint list` shows the checkpoints.",
            )
        return meta

    # -- diff -------------------------------------------------------------------

    def diff(self, a: str, b: str | None = None) -> list[FileChange]:
        """Changes from checkpoint ``a`` to checkpoint ``b`` (default: the working tree)."""
        old = self.get(a).tree
        new = self.get(b).tree if b is not None else self.working_tree()
        return tree_diff(self.git, old, new)

    # -- retention ------------------------------------------------------------

    def prune(self, *, dry_run: bool = False, now: datetime | None = None) -> list[str]:
        """Delete checkpoint refs outside the retention policy; return their ids."""
        from vibflow.steps.checkpoints.retention import to_prune

        pinned = self._pins() if self._pins is not None else None
        doomed = to_prune(self.all(), self.policy, now=now or datetime.now(UTC), pinned=pinned)
        if not dry_run:
            for cid in doomed:
                self.git.run("update-ref", "-d", REF_PREFIX + cid)
        return doomed

    def size_bytes(self) -> int:
        """Disk used by objects only the checkpoints keep alive."""
        out = self.git.text(
            "rev-list",
            "--objects",
            "--disk-usage",
            "--glob=" + REF_PREFIX + "*",
            "--not",
            "--branches",
            "--tags",
            "--remotes",
        )
        return int(out) if out.isdigit() else 0


def tree_diff(git: Git, old: str, new: str) -> list[FileChange]:
    return [
        FileChange(
            path=c.path,
            status=c.status,
            old_path=c.old_path,
            added_lines=c.added_lines,
            deleted_lines=c.deleted_lines,
            binary=c.binary,
        )
        for c in diffs.tree_to_tree(git, old, new)
    ]


def _may_reuse(existing: CheckpointMeta, reason: str, said: str = "") -> bool:
    """Whether an unchanged tree's last checkpoint may answer a request for ``reason``
    with the (redacted) message ``said``.

    Not when the user asks and the last one was the agent's (a turn's): the user's
    checkpoint is their word for "safe from here", which recovery never steps back
    past, so it must say it was theirs. Nor when the user's request says something
    new: their words would be lost in a checkpoint that cannot be rewritten, so a
    new one records them (an agent turn's own words never make a new one: its
    no-change reuse is what keeps a turn's checkpoint cheap)."""
    if reason == "manual" and existing.reason != "manual":
        return False
    return not (reason == "manual" and said and said != existing.message)
