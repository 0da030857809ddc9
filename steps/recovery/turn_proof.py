"""A step back past your checkpoint that the agent hooks' turn records prove —
read-only.

You took a checkpoint (your word for "safe from here") without noticing that an
earlier agent turn had already drifted a file: the checkpoint holds that drift as
it is now, so restoring from it leaves the drift in place. Judged by content alone,
going back past your checkpoint could undo your own edits (a test you wrote first,
a fix between two turns); it is never done that way. The turn records can prove
more: each turn has a checkpoint at its start and at its end, and what changed
between one turn's end and the next one's start, or after the last one ended, was
not the agent.

The start checkpoint of a recorded turn, taken before your checkpoint, is a safe
point for every drift candidate when, from it to now:

* every stretch is known (each turn ended, with both its checkpoints; no two
  turns at once) — ``evidence_yours.stretches``;
* each turn ended because the agent said so (``turn_end``): a turn closed by the
  next prompt or the session's end was interrupted (an interrupt sends no hook),
  and its "end" holds whatever you fixed by hand before typing again;
* every drift candidate a turn changed is one its tools reported writing: a file
  that changed during a turn without a tool naming it may be your hand edit
  made while the agent worked (or a `vibflow agent run`, whose tools report
  nothing) — never proved;
* no drift candidate changed between turns, nor after the last turn ended: every
  change since was the agent's, in a turn;
* no commit was made since it (taken on the current HEAD): the drift is measured
  against the last commit, and a version from before a commit is not "before the
  drift";
* it left none of them out (a likely secret, a file too large), nor did a later
  turn's checkpoints;
* a rename among the drift candidates is one change, both its names judged: the
  partial restore puts both back together.

The newest such checkpoint from which every drift candidate your checkpoint holds
had changed since is the one chosen. A restore from it puts back only what the
agent's turns changed in those files; your edits elsewhere are the in-scope work
the partial restore keeps. When anything is unknown, nothing is proved and your
checkpoint stands (with the earlier-checkpoint hint, ``checkpoint_base.earlier_sources``).
What stays out of reach: your hand edit, during a turn, to a file the agent's
tools also wrote in that turn.

Cost: paid only when your checkpoint holds drift and turn records exist — one
``git diff-tree --stdin`` for the recent stretches, and the ``ls-tree`` of the
drift candidates written since the last turn ended.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

from vibflow.steps.checkpoints.models import CheckpointMeta
from vibflow.steps.recovery.checkpoint_base import HeldJudge
from vibflow.steps.recovery.evidence_yours import Turns, after_last_turn, diff_all, stretches
from vibflow.steps.recovery.models import ChangedFile
from vibflow.steps.recovery.options import epoch
from vibflow.steps.workspace.git import Git


def before_the_turns(
    root: Path,
    git: Git,
    read: Turns,
    yours: CheckpointMeta,
    drift: Sequence[ChangedFile],
    held: Collection[str],
    head: str | None,
    mtimes: Mapping[str, float],
    judge: HeldJudge | None = None,
) -> CheckpointMeta | None:
    """The start checkpoint of the newest recorded turn, taken before ``yours``, from
    which every change to the ``drift`` candidates was made in the agent's turns and
    each of ``held`` (drift ``yours`` holds as it is now) has changed since; None when
    the records do not prove one (see the module docstring)."""
    if not held:
        return None
    spans = stretches(read.recorded, read.checkpoints)
    made = epoch(yours.created_at)
    if not spans or made is None:
        return None
    paths = {p for c in drift for p in (c.path, c.old_path) if p}
    by_id = {m.checkpoint_id: m for m in read.checkpoints}
    last = max(read.recorded, key=lambda t: t.ended_at or "")
    end = by_id.get(last.end or "")
    if end is None or _leaves_out(end, paths):
        return None
    after = after_last_turn(root, git, end, list(drift), mtimes, judge, every=True)
    if after is None or after & paths:
        return None  # unknown, or changed after the agent's last turn ended
    known = [s for s in spans if s.pair is not None]
    diffs = diff_all(git, [s.pair for s in known if s.pair is not None])
    if diffs is None:
        return None
    names = {id(s): d for s, d in zip(known, diffs, strict=True)}
    since: set[str] = set()  # what the agent's turns changed, from the newest back
    for span in reversed(spans):
        found = names.get(id(span))
        if found is None:
            return None  # a stretch nobody can vouch for: older ones prove nothing
        if not span.agent:
            if found & paths:
                return None  # changed between turns: not the agent's alone
            continue
        if span.turn.ended_by != "turn_end" or not (found & paths) <= set(span.turn.reported):
            return None  # interrupted, or a drift file no tool of the turn wrote
        since |= found
        start = by_id.get(span.turn.start or "")
        when = _sound(start, by_id.get(span.turn.end or ""), head, paths)
        if start is None or when is None:
            return None
        if when < made and set(held) <= since:
            return start
    return None


def _sound(
    start: CheckpointMeta | None,
    end: CheckpointMeta | None,
    head: str | None,
    paths: Collection[str],
) -> float | None:
    """When a turn's start checkpoint was taken, if both its checkpoints can vouch
    for ``paths`` (complete, on the current HEAD, none of them left out); else None."""
    if start is None or end is None or not start.metadata_complete or start.base_head != head:
        return None
    if _leaves_out(start, paths) or _leaves_out(end, paths):
        return None
    return epoch(start.created_at)


def _leaves_out(meta: CheckpointMeta, paths: Collection[str]) -> bool:
    return any(s.path in paths for s in meta.skipped)
