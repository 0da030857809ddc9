"""The contract's per-text verdicts, kept by one long-lived process (the MCP server).

Every string that leaves the process is judged by the redaction contract, and
a warm server sends nearly the same strings again and again: a recovery plan
of 600 changed files repeats its ~5,000 paths, labels and reasons on every
``recovery_preview``. Each judgement here is a pure function of the text and
of what judges it — the secret detectors loaded in this process (they cannot
change under it) and the privacy context (the project root, the home folder,
user and host names, the folders at ``/``):

* ``clean``: texts the detectors find nothing in;
* ``quiet``: texts the privacy filter leaves unchanged;
* ``scans``: the contract's whole answer for one text and one length limit
  (the masked, summarized text and its counts);
* ``seen``: texts whose ``clean`` / ``quiet`` verdicts were already asked for.

So a :class:`ScanMemo` keeps them under the context they were made in, and a
different context (a root or home seen differently) starts afresh. Nothing is
keyed by time, HEAD, refs or the request: a text judged once is judged the same
way forever by the same detectors. Every string is still looked up and
counted each time; only the work of judging it again is skipped. The memory is
bounded by texts; past the bound the memo starts again (a bound, not a policy).

A fresh CLI process has no memo: the contract judges each payload alone, as
before, with the digests of ``verdicts`` as its only memory.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

#: Texts kept (all four kinds together); ~100 bytes each plus the text.
MAX_TEXTS = 400_000


class Judged:
    """The verdicts made under one privacy context. Shared by request threads:
    only lookups, single inserts and ``update`` (each atomic in CPython) touch
    them, and a memo past its bound is replaced, never cleared under a reader."""

    __slots__ = ("clean", "ctx", "plain", "quiet", "scans", "seen")

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx
        self.seen: set[str] = set()
        self.clean: set[str] = set()
        self.quiet: set[str] = set()
        self.scans: dict[tuple[str, int], Any] = {}
        #: For each length limit: text → itself, for texts the contract leaves
        #: untouched (no mask, no summary): most of a payload, answered in one lookup.
        self.plain: dict[int, dict[str, str]] = {}

    def size(self) -> int:
        return len(self.seen) + len(self.scans) + sum(len(p) for p in self.plain.values())

    def add(self, asked: Iterable[str], clean: Iterable[str], quiet: Iterable[str]) -> None:
        self.clean.update(clean)
        self.quiet.update(quiet)
        self.seen.update(asked)  # last: a text counts as seen once its verdicts are in

    def plain_for(self, max_chars: int) -> dict[str, str]:
        found = self.plain.get(max_chars)
        if found is None:
            found = self.plain.setdefault(max_chars, {})
        return found


class ScanMemo:
    """What the contract already judged in this process, per privacy context."""

    def __init__(self, *, max_texts: int = MAX_TEXTS) -> None:
        self._max = max_texts
        self._lock = threading.Lock()
        self._judged: Judged | None = None
        self.resets = 0

    def under(self, ctx: Any) -> Judged:
        """The verdicts made under ``ctx`` (a new, empty set when the context differs
        from the last one or the memo has grown past its bound)."""
        with self._lock:
            judged = self._judged
            if judged is None or judged.ctx != ctx or judged.size() > self._max:
                if judged is not None:
                    self.resets += 1
                judged = self._judged = Judged(ctx)
            return judged
