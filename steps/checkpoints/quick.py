"""A turn checkpoint the agent hook can afford: the store's create-or-reuse
without pydantic, driven by one ``git status``.

The agent waits on its turn-start hook (~150 ms budget in a fresh process),
and :class:`~.store.CheckpointStore` costs more than that before it runs a
single git command: its metadata models import pydantic (~150 ms). This is the
same checkpoint taken the lean way — same private snapshot index and state
file (``checkpoints/index``, ``snapshot.json``), same ref, same commit, same
metadata JSON in its message — so the store lists, shows, diffs, restores and
prunes it exactly like its own, and carries on from the state this leaves.

One ``status`` of the work tree against the private index answers both
questions the store asks with several commands: *did anything change since
the last checkpoint?* (nothing: reuse it, as the store does) and *what?* — its
lines name exactly the files to re-hash or drop, so the snapshot is one
``update-index`` of those files plus ``write-tree``, instead of listing every
untracked file, ``ls-files --deleted`` and ``add -u``. Stat data is reused
throughout: the private index keeps it between checkpoints (and is re-seeded
from the user's index, stat data included, when that one changes), and the
status refreshes it.

The rules are the store's (DESIGN §4.1): untracked non-ignored files are
included one by one; ``.vibflow/``, ignored files and a killed restore's temp
files never; untracked files over the size cap, nested repositories and likely
secrets (:mod:`.secret_names`, and the content verdicts the store's scan cache
holds) are left out and listed; the user's index, HEAD, refs other than the
checkpoint's own, stash and config are never written.

A new or edited untracked file whose secret verdict is not in the store's
scan cache is scanned the store's own way (:class:`~.secret_files.SecretFiles`:
same detectors, budget, cache, and ``unscanned_count`` for what is over the
budget) — that imports pydantic and detect-secrets, so only such a turn pays
for it; every other verdict comes from the names, sizes and the cache.

Whatever it cannot vouch for it refuses with :class:`Unsupported` (before it
changes anything, or leaving the state a killed snapshot leaves, which the
store recovers from) and the caller falls back to the full store: the very
first checkpoint, a snapshot that was killed, changed size-cap or secret-file
rules, a split index, an unmerged entry or a submodule that moved, a folder of
included files turned into a repository, a message that is not one of the
hook's own.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from vibflow.steps.checkpoints import gitstate, lean_retention, snapshot_core
from vibflow.steps.checkpoints.lean_plan import Plan, Seed, UntrackedJudge
from vibflow.steps.checkpoints.lean_policy import LeanPolicy, Unsupported
from vibflow.steps.checkpoints.lean_retention import CHECKPOINT_ID, META_MARKER, REF_PREFIX
from vibflow.steps.checkpoints.snapshot_core import IDENTITY, reasons
from vibflow.steps.workspace.git import Git, GitError

__all__ = ["HOOK_MESSAGE", "IDENTITY", "QuickCheckpoints", "Unsupported", "new_checkpoint_id"]

#: The hook's own messages: redacting them changes nothing (a test pins it), so
#: they are stored as they are; any other message goes the full store's way.
HOOK_MESSAGE = re.compile(r"(before|after) (claude-code|gemini) turn ([0-9]{1,9}|next)")
_LOCK_WAIT = 120.0

#: The checkpoint ids kept agent turns name (``None``: the records cannot be read).
Pins = Callable[[], "set[str] | None"]


def new_checkpoint_id() -> str:
    """``ckpt_`` and the hex of a random (version 4) UUID, as the store makes them,
    without importing ``uuid`` (and the platform probing it starts with)."""
    raw = bytearray(os.urandom(16))
    raw[6] = (raw[6] & 0x0F) | 0x40  # version 4
    raw[8] = (raw[8] & 0x3F) | 0x80  # RFC 4122 variant
    return "ckpt_" + raw.hex()


class _Later:
    """A git call running on a thread while the hook does other work; :meth:`result`
    waits for it and raises what it raised."""

    def __init__(self, fn: Callable[[], Any], name: str) -> None:
        self._out: list[Any] = []
        self._thread = threading.Thread(target=self._run, args=(fn,), name=name, daemon=True)
        self._thread.start()

    def _run(self, fn: Callable[[], Any]) -> None:
        try:
            self._out.append((True, fn()))
        except BaseException as exc:  # noqa: BLE001 - raised again in result()
            self._out.append((False, exc))

    def wait(self) -> None:
        self._thread.join()

    def result(self) -> Any:
        self._thread.join()
        ok, value = self._out[0]
        if not ok:
            raise value
        return value


class QuickCheckpoints:
    """Create-or-reuse a turn checkpoint. :meth:`begin` takes the store's lock and
    starts the status in the background, so the caller's own work (the agent
    records) runs while git reads the tree; :meth:`create` finishes (beginning
    first if need be) and :meth:`close` lets go without a checkpoint. Both release
    the lock, so the full store can take it right after."""

    def __init__(
        self,
        root: Path,
        state_dir: Path,
        policy: LeanPolicy | None = None,
        *,
        pins: Pins | None = None,
    ) -> None:
        self.root = root.resolve()
        self.git = Git(self.root)
        self.policy = policy or LeanPolicy()
        self.pins = pins
        self.dir = state_dir.resolve() / "checkpoints"
        self._index = self.dir / "index"
        self._state_file = self.dir / "snapshot.json"
        self._fd: int | None = None
        self._begun: tuple[dict[str, Any], dict[str, Any], Seed, _Later] | None = None
        self._judge = UntrackedJudge(self.root, self.dir, self.policy)

    def begin(self) -> None:
        """Lock, read the state, seed the private index if need be and start the status
        (or :class:`Unsupported`, with nothing held)."""
        if self._begun is not None:
            return
        self._fd = self._lock()
        try:
            state = self._state()
            last = self._start(state)
            seed = self._seed(state)
            status = _Later(lambda: self._status(sorted(seed.previous)), "vibflow-status")
        except BaseException:
            self.close()
            raise
        self._begun = (state, last, seed, status)

    def create(self, message: str, *, reason: str = "agent_turn") -> tuple[str, bool]:
        """(checkpoint id, whether the last one was reused), or :class:`Unsupported`."""
        try:
            if reason != "agent_turn" or not HOOK_MESSAGE.fullmatch(message):
                raise Unsupported("not a turn checkpoint with the hook's own message")
            self.begin()
            assert self._begun is not None  # noqa: S101 - begin() set it or raised
            return self._create(message, reason, *self._begun)
        finally:
            self.close()

    def close(self) -> None:
        """Wait for any git call still running, then release the lock."""
        begun, self._begun = self._begun, None
        if begun is not None:
            begun[3].wait()
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)  # closing the descriptor releases the lock

    # -- the lock the store's FileLock takes (flock on the same file) -----------

    def _lock(self) -> int:
        import fcntl

        if not self.dir.is_dir():
            raise Unsupported("no checkpoint yet")
        fd = os.open(self.dir / "create.lock", os.O_RDWR | os.O_CREAT, 0o644)
        deadline = time.monotonic() + _LOCK_WAIT
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if time.monotonic() > deadline:
                    os.close(fd)
                    raise Unsupported("the checkpoint lock is busy") from None
                time.sleep(0.02)
            except OSError as exc:  # no flock here: the store's lock knows the fallback
                os.close(fd)
                raise Unsupported("flock is not available") from exc
            else:
                return fd

    # -- create or reuse --------------------------------------------------------

    def _state(self) -> dict[str, Any]:
        return snapshot_core.read_state(self._state_file)

    def _save_state(self, state: dict[str, Any]) -> None:
        snapshot_core.save_state(self._state_file, state)

    def _create(
        self,
        message: str,
        reason: str,
        state: dict[str, Any],
        last: dict[str, Any],
        seed: Seed,
        asked: _Later,
    ) -> tuple[str, bool]:
        status, now_ignored = asked.result()
        plan = self._judge.plan(seed, status, now_ignored)
        if (
            plan.nothing_new
            and state["tree"] == last.get("tree")
            and plan.head == last.get("head")
            and plan.reasons == reasons(last)
        ):
            reused = self._still_there(last)
            if reused is not None:
                return reused, True
        listed = _Later(lambda: lean_retention.listing(self.git), "vibflow-refs")
        tree = self._apply(state, plan)
        skipped_now = sorted(s["path"] for s in plan.skipped)
        if (last.get("tree"), last.get("head"), last.get("skipped", []), reasons(last)) == (
            tree,
            plan.head,
            skipped_now,
            plan.reasons,
        ):
            reused = self._still_there(last)
            if reused is not None:
                self._save_state(state)
                return reused, True
        cid = self._commit(state, message, reason, tree, plan, listed)
        return cid, False

    def _start(self, state: dict[str, Any]) -> dict[str, Any]:
        """The last checkpoint's record, when the lean path may carry on from it."""
        last = state.get("last")
        if not isinstance(last, dict) or not isinstance(last.get("meta"), dict):
            raise Unsupported("no checkpoint to start from")
        if state.get("tree") is None:
            raise Unsupported("the last snapshot did not finish")
        if (last.get("size_cap"), last.get("secrets")) != (
            self.policy.size_cap_bytes,
            self.policy.fingerprint,
        ):
            # Files included under the old rules may be left out under the new ones:
            # only the store's full listing judges every untracked file again.
            raise Unsupported("the size cap or the secret-file rules changed")
        if any(self.git.git_dir().glob("sharedindex.*")):
            raise Unsupported("a split index")
        orphan = self._index.with_name("index.lock")
        if orphan.exists():
            orphan.unlink()  # we hold the lock: a killed snapshot's leftover
        return last

    def _seed(self, state: dict[str, Any]) -> Seed:
        user_index = self.git.git_dir() / "index"
        signature = gitstate.signature(user_index)
        if state.get("user_index") == signature and self._index.exists():
            return Seed(
                signature,
                False,
                {p for p in state.get("untracked", []) if isinstance(p, str)},
                {p for p in state.get("missing_tracked", []) if isinstance(p, str)},
            )
        if signature is None:
            raise Unsupported("no index")
        # Imported here: the agent hook's path seldom seeds (it reuses its index).
        from vibflow.steps.workspace.diffs import copy_as_read

        # Bytes and mtime from one open file (git's racy-clean check needs the
        # mtime, and the user's index may be replaced while it is copied).
        copy_as_read(user_index, self._index)
        return Seed(signature, True, set(), set())

    def _apply(self, state: dict[str, Any], plan: Plan) -> str:
        """Bring the private index to the work tree; its tree. ``state`` says first
        which files may enter it (a killed snapshot leaves what the store expects)."""
        state.update(
            {
                "user_index": plan.signature,
                "untracked": sorted(plan.previous | plan.current),
                "missing_tracked": sorted(plan.missing | plan.was_missing),
                "tree": None,
            }
        )
        self._save_state(state)
        env = {"GIT_INDEX_FILE": str(self._index)}
        if plan.drop:
            self.git.run(
                "update-index", "-z", "--force-remove", "--stdin",
                stdin=gitstate.nul(plan.drop), env=env,
            )  # fmt: skip
        if plan.add:
            self.git.run(
                "update-index", "--add", "--remove", "-z", "--stdin",
                stdin=gitstate.nul(plan.add), env=env,
            )  # fmt: skip
        try:
            tree = self.git.text("write-tree", env=env)
        except GitError as exc:
            # Blobs the user's gc pruned: the store starts its index afresh.
            raise Unsupported("write-tree failed") from exc
        state.update(
            {
                "untracked": sorted(plan.current),
                "missing_tracked": sorted(plan.missing),
                "tree": tree,
            }
        )
        return tree

    def _commit(
        self,
        state: dict[str, Any],
        message: str,
        reason: str,
        tree: str,
        plan: Plan,
        listed: _Later,
    ) -> str:
        head, skipped = plan.head, plan.skipped
        cid, created = new_checkpoint_id(), snapshot_core.now_iso()
        # The store's CheckpointMeta.model_dump(mode="json", exclude={commit, reused}),
        # field for field and in its order.
        meta = {
            "checkpoint_id": cid,
            "created_at": created,
            "message": message,
            "reason": reason,
            "base_head": head,
            "file_count": gitstate.index_entries(self._index),
            "untracked_count": len(plan.current),
            "skipped": skipped,
            "unscanned_count": plan.unscanned,
            "metadata_complete": True,
            "tree": tree,
        }
        args = ["commit-tree", tree, "-m", f"vibflow checkpoint {cid}"]
        args += ["-m", json.dumps({META_MARKER: meta})]
        if head:
            args[2:2] = ["-p", head]
        commit = self.git.text(*args, env=IDENTITY)
        # Retention, as the store applies it right after creating: over every ref
        # (listed while the snapshot was written) and the new one, whose ref is
        # written in the same transaction as the deletions.
        metas = [*listed.result(), lean_retention.Dated(cid, created, reason)]
        doomed = lean_retention.doomed(metas, self.policy, self.pins)
        lines = [f"update {REF_PREFIX}{cid} {commit}"]
        lines += [f"delete {REF_PREFIX}{d}" for d in doomed if d != cid]
        self.git.run("update-ref", "--stdin", stdin="".join(f"{x}\n" for x in lines).encode())
        state["last"] = {
            "tree": tree,
            "head": head,
            "checkpoint_id": cid,
            "skipped": [s["path"] for s in skipped],
            "commit": commit,
            "meta": meta,
            "size_cap": self.policy.size_cap_bytes,
            "secrets": self.policy.fingerprint,
        }
        self._save_state(state)
        return cid

    # -- what the status says ---------------------------------------------------

    def _status(self, previous: list[str]) -> tuple[gitstate.TreeStatus, list[str]]:
        ignored: list[list[str] | BaseException] = []

        def ask() -> None:
            try:
                ignored.append(snapshot_core.now_ignored(self.git, previous))
            except BaseException as exc:  # noqa: BLE001 - raised again in the caller
                ignored.append(exc)

        # Side by side with the status: git answers both in the time of one.
        side = threading.Thread(target=ask, name="vibflow-check-ignore", daemon=True)
        if previous:
            side.start()
        try:
            out = self.git.run(
                *gitstate.status_args(self.git.git_dir()),
                # Our private index: git may store the stat data it refreshed.
                env={"GIT_INDEX_FILE": str(self._index), "GIT_OPTIONAL_LOCKS": "1"},
            )
        finally:
            if previous:
                side.join()
        now_ignored = ignored[0] if ignored else []
        if isinstance(now_ignored, BaseException):
            raise now_ignored
        return gitstate.read_status(out), now_ignored

    def _still_there(self, last: dict[str, Any]) -> str | None:
        """The last checkpoint's id when its ref still holds the commit we wrote."""
        cid, commit = str(last.get("checkpoint_id", "")), str(last.get("commit", ""))
        if not CHECKPOINT_ID.fullmatch(cid) or not commit:
            return None
        holds = snapshot_core.loose_ref_holds(self.git.git_dir(), REF_PREFIX + cid, commit)
        if holds is None:
            # Packed refs (after gc), or another ref store: ask git.
            found = self.git.text("for-each-ref", "--format=%(objectname)", REF_PREFIX + cid)
            holds = found.strip() == commit
        return cid if holds else None

    # -- retention ----------------------------------------------------------------

    def prune(self, *, now: datetime | None = None) -> list[str]:
        """The store's retention over plain records (:mod:`.lean_retention`)."""
        return lean_retention.prune(self.git, self.policy, self.pins, now=now)
