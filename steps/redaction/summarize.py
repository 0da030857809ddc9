"""Long terminal output becomes head + tail + what was left out (spec §7 item 1).

A failing command's useful lines are usually its first few (what ran) and
its last ones (the error), so a third of the budget keeps the head, the rest
the tail, and one marker line in between says how many lines and characters
were dropped and how many of them looked like errors or warnings.

The result is never longer than ``max_chars`` — which is what makes a second
pass a no-op — and cuts fall on line ends (or, inside one giant line, on
whitespace), never inside a redaction placeholder.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from vibflow.steps.redaction.spans import PLACEHOLDER

_NOTEWORTHY = re.compile(
    r"(?im)^.*\b(?:error|errors|fail|failed|failure|exception|traceback|fatal|panic|warn|warning)\b"
)
# Below this budget there is no room for a marker: the text is simply cut.
MIN_MARKER_BUDGET = 120


class Summary(NamedTuple):
    text: str
    summarized: bool
    omitted_lines: int = 0
    omitted_chars: int = 0


def _marker(lines: int, chars: int, noteworthy: int) -> str:
    extra = f", {noteworthy} of them errors/warnings" if noteworthy else ""
    return f"\n[... {lines} lines ({chars} chars) summarized{extra} ...]\n"


def _safe_head_cut(text: str, limit: int) -> int:
    """An index <= limit to end the head at: a line end, else whitespace."""
    if limit >= len(text):
        return len(text)
    nl = text.rfind("\n", 0, limit + 1)
    if nl > 0:
        return nl
    ws = max(text.rfind(" ", 0, limit + 1), text.rfind("\t", 0, limit + 1))
    cut = ws if ws > limit // 2 else limit
    return _outside_placeholder(text, cut, toward_start=True)


def _safe_tail_cut(text: str, limit: int) -> int:
    """An index >= len(text) - limit to start the tail at."""
    lo = len(text) - limit
    if lo <= 0:
        return 0
    nl = text.find("\n", lo)
    if nl != -1 and nl < len(text) - 1:
        return nl + 1
    ws = text.find(" ", lo)
    cut = ws + 1 if ws != -1 and ws < lo + limit // 2 else lo
    return _outside_placeholder(text, cut, toward_start=False)


def _outside_placeholder(text: str, cut: int, *, toward_start: bool) -> int:
    window_start = max(0, cut - 40)
    for m in PLACEHOLDER.finditer(text, window_start, min(len(text), cut + 40)):
        if m.start() < cut < m.end():
            return m.start() if toward_start else m.end()
    return cut


def summarize(text: str, max_chars: int) -> Summary:
    """``text`` if it fits in ``max_chars``, else head + marker + tail within the budget."""
    if len(text) <= max_chars:
        return Summary(text, False)
    if max_chars < MIN_MARKER_BUDGET:
        cut = _safe_head_cut(text, max(0, max_chars))
        return Summary(text[:cut], True, text.count("\n", cut) + 1, len(text) - cut)
    # The marker's digits depend on what is kept; sizing it for "everything
    # omitted" makes it an upper bound, so the total never overflows.
    reserve = len(_marker(text.count("\n") + 1, len(text), text.count("\n") + 1))
    budget = max_chars - reserve
    head_end = _safe_head_cut(text, budget // 3)
    tail_start = max(head_end, _safe_tail_cut(text, budget - head_end))
    middle = text[head_end:tail_start]
    lines = middle.count("\n") + (0 if middle.endswith("\n") else 1)
    noteworthy = len(_NOTEWORTHY.findall(middle))
    head = text[:head_end].rstrip("\n")
    tail = text[tail_start:].lstrip("\n")
    out = head + _marker(lines, len(middle), noteworthy) + tail
    return Summary(out, True, lines, len(middle))
