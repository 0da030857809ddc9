"""What ``checkpoint`` commands show: metadata and diffs through the redaction contract.

A checkpoint message is user text (an agent's, often) and file names can be
secret-shaped (``ghp_….txt``), so both pass the one redaction contract
(:mod:`vibflow.steps.redaction.contract`) before they are stored or printed,
exactly as the recover payload does. Messages are redacted when a checkpoint
is created *and* when it is shown: checkpoints made before messages were
redacted still hold the raw text. Ids, commits and counts are vibflow's own
and are left as they are (a 40-hex commit id would otherwise read as a
secret).

Files a checkpoint left out are listed with the reason in words, never with
their content.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from vibflow.steps.checkpoints.models import CheckpointMeta, FileChange, Skipped

MESSAGE_MAX = 500  # characters of a message kept (the contract summarizes the rest)


def redact_message(message: str, root: Path) -> str:
    """``message`` as it may be stored: secrets and private details masked."""
    if not message:
        return ""
    from vibflow.steps.redaction.contract import redact_text

    return str(redact_text(message, root=root, max_chars=MESSAGE_MAX).value)


def shown_metas(metas: Sequence[CheckpointMeta], root: Path) -> list[dict[str, Any]]:
    """Each checkpoint's metadata as shown to the user (``--json`` and text alike):
    the message and the left-out paths redacted."""
    user_text = [{"message": m.message, "skipped": [s.path for s in m.skipped]} for m in metas]
    redacted = _redacted(user_text, root)
    out: list[dict[str, Any]] = []
    for meta, safe in zip(metas, redacted, strict=True):
        data = meta.model_dump(mode="json")
        data["message"] = safe["message"]
        data["skipped"] = [
            {**s.model_dump(mode="json"), "path": path}
            for s, path in zip(meta.skipped, safe["skipped"], strict=True)
        ]
        out.append(data)
    return out


def shown_diff(a: str, b: str | None, changes: Sequence[FileChange], root: Path) -> dict[str, Any]:
    """A diff as shown to the user, paths redacted like the recover payload's."""
    changed = [c.model_dump(mode="json") for c in changes]
    safe = _redacted(changed, root) if changed else []
    return {"from": a, "to": b or "working_tree", "changes": safe}


def left_out_summary(skipped: Sequence[Skipped]) -> str:
    """``2 left out: 1 likely secret, 1 too large`` (empty when nothing was)."""
    if not skipped:
        return ""
    kinds: dict[str, int] = {}
    for s in skipped:
        label = "likely secret" if s.secret else s.reason.replace("_", " ")
        kinds[label] = kinds.get(label, 0) + 1
    parts = ", ".join(f"{n} {label}" for label, n in sorted(kinds.items()))
    return f"{len(skipped)} left out: {parts}"


def _redacted(data: Any, root: Path) -> Any:
    from vibflow.steps.redaction.contract import redact_payload

    return redact_payload(data, root=root).value
