"""Fit handoff sections into a character budget (seed 004 §4 "budget
application"): per-section caps first, then the total, lower-priority sections
shrinking first, every cut marked.

Pure: sections in, rendered text out. Items are dropped whole (an item is one
fact: a decision, a file); a single item longer than its section's cap is
shortened at a character boundary with "…". Python strings index by code
point, so no cut can land inside a character. The result never exceeds the
budget, and the same sections give the same text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

ELLIPSIS = "…"
#: Between two rendered sections.
GAP = "\n\n"


@dataclass(frozen=True)
class Section:
    """One section before fitting: its items in their own order."""

    name: str
    title: str
    items: tuple[str, ...]
    #: Share of the whole budget this section may take on its own (seed 004 §4 caps).
    share: float
    #: What an item is called in a cut mark ("decisions", "files").
    unit: str
    #: Where the rest can be read ("vibflow memory show").
    more: str
    #: Shown when the section has no items at all (None: leave the section out).
    empty: str | None = None


@dataclass(frozen=True)
class Fitted:
    """One section as it is shown."""

    name: str
    title: str
    text: str
    shown: int
    total: int

    @property
    def truncated(self) -> bool:
        return self.shown < self.total


def cut_mark(hidden: int, unit: str, more: str) -> str:
    return f"{ELLIPSIS} {hidden} more {unit}, see {more}"


def shorten(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters, marked when shortened."""
    if len(text) <= limit:
        return text
    if limit <= 0:
        return ""
    return text[: limit - 1].rstrip() + ELLIPSIS


def _render(section: Section, shown: int, item_limit: int | None) -> str:
    lines = [section.title]
    items = section.items[:shown]
    if not section.items and section.empty is not None:
        lines.append(section.empty)
    for item in items:
        lines.append(shorten(item, item_limit) if item_limit is not None else item)
    hidden = len(section.items) - shown
    if hidden:
        lines.append(cut_mark(hidden, section.unit, section.more))
    return "\n".join(lines)


@dataclass(frozen=True)
class _State:
    section: Section
    shown: int
    item_limit: int | None = None


def _capped(section: Section, budget: int) -> _State:
    """The most items that fit the section's own cap (at least one, shortened)."""
    cap = max(int(section.share * budget), 1)
    state = _State(section, len(section.items))
    while state.shown > 0 and len(_render(section, state.shown, None)) > cap:
        state = replace(state, shown=state.shown - 1)
    if state.shown == 0 and section.items:
        # Not even one whole item fits its cap: show the first one shortened.
        head = len(_render(section, 0, None)) + 1  # the mark, and a newline
        state = _State(section, 1, max(cap - head, 8))
    return state


def _join(states: Sequence[_State]) -> str:
    return GAP.join(_render(s.section, s.shown, s.item_limit) for s in states)


def fit(sections: Sequence[Section], budget: int) -> tuple[list[Fitted], str]:
    """The sections as shown within ``budget`` characters, and the whole text.

    The last section is the lowest priority: it gives up items first, then is
    left out whole (named in a last line) before a higher one loses anything
    more. The first section is never left out; if it alone is over the
    budget it is shortened.
    """
    states = [_capped(s, budget) for s in sections if s.items or s.empty is not None]
    dropped: list[Section] = []

    def text() -> str:
        body = _join(states)
        if dropped:
            names = ", ".join(s.title.rstrip(":").lower() for s in dropped)
            body += GAP + f"{ELLIPSIS} left out for the budget: {names}"
        return body

    while len(text()) > budget:
        last = states[-1] if states else None
        if last is None:
            break
        if len(states) > 1 and last.shown == 0:
            dropped.insert(0, states.pop().section)
        elif last.shown > (0 if len(states) > 1 else 1):
            states[-1] = replace(last, shown=last.shown - 1)
        else:
            break
    whole = text()
    if len(whole) > budget:
        whole = shorten(whole, budget)
    fitted = [
        Fitted(
            s.section.name,
            s.section.title,
            _render(s.section, s.shown, s.item_limit),
            s.shown,
            len(s.section.items),
        )
        for s in states
    ]
    fitted += [Fitted(s.name, s.title, "", 0, len(s.items)) for s in dropped]
    return fitted, whole
