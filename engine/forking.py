"""A forked run's first record: a new run of a source run's stored definition
(``Runner.fork`` copies the context and starts at a chosen state;
``Runner.fork_fresh`` starts from the beginning with the source's start inputs,
so read-only steps recompute what the source acted on)."""

from __future__ import annotations

import dataclasses
from typing import Any

from vibflow.engine.definition import FlowDefinition
from vibflow.engine.ownership import current_owner
from vibflow.engine.recorder import status_for
from vibflow.engine.records import RunRecord


def start_inputs(source: RunRecord, defn: FlowDefinition) -> dict[str, Any]:
    """The inputs ``source`` was started with (those its flow declares at its start)."""
    old = source.context.get("inputs")
    return {k: v for k, v in (old.items() if isinstance(old, dict) else ()) if k in defn.inputs}


def forked_record(
    source: RunRecord,
    defn: FlowDefinition,
    state: str,
    context: dict[str, Any],
    *,
    now: str,
    run_id: str,
) -> RunRecord:
    return dataclasses.replace(
        source,
        run_id=run_id,
        status=status_for(defn.states[state]),
        state=state,
        context=context,
        seq=0,
        audited_seq=0,
        blocked_reason=None,
        pending_event=None,
        pending_inputs=None,
        error=None,
        owner=current_owner(),
        attempt=1,
        recap_id=None,
        parent_run=source.run_id,
        created_at=now,
        updated_at=now,
    )
