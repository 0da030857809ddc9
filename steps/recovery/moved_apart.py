"""A file of yours that moved where git did not pair it.

A plain ``mv src/report.py src/writer.py`` with an edit, not staged, leaves a
deletion and an untracked file: git looks for renames among tracked files only,
and ``diffs.pair_moves`` pairs exact copies. Your file's deletion is in scope
(it is yours); the new file, with nothing else linking it, would be a drift
candidate — and the partial restore, "keeping your in-scope work", would delete
it: your file gone under both names. So a new file takes the place of a deleted
file you named (exactly, not through a folder) when it is the one new file that:

1. holds most of its lines — at least half of the lines of both, counted once
   each (``similar``), in any folder; or
2. sits beside it with the same stem (``report.js`` → ``report.ts``).

A file rewritten under another name holds neither: nothing says it is yours,
and it stays a drift candidate (the restore's safety checkpoint, and ``undo``,
keep it). Each deleted file takes at most one new file, each new file goes to
at most one deleted file, and a rule that finds two candidates decides nothing.
The zone keeps such a file in scope for the user to review.

Pure: paths and texts in, pairs out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

#: Fewer distinct lines than this say nothing about where a file went.
MIN_LINES = 3
#: The share of each side's distinct lines the other must hold.
SIMILAR = 0.5


def _lines(text: str) -> frozenset[str]:
    return frozenset(line.strip() for line in text.splitlines() if line.strip())


def similar(old: str, new: str) -> bool:
    """Whether ``new`` holds at least half of ``old``'s distinct lines and ``old`` at
    least half of ``new``'s (neither a stub nor a file that merely quotes it)."""
    a, b = _lines(old), _lines(new)
    if len(a) < MIN_LINES or len(b) < MIN_LINES:
        return False
    both = len(a & b)
    return both >= SIMILAR * len(a) and both >= SIMILAR * len(b)


def _folder(path: str) -> str:
    return path.rpartition("/")[0]


def _stem(path: str) -> str:
    name = path.rpartition("/")[2]
    stem, dot, _ = name.rpartition(".")
    return stem if dot and stem else name


def moves(gone: Mapping[str, str], new: Mapping[str, str | None]) -> dict[str, tuple[str, str]]:
    """New file → (the deleted file it may have moved from, how it matches).

    ``gone``: deleted files you named → their text at HEAD; ``new``: files the
    change added that no rename pairs → their text now (None: not read)."""
    rules: tuple[tuple[Callable[[str, str], bool], str], ...] = (
        (lambda was, now: similar(gone[was], new[now] or ""), "holds most of its lines"),
        (
            lambda was, now: _folder(was) == _folder(now) and _stem(was) == _stem(now),
            "has its name, beside it",
        ),
    )
    out: dict[str, tuple[str, str]] = {}
    taken: set[str] = set()
    for rule, how in rules:
        for deleted in gone:
            if deleted in taken:
                continue
            found = [n for n in new if n not in out and rule(deleted, n)]
            if len(found) == 1:
                out[found[0]] = (deleted, how)
                taken.add(deleted)
    return out


def reason(deleted: str, how: str) -> str:
    """Why the zone holds the new file: checkable, and a guess the user confirms."""
    return (
        f"your '{deleted}' was deleted and no rename git could see took it; this new "
        f"file {how}: it may be where it moved (please look)"
    )
