"""What the advisor may keep between requests in a long-lived process (the MCP server).

Three kinds of answers, each kept only where nothing can change it unseen: git
reads of object ids (:class:`GitMemo`, and their parsed form), per-file "is this
file exactly the checkpoint's blob" judgements pinned by the file's ``lstat``
(:class:`HeldJudgements`), and other answers about a file's bytes kept under a
key that pins them — its ``lstat``, or the whole input of a pure function
(:class:`Pinned`: generated-code markers, shared-name links).

The advisor compares the work tree with the safe checkpoint through two git
reads whose every input is an object id: ``diff-tree`` of HEAD's commit
against the checkpoint's tree, and ``ls-tree`` of the checkpoint for the
files old enough to be unchanged since. An object id names its content, so
the same command on the same ids gives the same bytes for the life of the
repository — a warm server can answer them from memory and stay exactly as
correct as a cold run. Everything else (HEAD, the index, the work tree,
refs, and logs bounded by ``--since``, which move with the clock) is never
kept: a command is kept only when :func:`immutable_key` proves it reads
object ids alone.

:class:`GitMemo` is a :class:`~vibflow.steps.workspace.git.Git` (every call
still runs through ``run_git`` when it is not kept), handed to the advisor by
its constructor; the CLI passes none and runs every command, as before. The
memory is bounded by bytes (oldest out first) and shared by the request
threads under a lock. One thing an object id does not pin: ``git replace``
refs, which make git show other content for an id — a project that has any is
never memoized (checked per call, one ``stat``).
"""

from __future__ import annotations

import os
import re
import stat
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from vibflow.steps.recovery.listings import LastListings
from vibflow.steps.workspace.git import Git

#: Subcommands whose answer is a pure function of their object-id arguments.
_PURE = frozenset({"diff-tree", "ls-tree"})
_OBJECT_ID = re.compile(r"^(?:[0-9a-f]{40}|[0-9a-f]{64})$")
#: Options that make the answer depend on something besides the ids (none of
#: these is used by the advisor; refusing them keeps the proof simple).
_IMPURE_OPTIONS = ("--stdin", "--format", "--pretty", "--textconv", "--ext-diff", "-c")
DEFAULT_MAX_BYTES = 64 * 1024 * 1024
#: Parsed answers kept (each a whole-tree listing at most: a few MB at 20,000 files).
MAX_PARSED = 8
_T = TypeVar("_T")


def immutable_key(args: Sequence[str]) -> tuple[str, ...] | None:
    """``args`` as a memo key when the command reads object ids only; else None.

    Every argument before ``--`` is an option or a full object id (no ref,
    no ``HEAD``, no abbreviation, no revision expression); after ``--`` come
    literal path names inside those objects.
    """
    if not args or args[0] not in _PURE:
        return None
    ids = 0
    for arg in args[1:]:
        if arg == "--":
            break
        if arg.startswith("-"):
            if arg.startswith(_IMPURE_OPTIONS):
                return None
            continue
        if not _OBJECT_ID.fullmatch(arg):
            return None
        ids += 1
    return tuple(args) if ids else None


class GitMemo(Git):
    """A :class:`Git` that answers immutable reads from memory after their first run."""

    def __init__(self, root: Path, *, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        super().__init__(root)
        self._max = max_bytes
        self._bytes = 0
        self._kept: OrderedDict[tuple[str, ...], bytes] = OrderedDict()
        self._parsed: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def parsed(self, args: Sequence[str], parse: Callable[[bytes], _T]) -> _T:
        """``parse`` of the answer to ``args`` (run with ``spool``), kept beside the
        bytes when the command reads object ids only: parsing a 20,000-entry
        listing again cost as much as the rest of the comparison. ``parse`` must be
        a pure function of the bytes (it is part of the key)."""
        key = immutable_key(args)
        if key is None or self._replaced():
            return parse(self.run(*args, spool=True))
        full = (parse, key)
        with self._lock:
            if full in self._parsed:
                self._parsed.move_to_end(full)
                self.hits += 1
                return self._parsed[full]  # type: ignore[no-any-return]
        value = parse(self.run(*args, spool=True))
        with self._lock:
            self._parsed[full] = value
            while len(self._parsed) > MAX_PARSED:
                self._parsed.popitem(last=False)
        return value

    def run(
        self,
        *args: str,
        stdin: bytes | None = None,
        env: Mapping[str, str] | None = None,
        ok: Sequence[int] = (0,),
        spool: bool = False,
    ) -> bytes:
        key = immutable_key(args) if stdin is None and env is None else None
        if key is not None and self._replaced():
            key = None
        if key is None:
            return super().run(*args, stdin=stdin, env=env, ok=ok, spool=spool)
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None:
                self._kept.move_to_end(key)
                self.hits += 1
                return kept
        out = super().run(*args, ok=ok, spool=spool)
        with self._lock:
            self.misses += 1
            if len(out) <= self._max // 4 and key not in self._kept:
                self._kept[key] = out
                self._bytes += len(out)
                while self._bytes > self._max:
                    _, dropped = self._kept.popitem(last=False)
                    self._bytes -= len(dropped)
        return out

    def _replaced(self) -> bool:
        """Whether the repository has ``git replace`` refs (loose or packed)."""
        try:
            git_dir = self.git_dir()
            # A linked work tree keeps its refs in the common repository folder.
            common = (git_dir / "commondir").read_text(encoding="utf-8").strip()
            git_dir = (git_dir / common).resolve()
        except FileNotFoundError:
            pass
        except Exception:  # noqa: BLE001 - no readable git dir: nothing is kept
            return True
        replace = git_dir / "refs" / "replace"
        if replace.is_dir() and any(replace.iterdir()):
            return True
        try:
            packed = (git_dir / "packed-refs").read_bytes()
        except OSError:
            return False
        return b" refs/replace/" in packed


#: A file written this recently may still change within the same clock tick without
#: its size or times moving (git calls such entries "racily clean"): never kept.
RACY_SECONDS = 2.0


class HeldJudgements:
    """Whether a file on disk is exactly a checkpoint's blob, kept per file state.

    The advisor asks, for each changed file older than the safe checkpoint,
    whether a restore from it would leave the file as it is (its content and mode
    are the checkpoint's). The answer is a function of the file's bytes and the
    blob id; the bytes are pinned here by what ``lstat`` says of the file — size,
    modification and change times in nanoseconds, inode, mode — the way git's
    index pins a clean entry. A write changes the change time even when it
    restores the old size and modification time, and a file written within
    :data:`RACY_SECONDS` of the judgement is judged again every time.
    """

    def __init__(self, judge: Callable[[Path, Any], bool], *, max_entries: int = 200_000) -> None:
        self._judge = judge  # (root, restore item) → the file is that item (reads it)
        self._max = max_entries
        self._kept: OrderedDict[tuple[Any, ...], bool] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0

    def __call__(self, root: Path, item: Any, st: os.stat_result | None = None) -> bool:
        """``st``: the file's ``lstat`` the caller took just before (else taken here)."""
        if st is None:
            try:
                st = os.lstat(os.path.join(str(root), item.path))  # noqa: PTH118
            except OSError:
                return self._judge(root, item)
        if time.time() - max(st.st_mtime, st.st_ctime) < RACY_SECONDS:
            return self._judge(root, item)
        key = (
            str(root),
            item.path,
            item.action,
            item.mode,
            item.sha,
            st.st_size,
            st.st_mtime_ns,
            st.st_ctime_ns,
            st.st_ino,
            st.st_mode,
        )
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None:
                self._kept.move_to_end(key)
                self.hits += 1
                return kept
        verdict = self._judge(root, item)
        with self._lock:
            self._kept[key] = verdict
            if len(self._kept) > self._max:
                self._kept.popitem(last=False)
        return verdict


class Pinned:
    """Answers about one file's bytes, kept per file state (``lstat``), as
    :class:`HeldJudgements` keeps its verdicts: size, modification and change
    times in nanoseconds, inode and mode pin the bytes the way git's index pins
    a clean entry. Only regular files are kept (a link's ``lstat`` says nothing
    of what it points to), and never one written within :data:`RACY_SECONDS`.

    ``what`` names the question (and every setting its answer depends on), so
    two rules never share an answer. Bounded by entries and by the bytes of the
    answers that hold bytes (oldest out first); shared by request threads.
    """

    def __init__(self, *, max_entries: int = 100_000, max_bytes: int = 32 * 1024 * 1024) -> None:
        self._max = max_entries
        self._max_bytes = max_bytes
        self._bytes = 0
        self._kept: OrderedDict[tuple[Any, ...], tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0

    @staticmethod
    def key(st: os.stat_result, path: str, what: Any) -> tuple[Any, ...] | None:
        """The key pinning ``path``'s bytes by ``st`` (its ``lstat``), or None when
        they cannot be pinned (not a regular file, or written just now)."""
        if not stat.S_ISREG(st.st_mode):
            return None
        if time.time() - max(st.st_mtime, st.st_ctime) < RACY_SECONDS:
            return None
        return (
            what,
            path,
            st.st_size,
            st.st_mtime_ns,
            st.st_ctime_ns,
            st.st_ino,
            st.st_mode,
            st.st_dev,
        )

    def get(self, key: tuple[Any, ...]) -> tuple[bool, Any]:
        with self._lock:
            found = self._kept.get(key)
            if found is None:
                return False, None
            self._kept.move_to_end(key)
            self.hits += 1
            return True, found[0]

    def put(self, key: tuple[Any, ...], value: Any, size: int = 0) -> None:
        with self._lock:
            old = self._kept.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            self._kept[key] = (value, size)
            self._bytes += size
            while len(self._kept) > self._max or self._bytes > self._max_bytes:
                _, (_, dropped) = self._kept.popitem(last=False)
                self._bytes -= dropped


@dataclass(frozen=True)
class AdviceCache:
    """What one long-lived process keeps for its advisor: handed to the advisor's
    constructor (the CLI passes none, and every answer is computed afresh)."""

    git: GitMemo
    held: HeldJudgements
    #: Answers about files' bytes (generated-code markers, shared names), by lstat.
    files: Pinned
    #: The listings the last preview read: a guess to work from while git lists again.
    listings: LastListings

    @classmethod
    def for_root(cls, root: Path) -> AdviceCache:
        from vibflow.steps.recovery.checkpoint_base import is_as_held

        return cls(GitMemo(root), HeldJudgements(is_as_held), Pinned(), LastListings())
