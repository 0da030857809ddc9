"""Checkpoint retention over plain records, for the agent hook's lean path.

The store prunes after every new checkpoint, reading every checkpoint's
metadata through its pydantic model. The hook's lean path (:mod:`.quick`)
applies the very same rule (:func:`~.retention.to_prune`) to what it reads of
each ref with ``json`` alone: the id, the creation time and the reason vibflow
wrote — or, as the store's ``parse_record`` does for a ref someone else wrote
or a damaged message, a placeholder dated by its commit with the reason
``manual``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import UTC, datetime

from vibflow.steps.checkpoints.retention import Limits, to_prune
from vibflow.steps.workspace.git import Git

REF_PREFIX = "refs/vibflow/checkpoints/"
META_MARKER = "vibflow-checkpoint-v1"
CHECKPOINT_ID = re.compile(r"ckpt_[0-9a-f]{32}")
_FORMAT = "%(refname:lstrip=3)%00%(committerdate:iso-strict)%00%(contents:body)%00%00"


class Dated:
    """What retention reads of one checkpoint (a plain class: the hook imports this,
    and building a dataclass costs about a millisecond)."""

    __slots__ = ("checkpoint_id", "created_at", "reason")

    def __init__(self, checkpoint_id: str, created_at: str, reason: str) -> None:
        self.checkpoint_id = checkpoint_id
        self.created_at = created_at
        self.reason = reason


def listing(git: Git) -> list[Dated]:
    """What retention reads of every checkpoint ref."""
    out = git.run("for-each-ref", f"--format={_FORMAT}", REF_PREFIX)
    return [_dated(r) for r in out.split(b"\0\0\n") if r.strip()]


def doomed(
    metas: list[Dated],
    policy: Limits,
    pins: Callable[[], set[str] | None] | None,
    *,
    now: datetime | None = None,
) -> list[str]:
    """The ids among ``metas`` retention removes (``pins``: the kept turns' checkpoints)."""
    pinned = pins() if pins is not None else None
    return to_prune(metas, policy, now=now or datetime.now(UTC), pinned=pinned)


def to_remove(
    git: Git,
    policy: Limits,
    pins: Callable[[], set[str] | None] | None,
    *,
    now: datetime | None = None,
) -> list[str]:
    """The checkpoint ids retention removes now (nothing is deleted)."""
    return doomed(listing(git), policy, pins, now=now)


def prune(
    git: Git,
    policy: Limits,
    pins: Callable[[], set[str] | None] | None,
    *,
    now: datetime | None = None,
) -> list[str]:
    """Delete the checkpoint refs retention removes; their ids."""
    doomed = to_remove(git, policy, pins, now=now)
    for cid in doomed:
        git.run("update-ref", "-d", REF_PREFIX + cid)
    return doomed


_FIELDS: dict[str, type | tuple[type, ...]] = {
    "checkpoint_id": str,
    "created_at": str,
    "message": str,
    "reason": str,
    "base_head": (str, type(None)),
    "file_count": int,
    "untracked_count": int,
    "skipped": list,
    "unscanned_count": int,
    "metadata_complete": bool,
    "commit": str,
    "tree": str,
    "reused": bool,
}
_REASONS = ("manual", "sandwich", "flow_stage", "agent_turn")


def _dated(record: bytes) -> Dated:
    """What retention reads of one ref, as the store's ``parse_record`` reads it: the
    metadata vibflow wrote, or a placeholder (reason ``manual``, the commit's date)
    for a ref someone else wrote or a damaged message."""
    cid, when, body = (p.decode("utf-8", "replace").strip() for p in record.split(b"\0", 2))
    try:
        data = json.loads(body)[META_MARKER]
        ok = (
            isinstance(data, dict)
            and all(k in _FIELDS and isinstance(v, _FIELDS[k]) for k, v in data.items())
            and CHECKPOINT_ID.fullmatch(data["checkpoint_id"]) is not None
            and isinstance(data["created_at"], str)
            and data.get("reason", "manual") in _REASONS
        )
    except (ValueError, KeyError, TypeError):
        ok = False
    if ok:
        return Dated(data["checkpoint_id"], data["created_at"], data.get("reason", "manual"))
    shaped = cid.startswith("ckpt_") and len(cid) == 37
    return Dated(cid if shaped else "ckpt_" + "0" * 32, when, "manual")
