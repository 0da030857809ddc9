"""Masks as spans: where a redaction goes, what replaces it, and how they merge.

Scanners report *spans* (start, end, kind) over one string; a single pass then
builds the output. Keeping detection and rewriting apart is what lets the
secret scanner mask every occurrence of a value it found once, and lets both
scanners leave the placeholders of an earlier pass alone — the property that
makes redaction idempotent.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from typing import NamedTuple

# Every placeholder any redaction pass writes. Scanners never report a span
# that lies inside one, so a second pass leaves the first pass's output alone.
PLACEHOLDER = re.compile(
    r"\[(?:REDACTED:[a-z0-9_]{1,40}|PATH|PRIVATE_IP|INTERNAL_HOST|EMAIL|USER)\]"
)


def secret_placeholder(kind: str) -> str:
    return f"[REDACTED:{kind}]"


class Span(NamedTuple):
    """Characters ``[start, end)`` of a string to replace with ``replacement``.

    Where spans overlap, the one that starts first wins; at the same start the
    lower ``rank`` (a more specific finding) names the merged mask.
    """

    start: int
    end: int
    replacement: str
    rank: int = 0


class Placeholders:
    """Where a text already holds placeholders (sorted, never overlapping)."""

    def __init__(self, text: str) -> None:
        found = [(m.start(), m.end()) for m in PLACEHOLDER.finditer(text)]
        self._starts = [s for s, _ in found]
        self._ends = [e for _, e in found]

    def contain(self, start: int, end: int) -> bool:
        """True when ``[start, end)`` lies entirely inside one placeholder."""
        i = bisect.bisect_right(self._starts, start) - 1
        return i >= 0 and end <= self._ends[i]


def apply(text: str, spans: Iterable[Span]) -> tuple[str, int]:
    """Rewrite ``text`` with ``spans``; overlapping spans merge into the first one.

    Returns the new text and how many (merged) masks were written.
    """
    ordered = sorted(spans, key=lambda sp: (sp.start, sp.rank, -sp.end))
    if not ordered:
        return text, 0
    out: list[str] = []
    pos = 0
    count = 0
    cur = ordered[0]
    cur_end = cur.end
    for span in ordered[1:]:
        if span.start < cur_end:  # overlaps the mask being built: absorb it
            cur_end = max(cur_end, span.end)
            continue
        out.append(text[pos : cur.start])
        out.append(cur.replacement)
        count += 1
        pos = cur_end
        cur = span
        cur_end = span.end
    out.append(text[pos : cur.start])
    out.append(cur.replacement)
    count += 1
    out.append(text[cur_end:])
    return "".join(out), count
