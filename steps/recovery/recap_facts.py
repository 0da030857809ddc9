"""What a recover run's recap says about it, from the result it ended with.

The engine writes every run's recap and knows only the flow; this module turns
the recover flow's result (the choice, what was restored or skipped and why,
the safety checkpoint, how to undo) into the facts the engine adds to it
(``context.public.recap``: headline, bullets, next actions, artifacts).
Pure: it reads nothing and writes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

#: Files named in a recap's artifacts; the rest are counted in a bullet.
FILES_SHOWN = 20
SKIPS_SHOWN = 3


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def recap_facts(
    result: Mapping[str, Any],
    *,
    source: str | None,
    restored: Sequence[str],
    total: int | None = None,
) -> dict[str, Any]:
    """``result`` is the result step's output; ``source`` the checkpoint (or commit)
    restored from; ``restored`` the paths the user confirmed (or a sample of them,
    with ``total`` their number)."""
    label = str(result.get("label") or "")
    modified = int(result.get("files_modified") or 0)
    skipped = list(result.get("skipped") or [])
    sandwich = result.get("sandwich_checkpoint_id")
    if not result.get("label"):
        return {
            "headline": "recover ended without a choice; no files were changed",
            "bullets": ["No option was chosen; the working tree was left as it was."],
        }
    bullets = [f"You chose: {label}"]
    artifacts: list[dict[str, str]] = []
    actions: list[str] = []
    if result.get("cancelled"):
        headline = "recover was cancelled before confirming; no files were changed"
        bullets.append("Not confirmed: no files were changed.")
    elif result.get("aborted"):
        headline = f"recover stopped after changing {_plural(modified, 'file')}"
        bullets.append(f"Stopped: {result['aborted']}; {_plural(modified, 'file')} changed first.")
    elif sandwich:
        headline = f"recover restored {_plural(modified, 'file')} from {source}"
        confirmed = total if total is not None else len(restored)
        same = max(confirmed - modified - len(skipped), 0)
        line = f"Restored {modified} of the {confirmed} confirmed file(s) to match {source}"
        if same:
            line += f"; {same} already matched it"
        bullets.append(line + ".")
    else:
        review = int(result.get("review_total") or 0)
        headline = f"recover: {label.split(' — ', maxsplit=1)[0].lower()}; no files were changed"
        bullets.append(f"No files were changed; {_plural(review, 'file')} to review.")
    if skipped:
        shown = "; ".join(f"{s.get('path')} ({s.get('why')})" for s in skipped[:SKIPS_SHOWN])
        more = f" and {len(skipped) - SKIPS_SHOWN} more" if len(skipped) > SKIPS_SHOWN else ""
        bullets.append(f"Skipped {len(skipped)}: {shown}{more}.")
    if sandwich:
        bullets.append(f"Safety checkpoint {sandwich} holds the tree from before the restore.")
        artifacts.append({"kind": "checkpoint", "ref": str(sandwich)})
    if source and sandwich:
        artifacts.append({"kind": "checkpoint", "ref": str(source)})
    if result.get("undo_command"):
        actions.append(str(result["undo_command"]))
    actions += [str(c) for c in result.get("verify_next") or []]
    if sandwich and not result.get("cancelled") and not result.get("aborted"):
        artifacts += [{"kind": "file", "ref": p} for p in list(restored)[:FILES_SHOWN]]
        count = total if total is not None else len(restored)
        listed = min(len(restored), FILES_SHOWN)
        if count > listed:
            bullets.append(f"{count - listed} more restored file(s) not listed.")
    return {
        "headline": headline,
        "bullets": bullets,
        "next_actions": actions,
        "artifacts": artifacts,
    }
