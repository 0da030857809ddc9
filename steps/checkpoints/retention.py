"""Which checkpoints retention removes (pure).

Kept: the newest ``keep_last``, everything younger than ``keep_days``, and
the sandwich checkpoints of the last ``protect_sandwiches`` applies. Nothing
else is kept, so the store stays bounded however often checkpoints are made.

Turn checkpoints (``reason: agent_turn``, one or two per agent turn) have their
own rule when the agent records are at hand (``pinned``: the checkpoints the
turns kept by the ``agents.turns`` policy name): they are kept exactly while
pinned, and never count against ``keep_last`` — a busy agent session must not
push the user's own checkpoints out. Any checkpoint a kept turn names is kept,
whatever its reason (a turn may reuse a manual checkpoint when nothing changed).
A turn checkpoint younger than :data:`TURN_GRACE` is kept too: the hook takes
it before it records the turn that names it (and prunes right after taking it).
Without the records (``pinned`` is ``None``) turn checkpoints follow the
general rule, which is bounded too.

Typed by what it reads (:class:`Dated`, :class:`Limits`) rather than by the
pydantic models, so the agent hook's lean checkpoint path (:mod:`.quick`)
prunes with this same rule over plain records.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Dated(Protocol):
    """What retention reads of a checkpoint (:class:`~.models.CheckpointMeta` has it)."""

    @property
    def checkpoint_id(self) -> str: ...
    @property
    def created_at(self) -> str: ...
    @property
    def reason(self) -> str: ...


class Limits(Protocol):
    """What retention reads of the policy (:class:`~.models.CheckpointPolicy` has it)."""

    @property
    def keep_last(self) -> int: ...
    @property
    def keep_days(self) -> int: ...
    @property
    def protect_sandwiches(self) -> int: ...


def _when(meta: Dated) -> datetime:
    try:
        parsed = datetime.fromisoformat(meta.created_at.replace("Z", "+00:00"))
    except ValueError:
        return datetime.min.replace(tzinfo=UTC)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


#: How long a new turn checkpoint is kept before its turn must pin it.
TURN_GRACE = timedelta(minutes=10)


def to_prune(
    metas: Sequence[Dated],
    policy: Limits,
    *,
    now: datetime,
    pinned: set[str] | None = None,
) -> list[str]:
    if pinned is not None:
        turns = [m for m in metas if m.reason == "agent_turn"]
        others = [m for m in metas if m.reason != "agent_turn"]
        doomed = [cid for cid in to_prune(others, policy, now=now) if cid not in pinned]
        young = now - TURN_GRACE
        return doomed + [
            m.checkpoint_id for m in turns if m.checkpoint_id not in pinned and _when(m) < young
        ]
    newest_first = sorted(metas, key=_when, reverse=True)
    keep = {m.checkpoint_id for m in newest_first[: policy.keep_last]}
    cutoff = now - timedelta(days=policy.keep_days)
    keep |= {m.checkpoint_id for m in newest_first if _when(m) >= cutoff}
    sandwiches = [m for m in newest_first if m.reason == "sandwich"]
    keep |= {m.checkpoint_id for m in sandwiches[: policy.protect_sandwiches]}
    return [m.checkpoint_id for m in newest_first if m.checkpoint_id not in keep]
