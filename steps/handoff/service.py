"""Assemble a handoff: gather the facts, redact every line, fit the budget,
record that a handoff was written (and whether it had a next action), and
report the counts for the audit.

The one entry point for the CLI (``vibflow handoff``) and the MCP server
(``handoff_export``): both get the same redacted document.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from vibflow.engine.clock import Clock, stamp
from vibflow.engine.controls import visible
from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.steps.handoff.budget import GAP, Fitted, Section, fit
from vibflow.steps.handoff.heading import preamble
from vibflow.steps.handoff.ledger import HandoffLedger
from vibflow.steps.handoff.sections import (
    STALE_LABEL,
    Audience,
    HandoffFacts,
    OpenRun,
    RecapLine,
    TurnLine,
    sections,
)
from vibflow.steps.memory.service import MemoryView

#: Default budgets in characters (seed 004 §4 sizes, scaled to what memory holds).
DEFAULT_BUDGET: Mapping[Audience, int] = {"human": 6000, "agent": 12000}
MIN_BUDGET = 200
MAX_BUDGET = 1_000_000

#: Many texts through the redaction contract at once: (redacted texts, counts).
RedactMany = Callable[[list[str]], tuple[list[str], Mapping[str, int]]]


class TurnFacts(Protocol):
    """Recent agent turns (the agent hooks' records): the seam they plug in."""

    def recent_turns(self, limit: int) -> Sequence[TurnLine]: ...


@dataclass(frozen=True)
class Handoff:
    audience: Audience
    budget: int
    generated_at: str
    text: str
    sections: list[Fitted]
    intent_stale: bool
    next_action: bool
    redaction: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "handoff",
            "schema_version": 1,
            "for": self.audience,
            "budget": self.budget,
            "total_chars": len(self.text),
            "generated_at": self.generated_at,
            "intent_stale": self.intent_stale,
            "next_action_confirmed": self.next_action,
            "sections": [
                {
                    "name": s.name,
                    "title": s.title.rstrip(":"),
                    "text": s.text,
                    "items_shown": s.shown,
                    "items_total": s.total,
                    "truncated": s.truncated,
                }
                for s in self.sections
            ],
            "text": self.text,
            "redaction": self.redaction,
        }


def check_budget(budget: int) -> int:
    if not MIN_BUDGET <= budget <= MAX_BUDGET:
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"a handoff budget is {MIN_BUDGET} to {MAX_BUDGET:,} characters, not {budget}",
        )
    return budget


def _redact_sections(
    secs: list[Section], redact: RedactMany
) -> tuple[list[Section], dict[str, int]]:
    """Every title and item through the redaction contract, in one batch."""
    items = [item for s in secs for item in (s.title, *s.items, s.empty or "")]
    redacted, counts = redact(items)
    # One line each, and no terminal control: a handoff file is read with `cat` too.
    lines = [visible(" ".join(str(r).split())) for r in redacted]
    if len(lines) != len(items):
        raise VibflowError(ErrorCode.INTERNAL, "redaction changed the number of handoff lines")
    out, i = [], 0
    for s in secs:
        n = len(s.items)
        title, body, empty = lines[i], tuple(lines[i + 1 : i + 1 + n]), lines[i + 1 + n]
        i += n + 2
        out.append(
            Section(s.name, title, body, s.share, s.unit, s.more, empty if s.empty else None)
        )
    return out, dict(counts)


class HandoffService:
    def __init__(
        self,
        *,
        memory: Callable[[], MemoryView],
        open_runs: Callable[[], Sequence[OpenRun]],
        last_recap: Callable[[], RecapLine | None],
        redact: RedactMany,
        ledger: HandoffLedger,
        audit: Callable[[Mapping[str, int], bool, bool], None],
        clock: Clock,
        turns: TurnFacts | None = None,
    ) -> None:
        self._memory = memory
        self._open_runs = open_runs
        self._last_recap = last_recap
        self._redact = redact
        self._ledger = ledger
        self._audit = audit
        self._clock = clock
        self._turns = turns

    def facts(self) -> HandoffFacts:
        view = self._memory()
        return HandoffFacts(
            state=view.state,
            freshness=view.freshness,
            open_runs=tuple(self._open_runs()),
            turns=tuple(self._turns.recent_turns(10)) if self._turns else (),
            last_recap=self._last_recap(),
            read_only=view.read_only,
            warnings=(view.warning,) if view.warning else (),
        )

    def assemble(self, audience: Audience, budget: int | None = None) -> Handoff:
        """The handoff for ``audience`` within ``budget`` characters (the
        audience's default when None), redacted, recorded and audited."""
        chars = check_budget(budget if budget is not None else DEFAULT_BUDGET[audience])
        now: datetime = self._clock()
        facts = self.facts()
        secs, counts = _redact_sections(sections(facts, audience), self._redact)
        head = preamble(audience, stamp(now)[:16] + "Z")
        body_budget = chars - len(head) - len(GAP)
        fitted, body = fit(secs, max(body_budget, 0))
        text = head + GAP + body if body else head[:chars]
        has_next = facts.state.next_action is not None
        self._ledger.record(now, next_action=has_next)
        # Read back from the text the reader gets, not from the flag we rendered
        # from: the audit's stale-intent count can then catch a rendering bug.
        labelled = STALE_LABEL in text.split(GAP + "Next action:")[0]
        self._audit(counts, facts.freshness.intent_stale, labelled)
        return Handoff(
            audience=audience,
            budget=chars,
            generated_at=stamp(now),
            text=text,
            sections=fitted,
            intent_stale=facts.freshness.intent_stale,
            next_action=has_next,
            redaction=dict(counts),
        )
