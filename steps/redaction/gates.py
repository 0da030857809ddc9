"""Gates: cheap searches that find the only lines an expensive pattern could
match on, and patterns compiled on first use.

Python's ``re`` is fast on a literal prefix and slow on a leading character
class, lookbehind or ``IGNORECASE``, so every expensive pattern gets a gate
that is a *superset* of it (never a miss), usually a few literals searched in
the lower-cased text. Both the secret patterns (:mod:`.patterns`) and the
privacy filter (:mod:`.privacy`) search through gates.

Nothing here is compiled at import: compiling the redaction's expressions
costs a fresh process milliseconds, and a command whose texts are all known
clean (:mod:`.clean`) and hit no gate never needs most of them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache, cached_property


class Gate:
    """A search whose hits include every place its pattern can match.

    Compiled on first use, and the case-folding variant only for text that is
    not ASCII: a command whose texts are all known clean never compiles the
    secret gates at all. (A plain class: building a dataclass costs a fresh
    process about a millisecond.)
    """

    def __init__(self, pattern: str, lowered: bool = False) -> None:
        self.pattern = pattern
        #: Search text.lower() (or, for non-ASCII text, ignore case).
        self.lowered = lowered

    @cached_property
    def _exact(self) -> re.Pattern[str]:
        return re.compile(self.pattern, re.MULTILINE)

    @cached_property
    def _folded(self) -> re.Pattern[str]:
        return re.compile(self.pattern, re.MULTILINE | re.IGNORECASE)

    def starts(self, text: str, low: str | None) -> Iterator[int]:
        if not self.lowered:
            return (m.start() for m in self._exact.finditer(text))
        if low is not None:
            return (m.start() for m in self._exact.finditer(low))
        return (m.start() for m in self._folded.finditer(text))


def literals(*words: str, lowered: bool = True) -> Gate:
    return Gate("|".join(re.escape(w) for w in words), lowered=lowered)


def lines_at(text: str, starts: Iterator[int], into: dict[int, str]) -> None:
    """Add the line around each position to ``into`` (line start -> line)."""
    last_start, last_end = 0, -1
    for pos in starts:
        if last_start <= pos <= last_end:
            continue  # same line as the previous hit
        last_start = text.rfind("\n", 0, pos) + 1
        end = text.find("\n", pos)
        last_end = len(text) if end == -1 else end
        into.setdefault(last_start, text[last_start:last_end])


def lazy(pattern: str, flags: int = 0) -> Callable[[], re.Pattern[str]]:
    """``pattern``, compiled the first time it is asked for (``NAME().finditer(...)``)."""
    return cache(lambda: re.compile(pattern, flags))
