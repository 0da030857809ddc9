"""Create, list, show and diff checkpoints with git plumbing.

A checkpoint is ``write-tree`` of a *private* snapshot index, committed with
``commit-tree`` and pinned by ``update-ref refs/vibflow/checkpoints/<id>``.
The private index starts as a copy of the user's real index (so its stat
data lets git re-hash only what changed — an empty index re-hashes every
file) and is kept between checkpoints, re-copied only when the user's index
changes. The user's index, HEAD, branches, stash, config and files are never
written: every index-touching command runs with ``GIT_INDEX_FILE`` pointing
at the private copy.

Included: tracked changes and untracked, non-ignored files, listed one by one
(``ls-files -o``, never collapsed directories). Skipped and listed in the
metadata: untracked files over the size cap, nested repositories and
untracked files that likely hold a secret (:mod:`.secret_files`: by name, or
by what the redaction detectors find in them). Never included: ignored files,
vibflow's own ``.vibflow/`` and the temp files a killed restore left
(``.NAME.vibflow-restore-N.tmp``). The message is stored redacted.
"""

from __future__ import annotations

import json
import os
import shutil
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from vibflow.engine.atomicfile import atomic_write
from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.steps.checkpoints import gitstate
from vibflow.steps.checkpoints.leftovers import is_restore_temp
from vibflow.steps.checkpoints.models import (
    META_MARKER,
    REF_PREFIX,
    CheckpointMeta,
    CheckpointPolicy,
    FileChange,
    Skipped,
)
from vibflow.steps.checkpoints.records import CHECKPOINT_ID, REF_FORMAT, parse_record
from vibflow.steps.checkpoints.report import redact_message
from vibflow.steps.checkpoints.secret_files import SecretFiles
from vibflow.steps.workspace import diffs
from vibflow.steps.workspace.git import Git, GitError

_IDENTITY = {
    "GIT_AUTHOR_NAME": "vibflow",
    "GIT_AUTHOR_EMAIL": "vibflow@localhost",
    "GIT_COMMITTER_NAME": "vibflow",
    "GIT_COMMITTER_EMAIL": "vibflow@localhost",
}
_STATUS = {
    "A": "added",
    "M": "modified",
    "D": "deleted",
    "R": "renamed",
    "T": "type_changed",
    "C": "copied",
}

Progress = Callable[[str], None]


@dataclass
class _Snapshot:
    tree: str
    head: str | None
    file_count: int
    untracked: list[str]
    skipped: list[Skipped] = field(default_factory=list)
    unscanned: int = 0


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


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

    # -- snapshots ------------------------------------------------------------

    def _lock(self) -> Any:
        from filelock import FileLock

        self.dir.mkdir(parents=True, exist_ok=True)
        return FileLock(str(self.dir / "create.lock"), timeout=120)

    def _state(self) -> dict[str, Any]:
        try:
            data = json.loads(self._state_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _save_state(self, state: dict[str, Any]) -> None:
        # Not durable: a state file lost to a power cut reads as empty, and an
        # empty state only makes the next snapshot start from the user's index.
        atomic_write(self._state_file, json.dumps(state), durable=False)

    def _snapshot(self, progress: Progress | None = None) -> tuple[_Snapshot, dict[str, Any]]:
        """Bring the private index up to the working tree; return its tree."""
        try:
            return self._snapshot_once(progress)
        except GitError as exc:
            if exc.subcommand != "write-tree":
                raise
            # The private index can name blobs no ref keeps alive (a working-tree
            # diff), which the user's own gc may have pruned: start it afresh.
            self._index.unlink(missing_ok=True)
            return self._snapshot_once(progress)

    def _snapshot_once(self, progress: Progress | None) -> tuple[_Snapshot, dict[str, Any]]:
        git_dir = self.git.git_dir()
        user_index = git_dir / "index"
        state = self._state()
        # A killed snapshot can leave git's lock file on our private index; we
        # hold our own lock here, so any such lock file is an orphan.
        orphan = self._index.with_name("index.lock")
        if orphan.exists():
            orphan.unlink()
        signature = gitstate.signature(user_index)
        if state.get("user_index") != signature or not self._index.exists():
            if signature is None:
                self._index.unlink(missing_ok=True)
            else:
                # copy2 keeps the index's mtime: git compares it with file mtimes
                # to spot "racily clean" entries, so a fresh mtime would let a
                # same-size edit made in the same second as `git add` slip by.
                shutil.copy2(user_index, self._index)
            previous: set[str] = set()
            was_missing: set[str] = set()
        else:
            previous = set(state.get("untracked", []))
            was_missing = set(state.get("missing_tracked", []))
        # The untracked list is saved *before* its files are added (below), so it
        # may name files a killed snapshot never added; it says what is in the
        # private index only when that snapshot finished (its tree is recorded).
        unfinished = state.get("tree") is None
        env = {"GIT_INDEX_FILE": str(self._index)}
        if progress:
            progress("listing untracked files")
        listed = self.git.z("ls-files", "-z", "--others", "--exclude-standard")
        untracked, skipped, unscanned = self._filter_untracked(listed, progress=progress)
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
        self._save_state(state)
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
        snap = _Snapshot(tree, self.git.head(), self._count(git_dir), untracked, skipped, unscanned)
        state.update({"untracked": untracked, "missing_tracked": sorted(missing), "tree": tree})
        return snap, state

    def _count(self, git_dir: Path) -> int:
        if any(git_dir.glob("sharedindex.*")):
            # A split index's header counts only its own part: ask git.
            env = {"GIT_INDEX_FILE": str(self._index)}
            return len(self.git.run("ls-files", "-z", env=env).split(b"\0")) - 1
        return gitstate.index_entries(self._index)

    def _filter_untracked(
        self, listed: list[str], *, every_file: bool = True, progress: Progress | None = None
    ) -> tuple[list[str], list[Skipped], int]:
        """(included, left out, how many included were not scanned for secrets)."""
        cap = self.policy.size_cap_bytes
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
            ignored = pool.submit(self._any_now_ignored, previous) if previous else None
            out = self.git.run(
                *gitstate.STATUS_ARGS,
                # Our private index: git may store the stat data it refreshed.
                env={"GIT_INDEX_FILE": str(self._index), "GIT_OPTIONAL_LOCKS": "1"},
            )
            now_ignored = ignored is not None and ignored.result()
        head, clean, untracked = gitstate.parse_status(out)
        if not clean or head != last.get("head"):
            return None
        if not self._still_skipped(untracked, _reasons(last)):
            return None
        if self._nested_repo_appeared(previous):
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
        keep, now, _ = self._filter_untracked(untracked, every_file=False)
        if keep or any(s.reason == "unreadable" for s in now):
            return False
        return sorted((s.path, s.reason) for s in now) == before

    def _any_now_ignored(self, paths: list[str]) -> bool:
        # "./" keeps a name starting with ":" from reading as pathspec magic.
        # --no-index: these paths were untracked and the user's index has not
        # changed since (checked first), and loading it costs most of the call.
        out = self.git.run(
            "check-ignore",
            "--no-index",
            "-z",
            "--stdin",
            stdin=gitstate.nul([f"./{p}" for p in paths]),
            ok=(0, 1),
        )
        return bool(out.strip(b"\0"))

    def _nested_repo_appeared(self, paths: list[str]) -> bool:
        """Did a folder holding included untracked files become a repository of its
        own? The private index still lists its files, so status would not say."""
        folders: set[str] = set()
        for path in paths:
            cut = path.rstrip("/").rfind("/")
            while cut > 0 and (folder := path[:cut]) not in folders:
                folders.add(folder)
                cut = folder.rfind("/")
        base = str(self.root)
        # Plain strings, not Path objects: this runs on every no-change checkpoint.
        return any(os.path.exists(f"{base}/{folder}/.git") for folder in folders)  # noqa: PTH110

    def _last_meta(self, git_dir: Path, last: dict[str, Any]) -> CheckpointMeta | None:
        cid, commit = str(last.get("checkpoint_id", "")), str(last.get("commit", ""))
        if not CHECKPOINT_ID.fullmatch(cid):
            return None
        try:
            # A loose ref holding the commit we wrote proves the checkpoint is
            # still there; packed refs (after gc) or another ref store: ask git.
            pinned = (gitstate.common_dir(git_dir) / REF_PREFIX / cid).read_text(
                encoding="ascii"
            ).strip() == commit
        except (OSError, UnicodeDecodeError):
            pinned = False
        if pinned:
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
            snap, state = self._snapshot()
            self._save_state(state)
        return snap.tree

    # -- create / list / show -------------------------------------------------

    def create(
        self, message: str = "", *, reason: str = "manual", progress: Progress | None = None
    ) -> CheckpointMeta:
        with self._lock():
            if reason != "sandwich":
                unchanged = self._unchanged_last()
                if unchanged is not None:
                    return unchanged
            snap, state = self._snapshot(progress)
            last = state.get("last") or {}
            skipped_now = sorted(s.path for s in snap.skipped)
            reasons_now = sorted((s.path, s.reason) for s in snap.skipped)
            if (
                last.get("tree"),
                last.get("head"),
                last.get("skipped", []),
                _reasons(last),
            ) == (snap.tree, snap.head, skipped_now, reasons_now):
                existing = self._find(last.get("checkpoint_id", ""))
                if existing is not None and reason != "sandwich":
                    self._save_state(state)
                    return existing.model_copy(update={"reused": True})
            meta = CheckpointMeta(
                checkpoint_id=f"ckpt_{uuid.uuid4().hex}",
                created_at=_now(),
                message=redact_message(message, self.root),
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
            body = json.dumps(
                {META_MARKER: meta.model_dump(mode="json", exclude={"commit", "reused"})}
            )
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
                "meta": meta.model_dump(mode="json", exclude={"commit", "reused"}),
                "size_cap": self.policy.size_cap_bytes,
                "secrets": self.secrets.fingerprint,
            }
            self._save_state(state)
            # Growth stays bounded: every new checkpoint applies the retention policy.
            self.prune()
            return meta.model_copy(update={"commit": commit})

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


def _reasons(last: dict[str, Any]) -> list[tuple[str, str]] | None:
    """(path, reason) of each file the last checkpoint left out, from its saved meta."""
    meta = last.get("meta")
    if not isinstance(meta, dict) or not isinstance(meta.get("skipped", []), list):
        return None
    return sorted(
        (str(s.get("path")), str(s.get("reason")))
        for s in meta.get("skipped", [])
        if isinstance(s, dict)
    )
