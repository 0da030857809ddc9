"""git answers that can never change, kept by a long-lived process (the MCP server).

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

import re
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from pathlib import Path

from vibflow.steps.workspace.git import Git

#: Subcommands whose answer is a pure function of their object-id arguments.
_PURE = frozenset({"diff-tree", "ls-tree"})
_OBJECT_ID = re.compile(r"^(?:[0-9a-f]{40}|[0-9a-f]{64})$")
#: Options that make the answer depend on something besides the ids (none of
#: these is used by the advisor; refusing them keeps the proof simple).
_IMPURE_OPTIONS = ("--stdin", "--format", "--pretty", "--textconv", "--ext-diff", "-c")
DEFAULT_MAX_BYTES = 64 * 1024 * 1024


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
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

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
