"""A file of yours that moved and changed past git's rename detection.

An agent that moves ``src/report.py`` to ``src/writer.py`` and rewrites it
leaves a deletion and a new file that git cannot pair (too little in common),
and ``diffs.pair_moves`` pairs only exact copies. Your file's deletion is in
scope (it is yours); the new file, with nothing else linking it, would be a
drift candidate — and the partial restore, "keeping your in-scope work", would
delete it: your file gone under both names. So a new file takes the place of a
deleted file of yours when it is the one new file that can be its new place:

1. the same folder and the same stem (``report.js`` → ``report.ts``);
2. else the same file name in another folder (``src/report.py`` →
   ``src/reports/report.py``);
3. else the same folder and the same kind (suffix), and no other new file there
   of that kind.

Each deleted file takes at most one new file, each new file goes to at most one
deleted file, and a rule that finds two candidates decides nothing. The zone
keeps such a file in scope for the user to review: the move is a guess.

Pure: paths in, pairs out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence


def _folder(path: str) -> str:
    return path.rpartition("/")[0]


def _name(path: str) -> str:
    return path.rpartition("/")[2]


def _stem(path: str) -> str:
    name = _name(path)
    stem, dot, _ = name.rpartition(".")
    return stem if dot and stem else name


def _suffix(path: str) -> str:
    name = _name(path)
    stem, dot, suffix = name.rpartition(".")
    return suffix.casefold() if dot and stem else ""


#: How a new file may be a deleted one's new place, strongest first, and how the
#: reason says it.
_RULES: tuple[tuple[Callable[[str, str], bool], str], ...] = (
    (lambda gone, new: _folder(gone) == _folder(new) and _stem(gone) == _stem(new), "has its name"),
    (lambda gone, new: _name(gone) == _name(new), "has its file name, in another folder"),
    (
        lambda gone, new: (
            _folder(gone) == _folder(new) and _suffix(gone) != "" and _suffix(gone) == _suffix(new)
        ),
        "is the one new file of its kind beside it",
    ),
)


def moves(gone: Sequence[str], new: Sequence[str]) -> dict[str, tuple[str, str]]:
    """New file → (the deleted file it may have moved from, how it matches).

    ``gone``: deleted files of yours git paired with no new name; ``new``: files
    the change added that no rename pairs."""
    out: dict[str, tuple[str, str]] = {}
    taken: set[str] = set()
    for rule, how in _RULES:
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
