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

Whatever it cannot vouch for cheaply it refuses with :class:`Unsupported`
(before it changes anything, or leaving the state a killed snapshot leaves,
which the store recovers from) and the caller falls back to the full store:
the very first checkpoint, a snapshot that was killed, a split index, an
unmerged entry or a submodule that moved, a folder of included files turned
into a repository, a message that is not one of the hook's own, and — the one
that costs — an untracked file whose secret-content verdict is not in the
scan cache: the detectors' import alone is more than the hook's budget, so a
new or edited untracked file is left to the full store to scan.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from vibflow.engine.atomicfile import atomic_write
from vibflow.steps.checkpoints import gitstate, lean_retention
from vibflow.steps.checkpoints.lean_policy import LeanPolicy
from vibflow.steps.checkpoints.lean_retention import CHECKPOINT_ID, META_MARKER, REF_PREFIX
from vibflow.steps.checkpoints.leftovers import is_restore_temp
from vibflow.steps.checkpoints.secret_names import NameRules
from vibflow.steps.workspace.git import Git, GitError

# Equal to the store's (pinned by tests/steps/checkpoints/test_quick_checkpoints.py).
IDENTITY = {
    "GIT_AUTHOR_NAME": "vibflow",
    "GIT_AUTHOR_EMAIL": "vibflow@localhost",
    "GIT_COMMITTER_NAME": "vibflow",
    "GIT_COMMITTER_EMAIL": "vibflow@localhost",
}
#: The hook's own messages: redacting them changes nothing (a test pins it), so
#: they are stored as they are; any other message goes the full store's way.
HOOK_MESSAGE = re.compile(r"(before|after) (claude-code|gemini) turn ([0-9]{1,9}|next)")
_GENERIC_KINDS = frozenset({"credential", "high_entropy", "high_entropy_hex", "url_credentials"})
_SCAN_CACHE_VERSION = 1
_LOCK_WAIT = 120.0

#: The checkpoint ids kept agent turns name (``None``: the records cannot be read).
Pins = Callable[[], "set[str] | None"]


class Unsupported(Exception):
    """The lean path cannot vouch for this checkpoint: take it with the full store."""


class _Plan:
    """What the snapshot index must drop and add (a plain class, as everything the
    hook imports: building a dataclass costs about a millisecond)."""

    def __init__(
        self,
        *,
        signature: list[int] | None,
        head: str | None,
        previous: set[str],
        was_missing: set[str],
        missing: set[str],
        gone: set[str],
        drop: list[str],
        add: list[str],
        current: set[str],
        skipped: list[dict[str, Any]],
        nothing_new: bool,
    ) -> None:
        self.signature = signature
        self.head = head
        self.previous = previous  # untracked files in the private index before
        self.was_missing = was_missing  # tracked files missing before
        self.missing = missing  # tracked files missing now
        self.gone = gone  # untracked files to take out: deleted, now ignored, now left out
        self.drop = drop
        self.add = add
        self.current = current  # untracked files in the private index after
        self.skipped = skipped
        self.nothing_new = nothing_new

    @property
    def reasons(self) -> list[tuple[str, str]]:
        return sorted((str(s["path"]), str(s["reason"])) for s in self.skipped)


def new_checkpoint_id() -> str:
    """``ckpt_`` and the hex of a random (version 4) UUID, as the store makes them,
    without importing ``uuid`` (and the platform probing it starts with)."""
    raw = bytearray(os.urandom(16))
    raw[6] = (raw[6] & 0x0F) | 0x40  # version 4
    raw[8] = (raw[8] & 0x3F) | 0x80  # RFC 4122 variant
    return "ckpt_" + raw.hex()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def _skip(
    path: str, reason: str, size: int | None = None, detail: str | None = None
) -> dict[str, Any]:
    # The key order of the store's Skipped.model_dump(): the metadata JSON is the same bytes.
    return {"path": path, "reason": reason, "size": size, "detail": detail}


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


class _Seed:
    """What the snapshot starts from: the user's index signature and, unless the
    private index was just seeded again from it, what the last snapshot recorded."""

    def __init__(
        self, signature: list[int] | None, reseed: bool, previous: set[str], was_missing: set[str]
    ) -> None:
        self.signature = signature
        self.reseed = reseed
        self.previous = previous  # untracked files in the private index
        self.was_missing = was_missing  # tracked files missing at the last snapshot


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
        self._begun: tuple[dict[str, Any], dict[str, Any], _Seed, _Later] | None = None
        self._rules: NameRules | None = None
        self._cache: dict[str, Any] | None = None

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
        try:
            data = json.loads(self._state_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _save_state(self, state: dict[str, Any]) -> None:
        atomic_write(self._state_file, json.dumps(state), durable=False)

    def _create(
        self,
        message: str,
        reason: str,
        state: dict[str, Any],
        last: dict[str, Any],
        seed: _Seed,
        asked: _Later,
    ) -> tuple[str, bool]:
        status, now_ignored = asked.result()
        plan = self._plan(seed, status, now_ignored)
        if (
            plan.nothing_new
            and state["tree"] == last.get("tree")
            and plan.head == last.get("head")
            and plan.reasons == _reasons(last)
        ):
            reused = self._still_there(last)
            if reused is not None:
                return reused, True
        listed = _Later(lambda: lean_retention.listing(self.git), "vibflow-refs")
        tree = self._apply(state, plan)
        skipped_now = sorted(s["path"] for s in plan.skipped)
        if (last.get("tree"), last.get("head"), last.get("skipped", []), _reasons(last)) == (
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

    def _seed(self, state: dict[str, Any]) -> _Seed:
        user_index = self.git.git_dir() / "index"
        signature = gitstate.signature(user_index)
        if state.get("user_index") == signature and self._index.exists():
            return _Seed(
                signature,
                False,
                {p for p in state.get("untracked", []) if isinstance(p, str)},
                {p for p in state.get("missing_tracked", []) if isinstance(p, str)},
            )
        if signature is None:
            raise Unsupported("no index")
        import shutil

        # copy2 keeps the index's mtime (git's racy-clean check needs it).
        shutil.copy2(user_index, self._index)
        return _Seed(signature, True, set(), set())

    def _plan(self, seed: _Seed, status: gitstate.TreeStatus, now_ignored: list[str]) -> _Plan:
        """What the snapshot index must drop and add to match the work tree."""
        previous, was_missing, reseed = seed.previous, seed.was_missing, seed.reseed
        if status.unusual:
            raise Unsupported("an unmerged entry, a rename or a submodule")
        if self._nested_repo_appeared(previous):
            raise Unsupported("a folder of included files became a repository")
        # Tracked files gone from the work tree (``add -u`` drops them; one that
        # comes back is put back explicitly), as the store keeps them.
        missing = {p for p in status.deleted if p not in previous}
        back = sorted(p for p in was_missing if p not in missing and self._exists(p))
        missing |= {p for p in was_missing if p not in back}
        new, skipped, left_out = self._judge(status, previous, was_missing)
        gone = set(now_ignored) | (previous & set(status.deleted)) | left_out
        return _Plan(
            signature=seed.signature,
            head=status.head,
            previous=previous,
            was_missing=was_missing,
            missing=missing,
            gone=gone,
            drop=sorted(gone | set(status.deleted)),
            add=sorted(set(status.changed) - gone) + new + back,
            current=(previous - gone) | set(new),
            skipped=skipped,
            nothing_new=not (gone or new or back or status.changed or status.deleted or reseed),
        )

    def _apply(self, state: dict[str, Any], plan: _Plan) -> str:
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
        plan: _Plan,
        listed: _Later,
    ) -> str:
        head, skipped = plan.head, plan.skipped
        cid, created = new_checkpoint_id(), _now()
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
            "unscanned_count": 0,
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
                ignored.append(self._now_ignored(previous))
            except BaseException as exc:  # noqa: BLE001 - raised again in the caller
                ignored.append(exc)

        # Side by side with the status: git answers both in the time of one.
        side = threading.Thread(target=ask, name="vibflow-check-ignore", daemon=True)
        if previous:
            side.start()
        try:
            out = self.git.run(
                "status",
                "--porcelain=v2",
                "-z",
                "--branch",
                "--no-ahead-behind",
                "--untracked-files=all",
                "--no-renames",
                "--ignore-submodules=dirty",
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

    def _now_ignored(self, paths: list[str]) -> list[str]:
        # "./" keeps a leading ":" from reading as pathspec magic; --no-index: these
        # were untracked in the user's index, which is unchanged (or none are asked).
        out = self.git.run(
            "check-ignore",
            "--no-index",
            "-z",
            "--stdin",
            stdin=gitstate.nul([f"./{p}" for p in paths]),
            ok=(0, 1),
        )
        return [
            p.decode("utf-8", "surrogateescape").removeprefix("./") for p in out.split(b"\0") if p
        ]

    def _judge(
        self, status: gitstate.TreeStatus, previous: set[str], was_missing: set[str]
    ) -> tuple[list[str], list[dict[str, Any]], set[str]]:
        """(untracked files to add, every untracked file left out, included files
        that must now be left out) — the store's ``_filter_untracked`` over only
        the files the status names: those not in the private index, and the
        included ones whose content changed."""
        new: list[str] = []
        skipped: list[dict[str, Any]] = []
        out: set[str] = set()
        for rel in status.untracked:
            if rel in was_missing:
                continue  # a tracked file back again: added as tracked, never judged
            verdict = self._verdict(rel)
            if verdict is None:
                new.append(rel)
            elif isinstance(verdict, dict):
                skipped.append(verdict)
        for rel in status.changed:
            if rel in previous:
                verdict = self._verdict(rel)
                if isinstance(verdict, dict):
                    skipped.append(verdict)
                    out.add(rel)
        return sorted(new), sorted(skipped, key=lambda s: str(s["path"])), out

    def _verdict(self, rel: str) -> dict[str, Any] | str | None:
        """``None``: include it; ``"ignore"``: vibflow's own; else why it is left out."""
        if rel.startswith(".vibflow/") or is_restore_temp(rel):
            return "ignore"
        if rel.endswith("/"):
            return _skip(rel.rstrip("/"), "nested_repo")
        if self._rules is None:
            p = self.policy
            self._rules = NameRules((*p.names, *p.extra_names), p.allow)
        rule = self._rules.rule(rel)
        if rule is not None:
            return _skip(rel, "secret_name", detail=rule)
        try:
            st = os.lstat(f"{self.root}/{rel}")
        except OSError:
            return _skip(rel, "unreadable")
        if st.st_size > self.policy.size_cap_bytes:
            return _skip(rel, "too_large", size=st.st_size)
        kinds = self._content_kinds(rel, st)
        if kinds:
            return _skip(rel, "secret_content", detail=", ".join(kinds))
        return None

    def _content_kinds(self, rel: str, st: os.stat_result) -> list[str]:
        """The secret kinds the store's scan cache holds for this file as it is now."""
        import stat

        p = self.policy
        if not p.scan_content or not stat.S_ISREG(st.st_mode):
            return []
        if st.st_size == 0 or st.st_size > p.scan_max_kb * 1024:
            return []
        key = [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]
        known = self._scan_cache().get(rel)
        if not isinstance(known, list) or len(known) != 2 or known[0] != key:
            raise Unsupported("an untracked file the secret scan has not judged as it is now")
        kinds = [str(k) for k in known[1]] if isinstance(known[1], list) else []
        return kinds if p.scan_generic else [k for k in kinds if k not in _GENERIC_KINDS]

    def _scan_cache(self) -> dict[str, Any]:
        cached = self._cache
        if cached is None:
            cached = {}
            try:
                data = json.loads((self.dir / "secret_scan.json").read_text(encoding="utf-8"))
            except (OSError, ValueError):
                data = None
            if (
                isinstance(data, dict)
                and data.get("version") == _SCAN_CACHE_VERSION
                and data.get("scan_max_kb") == self.policy.scan_max_kb
                and isinstance(data.get("files"), dict)
            ):
                cached = data["files"]
            self._cache = cached
        return cached

    def _nested_repo_appeared(self, paths: set[str]) -> bool:
        folders: set[str] = set()
        for path in paths:
            cut = path.rstrip("/").rfind("/")
            while cut > 0 and (folder := path[:cut]) not in folders:
                folders.add(folder)
                cut = folder.rfind("/")
        base = str(self.root)
        return any(os.path.exists(f"{base}/{folder}/.git") for folder in folders)  # noqa: PTH110

    def _exists(self, rel: str) -> bool:
        return os.path.lexists(f"{self.root}/{rel}")

    def _still_there(self, last: dict[str, Any]) -> str | None:
        """The last checkpoint's id when its ref still holds the commit we wrote."""
        cid, commit = str(last.get("checkpoint_id", "")), str(last.get("commit", ""))
        if not CHECKPOINT_ID.fullmatch(cid) or not commit:
            return None
        try:
            loose = (gitstate.common_dir(self.git.git_dir()) / REF_PREFIX / cid).read_text(
                encoding="ascii"
            )
        except (OSError, UnicodeDecodeError):
            # Packed refs (after gc), or another ref store: ask git.
            loose = self.git.text("for-each-ref", "--format=%(objectname)", REF_PREFIX + cid)
        return cid if loose.strip() == commit else None

    # -- retention ----------------------------------------------------------------

    def prune(self, *, now: datetime | None = None) -> list[str]:
        """The store's retention over plain records (:mod:`.lean_retention`)."""
        return lean_retention.prune(self.git, self.policy, self.pins, now=now)


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
