"""Which checkpoints retention removes (pure).

Kept: the newest ``keep_last``, everything younger than ``keep_days``, and
the sandwich checkpoints of the last ``protect_sandwiches`` applies. Nothing
else is kept, so the store stays bounded however often checkpoints are made.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from vibflow.steps.checkpoints.models import CheckpointMeta, CheckpointPolicy


def _when(meta: CheckpointMeta) -> datetime:
    try:
        parsed = datetime.fromisoformat(meta.created_at.replace("Z", "+00:00"))
    except ValueError:
        return datetime.min.replace(tzinfo=UTC)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def to_prune(
    metas: Sequence[CheckpointMeta], policy: CheckpointPolicy, *, now: datetime
) -> list[str]:
    newest_first = sorted(metas, key=_when, reverse=True)
    keep = {m.checkpoint_id for m in newest_first[: policy.keep_last]}
    cutoff = now - timedelta(days=policy.keep_days)
    keep |= {m.checkpoint_id for m in newest_first if _when(m) >= cutoff}
    sandwiches = [m for m in newest_first if m.reason == "sandwich"]
    keep |= {m.checkpoint_id for m in sandwiches[: policy.protect_sandwiches]}
    return [m.checkpoint_id for m in newest_first if m.checkpoint_id not in keep]
