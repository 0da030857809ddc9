"""The one glob dialect vibflow speaks for project-relative paths: ``**`` any
number of folders, ``*`` any run of characters within one name, ``?`` one
character, everything else literal. Used by the intent zone's folder globs and
by the file picker of the guided restore."""

from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=256)
def glob_regex(pattern: str) -> re.Pattern[str]:
    """``pattern`` as a regular expression matching a whole path."""
    return re.compile(glob_source(pattern), re.DOTALL)


@lru_cache(maxsize=256)
def glob_source(pattern: str) -> str:
    """The source of :func:`glob_regex` (to be combined with others: compiling
    each on its own first would double the cost of one combined regex)."""
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return "^" + "".join(out) + "$"
