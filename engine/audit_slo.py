"""The P0 SLOs (spec §10, §15): what a sample is and what an occurrence is, per row.

Each SLO counts over rows that *could have gone wrong*, never over rows that
merely show something ran (the peer's summary passed on "preview ran", a
sample that cannot fail). A row weighs ``(samples, occurrences)`` for each
SLO it concerns:

- ``sandwich_enforcement``: every transition into a state whose step changes
  files (the flows' ``mutates: files`` states, as the registry declares
  them). It is an occurrence when the row carries no sandwich checkpoint id
  (the ``sandwich_present`` guard records it on the way in).
- ``memory_as_instruction``: every ``memory_action_check`` row (a check that
  an action's arguments did not come from memory text); ``failed`` is an
  occurrence. The ``memory_free`` guard writes one before every apply of
  the recover, restore, rewind and undo flows (CLI and MCP alike): an
  argument the plan did not produce that memory's free text contains fails
  it (``steps/recovery/memory_boundary``).
- ``mcp_redaction``: every MCP memory response that answered (``mcp.memory_*``,
  result ``ok``); a ``mcp.rescan`` row with result ``failed`` — the
  after-the-fact re-scan of a random 1 % of responses found what redaction
  missed — is an occurrence.
- ``drift_label``: every label a user judged in ``recover feedback``; a
  judged label that had put an explicitly relevant file among the drift
  candidates is an occurrence.
- ``stale_intent``: every rendering that showed the active intent (handoff,
  recovery); a stale intent the output did not label stale is an occurrence.

The rules read only the count-only row, so compacted rows can be weighed at
rollover time and kept as per-day counts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

SANDWICH = "sandwich_enforcement"
MEMORY_INSTRUCTION = "memory_as_instruction"
MCP_REDACTION = "mcp_redaction"
DRIFT_LABEL = "drift_label"
STALE_INTENT = "stale_intent"

#: (flow, state) → whether that state's step changes files.
FilesStates = Callable[[str, str], bool]


@dataclass(frozen=True)
class Slo:
    slo_id: str
    samples: str  # what one sample is, in plain words
    occurrence: str  # what makes a sample an occurrence


SLOS: tuple[Slo, ...] = (
    Slo(
        SANDWICH,
        "every transition into a state that changes files (an apply)",
        "the transition carried no sandwich checkpoint id",
    ),
    Slo(
        MEMORY_INSTRUCTION,
        "every memory→action validation (memory_action_check rows)",
        "the validation found memory text in an action's arguments",
    ),
    Slo(
        MCP_REDACTION,
        "every MCP memory response that answered (mcp.memory_* rows, result ok)",
        "a re-scan of a response found what redaction missed (mcp.rescan, result failed)",
    ),
    Slo(
        DRIFT_LABEL,
        "every drift label a user judged with `vibflow recover feedback`",
        "a judged label had put an explicitly relevant file among the drift candidates",
    ),
    Slo(
        STALE_INTENT,
        "every handoff or recovery rendering that showed the active intent",
        "the intent was stale and the output did not say so",
    ),
)


def weigh(row: Mapping[str, Any], files_state: FilesStates) -> list[tuple[str, int, int]]:
    """``(slo_id, samples, occurrences)`` for each SLO the row concerns."""
    out: list[tuple[str, int, int]] = []
    event = row.get("event", "")
    if event == "transition":
        flow, to_state = row.get("flow"), row.get("to_state")
        if isinstance(flow, str) and isinstance(to_state, str) and files_state(flow, to_state):
            out.append((SANDWICH, 1, 0 if row.get("sandwich_checkpoint_id") else 1))
    elif event == "memory_action_check":
        out.append((MEMORY_INSTRUCTION, 1, int(row.get("result") == "failed")))
    elif event.startswith("mcp.memory_") and row.get("result") == "ok":
        out.append((MCP_REDACTION, 1, 0))
    elif event == "mcp.rescan" and row.get("result") == "failed":
        out.append((MCP_REDACTION, 0, 1))
    labels = row.get("labels")
    if isinstance(labels, Mapping) and labels.get("judged"):
        out.append((DRIFT_LABEL, int(labels["judged"]), int(labels.get("explicit_as_drift", 0))))
    stale = row.get("intent_stale")
    if stale is not None:
        out.append((STALE_INTENT, 1, int(bool(stale) and not row.get("stale_labelled"))))
    return out
