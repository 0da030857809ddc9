"""How a checkpoint is read back from its ref: the ``for-each-ref`` format
the store lists checkpoints with, and the parse of one record (the metadata
vibflow wrote into the commit message, or — for a ref someone else wrote or
a damaged message — a placeholder marked incomplete, shown but never trusted)."""

from __future__ import annotations

import json
import re

from vibflow.steps.checkpoints.models import META_MARKER, CheckpointMeta

CHECKPOINT_ID = re.compile(r"ckpt_[0-9a-f]{32}")
REF_FORMAT = "%(refname:lstrip=3)%00%(objectname)%00%(committerdate:iso-strict)%00%(contents:body)"


def parse_record(record: bytes) -> CheckpointMeta:
    """One ``for-each-ref`` record (:data:`REF_FORMAT`) as the checkpoint it names."""
    cid, commit, when, body = (p.decode("utf-8", "replace").strip() for p in record.split(b"\0", 3))
    try:
        data = json.loads(body)[META_MARKER]
        return CheckpointMeta.model_validate({**data, "commit": commit})
    except (ValueError, KeyError, TypeError):
        # A ref someone else wrote, or a damaged message: show it, never trust it.
        return CheckpointMeta(
            checkpoint_id=cid if cid.startswith("ckpt_") and len(cid) == 37 else "ckpt_" + "0" * 32,
            created_at=when,
            commit=commit,
            metadata_complete=False,
        )
