"""The renames an intent asks for, and the changes that carry them out.

"Rename Tooltip to Popover: component, export, docs page and tests" names the
work by two words. A file that ``git mv`` moved and then rewrote past git's
rename detection shows as a deletion (``Tooltip.test.ts``) and a new file
(``Popover.test.ts``); the export and the nav link change one word for the
other. None of them need name a file you marked, yet each is the rename you
asked for. Evidence here, each with a reason a user can check:

- a deleted file and a new one whose path is the deleted one's with the old word
  replaced by the new (either side, in the word's usual spellings: ``Tooltip``,
  ``tooltip``, ``TOOLTIP``);
- a changed file where a line it removed comes back with the old word replaced
  by the new one and nothing else.

Pure: the intent's text, paths and lines in; pairs and reasons out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

#: "rename[s|d|ing] [the] X [component …] to|into|as Y", X and Y one name each.
_ASKED = re.compile(
    r"\brenam(?:e|es|ed|ing)\s+(?:the\s+|a\s+|an\s+)?[`'\"]?(?P<old>[A-Za-z_][\w.-]*?)[`'\"]?"
    r"(?:\s+[a-z]+){0,2}?\s+(?:to|into|as)\s+[`'\"]?(?P<new>[A-Za-z_][\w.-]*?)[`'\"]?"
    r"(?=[\s,.;:!?)]|$)",
    re.IGNORECASE,
)
#: Too short or too common to stand for a name of the project.
_MIN_LEN = 3


def asked(intent: str) -> tuple[tuple[str, str], ...]:
    """The (old, new) names the intent asks to rename, each as written."""
    out: list[tuple[str, str]] = []
    for found in _ASKED.finditer(intent):
        old, new = found["old"].rstrip(".-"), found["new"].rstrip(".-")
        if min(len(old), len(new)) >= _MIN_LEN and old.casefold() != new.casefold():
            out.append((old, new))
    return tuple(dict.fromkeys(out))


def spellings(pairs: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """Each pair as written, lower-cased, upper-cased and capitalised."""
    out: dict[tuple[str, str], None] = {}
    for old, new in pairs:
        for change in (str, str.lower, str.upper, str.capitalize):
            out[(change(old), change(new))] = None
    return tuple(out)


def paired(
    deleted: Sequence[str], added: Sequence[str], pairs: Sequence[tuple[str, str]]
) -> dict[str, tuple[str, str, str]]:
    """Each deleted or added path that the other side names after the rename →
    (its counterpart, old word, new word)."""
    new_paths = set(added)
    out: dict[str, tuple[str, str, str]] = {}
    for path in deleted:
        for old, new in pairs:
            if old in path:
                renamed = path.replace(old, new)
                if renamed in new_paths:
                    out[path] = (renamed, old, new)
                    out[renamed] = (path, old, new)
                    break
    return out


def rewrites(
    removed: Iterable[str], added: Iterable[str], pairs: Sequence[tuple[str, str]]
) -> tuple[str, str] | None:
    """The (old, new) pair a removed line comes back with, replaced (in each of its
    spellings) and nothing else."""
    came = {line.strip() for line in added}
    for line in removed:
        renamed = line.strip()
        first: tuple[str, str] | None = None
        for old, new in pairs:
            if old in renamed:
                renamed = renamed.replace(old, new)
                first = first or (old, new)
        if first is not None and renamed in came:
            return first
    return None
