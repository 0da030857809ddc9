"""When a new decision may stand beside the recorded ones.

A decision that contradicts a recorded one is not added beside it (spec: memory
must never hold two active answers to one question): the writer says which
stands — ``replaces`` archives the earlier one — or the memory review asks.
The contradiction itself is read by :mod:`.contradiction`; this module says
what the writer is told.
"""

from __future__ import annotations

from collections.abc import Sequence

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.steps.memory.contradiction import clashes
from vibflow.steps.memory.gate import quoted
from vibflow.steps.memory.models import Decision


def refuse_unclear(
    decisions: Sequence[Decision], clean: str, text: str, replaces: str | None
) -> None:
    """Raise unless ``clean`` (the redacted decision; ``text`` as the writer gave it)
    may be recorded: ``replaces`` names an active decision, and no other active one
    contradicts it."""
    if replaces is not None and replaces not in {d.id for d in decisions}:
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"there is no active decision {replaces}",
            hint="`vibflow memory show` lists them.",
        )
    found = [
        c for c in clashes(clean, [(d.id, d.text) for d in decisions]) if c.decision_id != replaces
    ]
    if found:
        first = found[0]
        raise VibflowError(
            ErrorCode.WRITE_CONFLICT,
            f"this decision contradicts {first.decision_id} “{quoted(first.text)}” "
            f"({first.contradiction.reason}); yours: “{quoted(clean)}”",
            hint=(
                f'Say which one stands: `vibflow memory decide "{quoted(text)}" --yes '
                f"--replaces {first.decision_id}` archives the earlier one; "
                "or keep it and drop yours."
            ),
        )
