"""The recap of one agent session (seed 004 §6 "agent task end"): pure, from the
session's recorded turns. Written when the agent's session ends (its hook
calls ``vibflow.recap_wiring.write_session_recap``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from vibflow.engine.recap import Artifact, Recap, clip, new_recap_id
from vibflow.steps.recaps.project import TurnFact


@dataclass(frozen=True)
class SessionFacts:
    agent: str
    session: str
    started: str
    ended: str
    turns: Sequence[TurnFact]
    #: Checkpoints taken at the turns' starts (ids), oldest first.
    checkpoints: Sequence[str] = ()
    #: Files changed in the tree that no tool of the agent reported (shell edits, yours).
    unreported: Sequence[str] = ()


def session_recap(f: SessionFacts, *, generated_at: str) -> Recap:
    files = list(dict.fromkeys(p for t in f.turns for p in t.files))
    shown = "; ".join(files[:4]) + (f"; and {len(files) - 4} more" if len(files) > 4 else "")
    bullets = [
        f"{f.agent} session {f.session}: {len(f.turns)} turn(s) from {f.started[:16]}Z "
        f"to {f.ended[:16]}Z.",
        f"The agent's tools touched {len(files)} file(s)" + (f": {shown}." if files else "."),
        f"{len(f.checkpoints)} checkpoint(s) taken before turns"
        + (f", the first {f.checkpoints[0]}." if f.checkpoints else "."),
    ]
    if f.unreported:
        bullets.append(
            f"{len(f.unreported)} file(s) changed that no tool reported "
            f"(shell edits or yours): {'; '.join(f.unreported[:3])}."
        )
    busiest = max(f.turns, key=lambda t: len(t.files), default=None)
    if busiest is not None and busiest.files:
        bullets.append(f"Turn {busiest.turn} touched the most files ({len(busiest.files)}).")
    actions = ["vibflow rewind"] if f.turns else []
    return Recap(
        id=new_recap_id(),
        kind="session",
        subject_id=f.session,
        generated_at=generated_at,
        reason="agent session ended",
        headline=clip(f"{f.agent} session: {len(f.turns)} turn(s), {len(files)} file(s) touched"),
        bullets=bullets[:7],
        next_actions=actions,
        artifacts=[
            *(Artifact(kind="turn", ref=f"{t.session}#{t.turn}") for t in f.turns),
            *(Artifact(kind="checkpoint", ref=c) for c in f.checkpoints),
            *(Artifact(kind="file", ref=p) for p in files[:100]),
        ],
        since=f.started,
    )
