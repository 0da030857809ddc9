"""What a memory review proposes (spec §9, §11; DESIGN §4.5): pure, from the
memory state and its freshness.

Each proposal is one change the user can accept, edit, dismiss or snooze:

* ``contradiction`` — two recorded decisions contradict: which one stands?
* ``confirm_intent`` — the active intent was proposed (imported or observed),
  not said by the user;
* ``next_action`` — no next action is recorded;
* ``stale_verification`` — a check whose files changed since it ran: drop it
  (rerunning is the user's to do; memory text is never run);
* ``explicit_file`` — a file memory only observed (agent turns, commits) that
  could become an explicit relevant file;
* ``archive_decision`` — a decision older than the archive age.

A proposal's ``key`` names its kind and target only (ids, paths digested), so
a dismissal or snooze can be remembered outside memory without its text.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from vibflow.engine.clock import parse_stamp
from vibflow.steps.memory.contradiction import pairs
from vibflow.steps.memory.freshness import Freshness
from vibflow.steps.memory.models import MemoryState

Kind = Literal[
    "contradiction",
    "confirm_intent",
    "next_action",
    "stale_verification",
    "explicit_file",
    "archive_decision",
]
KINDS: tuple[Kind, ...] = (
    "contradiction",
    "confirm_intent",
    "next_action",
    "stale_verification",
    "explicit_file",
    "archive_decision",
)
#: Which kinds take a text when edited (the others are yes/no).
EDITABLE: frozenset[str] = frozenset({"confirm_intent", "next_action", "explicit_file"})
MAX_PROPOSALS = 50
ARCHIVE_AFTER_DAYS = 90
OBSERVED_EVENTS = 200


@dataclass(frozen=True)
class Proposal:
    key: str
    kind: Kind
    title: str
    why: str
    target: str
    other: str | None = None
    text: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Proposal:
        return cls(**{k: raw.get(k) for k in cls.__dataclass_fields__})  # type: ignore[arg-type]


def proposal_key(kind: str, *targets: str) -> str:
    digest = hashlib.sha256("\0".join((kind, *targets)).encode("utf-8")).hexdigest()
    return f"{kind}:{digest[:16]}"


def _quote(text: str, limit: int = 120) -> str:
    one = " ".join(text.split())
    return "“" + (one if len(one) <= limit else one[: limit - 1] + "…") + "”"


def _contradictions(state: MemoryState) -> list[Proposal]:
    decisions = [(d.id, d.text) for d in state.decisions]
    texts = dict(decisions)
    out = []
    for older, newer, why in pairs(decisions):
        out.append(
            Proposal(
                proposal_key("contradiction", older, newer),
                "contradiction",
                f"{_quote(texts[older])} and {_quote(texts[newer])} contradict: which one stands?",
                why.reason + f"; accept keeps the newer ({newer}) and archives {older}, "
                "or pick with keep=ID",
                target=older,
                other=newer,
            )
        )
    return out


def _intent(state: MemoryState) -> list[Proposal]:
    intent = state.active_intent
    if intent is None or not intent.proposed:
        return []
    return [
        Proposal(
            proposal_key("confirm_intent", intent.text),
            "confirm_intent",
            f"Confirm the proposed intent {_quote(intent.text)}",
            f"it was proposed by {intent.updated_by}, not set by you",
            target="active_intent",
            text=intent.text,
        )
    ]


def _next(state: MemoryState) -> list[Proposal]:
    if state.next_action is not None:
        return []
    return [
        Proposal(
            proposal_key("next_action", "next_action"),
            "next_action",
            "Record the next action",
            "there is none, so the next session (or a handoff) starts without one",
            target="next_action",
        )
    ]


def _verification(state: MemoryState, fresh: Freshness) -> list[Proposal]:
    stale = {v.id: v.reason for v in fresh.verification if v.stale}
    out = []
    for v in state.verification:
        if v.id in stale:
            out.append(
                Proposal(
                    proposal_key("stale_verification", v.id),
                    "stale_verification",
                    f"Drop the stale check {_quote(v.command)} ({v.result})",
                    f"{stale[v.id] or 'it is stale'}; rerun it yourself and record it with "
                    "`vibflow memory verify`, or accept to drop it",
                    target=v.id,
                )
            )
    return out


def observed_paths(state: MemoryState) -> list[str]:
    """Files memory observed (observed relevant files, then touched files, newest
    first) that are not explicit yet; each once."""
    explicit = {f.path for f in state.relevant_files if f.source == "explicit"}
    seen: list[str] = []
    for f in state.relevant_files:
        if f.source == "observed" and f.path not in explicit and f.path not in seen:
            seen.append(f.path)
    for event in reversed(state.observed_context[-OBSERVED_EVENTS:]):
        if event.kind not in ("touched_files", "patch_apply"):
            continue
        paths = event.detail.get("paths")
        for p in paths if isinstance(paths, list) else []:
            if isinstance(p, str) and p not in explicit and p not in seen:
                seen.append(p)
    return seen


def _files(state: MemoryState) -> list[Proposal]:
    return [
        Proposal(
            proposal_key("explicit_file", path),
            "explicit_file",
            f"Make {path} an explicit relevant file",
            "memory only observed it (an agent or a commit touched it)",
            target=path,
        )
        for path in observed_paths(state)
    ]


def _old_decisions(state: MemoryState, now: datetime, days: int) -> list[Proposal]:
    limit = now - timedelta(days=days)
    out = []
    for d in state.decisions:
        made = parse_stamp(d.created_at)
        if made is not None and made < limit:
            out.append(
                Proposal(
                    proposal_key("archive_decision", d.id),
                    "archive_decision",
                    f"Archive the decision {_quote(d.text)}",
                    f"it is older than {days} days ({d.created_at[:10]}); "
                    "archived decisions are kept, not active",
                    target=d.id,
                )
            )
    return out


def gather(
    state: MemoryState,
    fresh: Freshness,
    now: datetime,
    *,
    skip: Sequence[str] = (),
    archive_days: int = ARCHIVE_AFTER_DAYS,
) -> list[Proposal]:
    """Every proposal, in a fixed order (contradictions first), without the
    ``skip`` keys (dismissed or snoozed), at most :data:`MAX_PROPOSALS`."""
    found = [
        *_contradictions(state),
        *_intent(state),
        *_next(state),
        *_verification(state, fresh),
        *_files(state),
        *_old_decisions(state, now, archive_days),
    ]
    skipped = set(skip)
    return [p for p in found if p.key not in skipped][:MAX_PROPOSALS]
