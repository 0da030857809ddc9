"""The project recap (seed 004 §6, DESIGN §3.4): pure, from facts gathered by
the caller. What a user reads the next morning: the intent and whether it is
stale, the next action, what happened since the last recap (runs and their
outcomes, agent turns and the files they touched, commits, checkpoints), what
waits and the command for each, stale checks, the nudges that fire now.

Memory text is quoted as data (P0 gate 2): a stale check is named, never
offered as a command to paste; the next actions are vibflow's own commands.
A stale intent is labelled stale (P0 gate 5).

The facts are named tuples, not dataclasses: every ``vibflow recap`` is a fresh
process that builds these classes once, and a dataclass costs about a
millisecond to build where a named tuple costs a fraction of one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from vibflow.engine.recap import Artifact, OpenRun, Recap, ResumeHint, clip, new_recap_id

MAX_BULLETS = 7


class IntentFact(NamedTuple):
    text: str
    stale: bool
    reasons: tuple[str, ...] = ()
    proposed: bool = False


class FinishedRun(NamedTuple):
    run_id: str
    flow: str
    status: str
    #: The run's own recap headline ("restored 3 of 4 files …"), if it has one.
    outcome: str | None = None
    #: How many times it was interrupted (a crash) and resumed from the journal.
    interruptions: int = 0


class TurnFact(NamedTuple):
    """One agent turn (from the agent hooks' records)."""

    session: str
    turn: int
    agent: str
    files: tuple[str, ...]


class ProjectFacts(NamedTuple):
    generated_at: str
    #: The last project recap's time: this recap covers what came after it.
    since: str | None
    intent: IntentFact | None
    next_action: str | None
    open_runs: Sequence[OpenRun] = ()
    finished: Sequence[FinishedRun] = ()
    commits: Sequence[tuple[str, str]] = ()  # (short sha, subject)
    checkpoints: Sequence[tuple[str, str]] = ()  # (checkpoint id, reason)
    turns: Sequence[TurnFact] = ()
    stale_checks: Sequence[str] = ()
    nudges: Sequence[str] = ()
    extra: Sequence[str] = ()


def _quote(text: str, limit: int = 90) -> str:
    return "“" + clip(text, limit) + "”"


def _some(items: Sequence[str], limit: int = 3) -> str:
    shown = "; ".join(items[:limit])
    return shown + (f"; and {len(items) - limit} more" if len(items) > limit else "")


def _intent_line(f: ProjectFacts) -> str:
    if f.intent is None:
        return "No intent recorded (the user sets one: `vibflow memory intent TEXT`)."
    if f.intent.stale:
        why = "; ".join(f.intent.reasons) or "marked stale"
        return f"Intent {_quote(f.intent.text)} is STALE ({why})."
    if f.intent.proposed:
        return f"Intent {_quote(f.intent.text)} was proposed, not confirmed by you."
    return f"Intent: {_quote(f.intent.text)} (current)."


def _since_line(f: ProjectFacts) -> str | None:
    parts: list[str] = []
    if f.finished:
        outcomes = [
            f"{r.flow} {r.status}"
            + (f" — {clip(r.outcome, 70)}" if r.outcome else "")
            + (f" (interrupted {r.interruptions} time(s), resumed)" if r.interruptions else "")
            for r in f.finished
        ]
        parts.append(f"{len(f.finished)} run(s) ended: {_some(outcomes, 2)}")
    if f.checkpoints:
        parts.append(f"{len(f.checkpoints)} checkpoint(s)")
    if not parts:
        return None
    start = f"Since {f.since[:16]}Z" if f.since else "So far"
    return f"{start}: " + "; ".join(parts) + "."


def _turns_line(f: ProjectFacts) -> str | None:
    if not f.turns:
        return None
    files = list(dict.fromkeys(p for t in f.turns for p in t.files))
    agents = ", ".join(sorted({t.agent for t in f.turns}))
    return (
        f"{len(f.turns)} agent turn(s) ({agents}) touched {len(files)} file(s)"
        + (f": {_some(files, 4)}" if files else "")
        + "."
    )


def _commits_line(f: ProjectFacts) -> str | None:
    if not f.commits:
        return None
    shown = [f"{sha} {_quote(subject, 50)}" for sha, subject in f.commits]
    return f"{len(f.commits)} commit(s): {_some(shown, 2)}."


def _open_line(f: ProjectFacts) -> str:
    if not f.open_runs:
        return "Nothing is waiting or interrupted."
    shown = [f"{r.flow} {r.run_id} {r.status} at '{r.state}'" for r in f.open_runs]
    return f"{len(f.open_runs)} run(s) open: {_some(shown, 2)} — commands below."


def project_recap(f: ProjectFacts, *, reason: str) -> Recap:
    """The project recap for ``f`` (3 to 7 bullets, at most 3 next actions)."""
    next_line = (
        f"Next action: {_quote(f.next_action)}."
        if f.next_action
        else "No next action recorded (the user records one: `vibflow memory next TEXT`)."
    )
    optional = [
        _since_line(f),
        _turns_line(f),
        _commits_line(f),
        (
            "Stale check(s), rerun before trusting them: "
            + _some([_quote(c, 40) for c in f.stale_checks])
            + "."
            if f.stale_checks
            else None
        ),
        *(clip(n, 200) for n in f.nudges[:2]),
        *f.extra,
    ]
    bullets = [_intent_line(f), next_line, _open_line(f)]
    bullets += [b for b in optional if b][: MAX_BULLETS - len(bullets)]
    actions = [r.resume_command for r in f.open_runs][:2]
    stale = bool(f.stale_checks) or bool(f.intent and f.intent.stale) or f.next_action is None
    if stale and len(actions) < 3:
        actions.append("vibflow memory review")
    if f.open_runs:
        first = f.open_runs[0]
        headline = (
            f"{len(f.open_runs)} run(s) open; first: {first.flow} {first.status} at '{first.state}'"
        )
    elif f.finished:
        headline = f"{len(f.finished)} run(s) ended since the last recap; nothing waits"
    else:
        headline = "Nothing waits; memory and the tree as below"
    if f.intent is not None and f.intent.stale:
        headline = clip("Intent is stale; " + headline[0].lower() + headline[1:])
    artifacts = [
        *(Artifact(kind="run", ref=r.run_id) for r in f.open_runs),
        *(Artifact(kind="run", ref=r.run_id) for r in f.finished),
        *(Artifact(kind="checkpoint", ref=c) for c, _ in f.checkpoints),
        *(Artifact(kind="commit", ref=sha) for sha, _ in f.commits),
        *(Artifact(kind="turn", ref=f"{t.session}#{t.turn}") for t in f.turns),
        *(Artifact(kind="file", ref=p) for p in dict.fromkeys(p for t in f.turns for p in t.files)),
    ]
    rid = new_recap_id()
    hint = (
        ResumeHint(
            run_id=f.open_runs[0].run_id,
            state=f.open_runs[0].state,
            command=f"vibflow resume --from-recap {rid}",
        )
        if f.open_runs
        else None
    )
    return Recap(
        id=rid,
        kind="project",
        subject_id="project",
        generated_at=f.generated_at,
        reason=reason,
        headline=clip(headline),
        bullets=bullets,
        next_actions=actions[:3],
        artifacts=artifacts[:200],
        resume_hint=hint,
        open_runs=list(f.open_runs),
        since=f.since,
    )
