"""The handoff's sections, in their fixed order, from memory and the journal
(spec §9, seed 004 §4). Pure: facts in, :class:`Section` lists out.

Memory text is shown as quoted data, never as something to do (P0 gate 2):
an intent or decision is a line of text someone recorded, labelled with who
and when. Stale things say they are stale (P0 gate 5): a stale intent, a stale
or scope-unknown verification are labelled as such in every audience.
Explicit relevant files are the handoff's truth; observed ones are context and
labelled so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from vibflow.steps.handoff.budget import Section
from vibflow.steps.memory.freshness import Freshness
from vibflow.steps.memory.models import MemoryState

Audience = Literal["agent", "human"]

MEMORY_SHOW = "vibflow memory show"
STALE_LABEL = "[STALE"


@dataclass(frozen=True)
class OpenRun:
    """A run left waiting, blocked or interrupted, and the command that moves it on."""

    run_id: str
    flow: str
    status: str
    state: str
    command: str


@dataclass(frozen=True)
class TurnLine:
    """One recent agent turn: when, which agent, the files its tools reported."""

    at: str
    agent: str
    files: tuple[str, ...]


@dataclass(frozen=True)
class RecapLine:
    """The last recap written: its headline and bullets."""

    generated_at: str
    headline: str
    bullets: tuple[str, ...]


@dataclass(frozen=True)
class HandoffFacts:
    state: MemoryState
    freshness: Freshness
    open_runs: Sequence[OpenRun] = ()
    turns: Sequence[TurnLine] = ()
    last_recap: RecapLine | None = None
    read_only: bool = False
    warnings: tuple[str, ...] = field(default=())


def one_line(text: str) -> str:
    """Collapse whitespace: an item is one line, whatever was recorded."""
    return " ".join(text.split())


def _quoted(text: str) -> str:
    return "“" + one_line(text) + "”"


def _day(stamp: str) -> str:
    return stamp[:10] if len(stamp) >= 10 else stamp


def intent_items(facts: HandoffFacts) -> tuple[str, ...]:
    intent = facts.state.active_intent
    if intent is None:
        return ()
    fresh = facts.freshness
    if fresh.intent_stale:
        label = "STALE — " + ("; ".join(fresh.intent_reasons) or "marked stale")
        # the label is rendered as f"[{label}]", so it starts with STALE_LABEL
    elif intent.proposed:
        label = "proposed, not confirmed"
    else:
        label = "current"
    who = f"set {_day(intent.last_updated)} by {intent.updated_by}"
    return (f"{_quoted(intent.text)} [{label}] ({who})",)


def next_items(facts: HandoffFacts) -> tuple[str, ...]:
    nxt = facts.state.next_action
    if nxt is None:
        return ()
    return (f"{_quoted(nxt.text)} (set {_day(nxt.last_updated)} by {nxt.updated_by})",)


def decision_items(facts: HandoffFacts) -> tuple[str, ...]:
    # Newest first, so a budget cut drops the oldest.
    ordered = sorted(facts.state.decisions, key=lambda d: (d.created_at, d.id), reverse=True)
    return tuple(f"- {_quoted(d.text)} ({_day(d.created_at)}, {d.id})" for d in ordered)


def file_items(facts: HandoffFacts) -> tuple[str, ...]:
    files = facts.state.relevant_files
    explicit = [f for f in files if f.source == "explicit"]
    observed = [f for f in files if f.source == "observed"]
    out = [
        f"- {f.path} [explicit]" + (f" — {_quoted(f.why)}" if f.why.strip() else "")
        for f in explicit
    ]
    out += [f"- {f.path} [observed: context, not confirmed]" for f in observed]
    return tuple(out)


def verification_items(facts: HandoffFacts) -> tuple[str, ...]:
    by_id = {v.id: v for v in facts.freshness.verification}
    out = []
    for v in facts.state.verification:
        fv = by_id.get(v.id)
        if fv is not None and fv.stale:
            label = "STALE — " + (fv.reason or "rerun before trusting it")
        elif v.stale:
            label = "STALE"
        elif fv is not None and fv.unsure:
            label = "UNSURE — " + fv.unsure
        else:
            label = "fresh"
        if (v.scope_unknown or not v.related_files) and "unknown" not in label:
            label += "; scope unknown: the files it covers are not known"
        out.append(f"- {_quoted(v.command)}: {v.result} ({_day(v.timestamp)}) [{label}]")
    return tuple(out)


def risk_items(facts: HandoffFacts) -> tuple[str, ...]:
    return tuple(f"- {_quoted(r.text)} ({r.kind})" for r in facts.state.risks)


def run_items(facts: HandoffFacts) -> tuple[str, ...]:
    return tuple(
        f"- {r.flow} run {r.run_id} is {r.status} at '{r.state}' → {r.command}"
        for r in facts.open_runs
    )


def turn_items(facts: HandoffFacts) -> tuple[str, ...]:
    out = []
    for t in facts.turns:
        shown = ", ".join(t.files[:5]) + (
            f" and {len(t.files) - 5} more" if len(t.files) > 5 else ""
        )
        out.append(f"- {t.at} {t.agent}: {len(t.files)} file(s)" + (f" ({shown})" if shown else ""))
    return tuple(out)


def recap_items(facts: HandoffFacts) -> tuple[str, ...]:
    recap = facts.last_recap
    if recap is None:
        return ()
    head = f"{one_line(recap.headline)} ({recap.generated_at})"
    return (head, *(f"- {one_line(b)}" for b in recap.bullets))


def sections(facts: HandoffFacts, audience: Audience) -> list[Section]:
    """Every section in the fixed order; the last ones give way first to the budget."""
    agent = audience == "agent"
    return [
        Section(
            "intent",
            "Intent:",
            intent_items(facts),
            0.15,
            "intent",
            MEMORY_SHOW,
            empty="(none recorded — the user sets it: `vibflow memory intent TEXT`)",
        ),
        Section(
            "next_action",
            "Next action:",
            next_items(facts),
            0.10,
            "actions",
            MEMORY_SHOW,
            empty="(none confirmed — the user records it: `vibflow memory next TEXT`)",
        ),
        Section("decisions", "Decisions:", decision_items(facts), 0.30, "decisions", MEMORY_SHOW),
        Section("relevant_files", "Relevant files:", file_items(facts), 0.25, "files", MEMORY_SHOW),
        Section(
            "verification",
            "Verification:",
            verification_items(facts),
            0.15,
            "checks",
            MEMORY_SHOW,
        ),
        Section("risks", "Risks:", risk_items(facts), 0.10, "risks", MEMORY_SHOW),
        Section("open_runs", "Open runs:", run_items(facts), 0.15, "runs", "vibflow runs list"),
        Section(
            "agent_turns",
            "Recent agent turns:",
            turn_items(facts),
            0.15 if agent else 0.10,
            "turns",
            "vibflow rewind",
        ),
        Section("last_recap", "Last recap:", recap_items(facts), 0.10, "lines", "vibflow recap"),
    ]
