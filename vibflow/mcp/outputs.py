"""What each MCP tool answers: one pydantic model per tool, exported as its output schema.

``tools/list`` declares each model's JSON Schema as the tool's
``outputSchema``; every answer that is not an error carries
``structuredContent`` that validates against it (the official client checks
that on its side) and the same JSON as text for clients that read no
structured output. An error answer is ``{"error": {...}}`` with ``isError``
set: the protocol exempts it from the output schema.

The models pin what a caller may rely on — the top-level fields, their
types, which may be null — and leave room where an answer is a service's own
document (the advisor's plan, a run's public context, a recap): those parts
are typed as objects, not re-described here, so the service stays the one
owner of its format. Every answer passes the redaction contract before it
leaves, which changes strings, never the shape, so a redacted answer still
fits. The boundary may add ``warnings`` (a policy or memory warning of the
request) to any answer.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Obj = dict[str, Any]


class ToolOutput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    warnings: list[str] | None = Field(
        None, description="Warnings about this request (a broken policy file, read-only memory)."
    )


class Counted(BaseModel):
    model_config = ConfigDict(extra="allow")

    count: int
    latest: list[Obj]


class MemorySummaryOut(ToolOutput):
    kind: Literal["memory_summary"]
    intent: Obj | None = Field(description="The active intent, with whether it is stale.")
    next_action: Obj | None
    decisions: Counted
    relevant_files: Obj
    verification: Obj
    risks: Counted
    provenance: str
    read_only: bool
    warning: str | None


class MemoryFullOut(ToolOutput):
    """The whole project memory (its ``.vibflow/memory.json`` format), redacted."""

    model_config = ConfigDict(extra="allow")

    kind: Literal["memory"]
    schema_version: int
    freshness: Obj
    read_only: bool
    warning: str | None


class MemoryWriteOut(ToolOutput):
    written: str
    # Serialized under its own name: "as" is a Python keyword.
    as_: str = Field(alias="as", description="An entry, or a proposal the user must confirm.")
    writer: str
    path: str | None = Field(description="The relevant file the write was about.")
    notices: list[str]
    warning: str | None
    redacted_before_storing: dict[str, int]
    next: list[Obj] = Field(description="What the user does next with a proposal (if any).")


class PreviewPage(BaseModel):
    model_config = ConfigDict(extra="forbid")

    offset: int
    limit: int
    shown: int = Field(
        description="Entries each per-file list holds from offset on (fewer than limit "
        "when long paths fill the page's byte budget, or at the end)."
    )
    next_offset: int | None = Field(
        description="The offset of the next page; null once every list is shown in full."
    )
    plan_digest: str = Field(
        description="The same on every page of one plan (ids and times aside): pass it "
        "with the next page's call, and a plan changed in between is refused, not mixed in."
    )


class RecoveryPreviewOut(ToolOutput):
    """The advisor's redacted plan (the document of `vibflow recover --preview --json`),
    one page of it: each per-file list holds the page's entries, and ``<list>_total``
    counts the whole list."""

    model_config = ConfigDict(extra="allow")

    plan_id: str
    mode: str
    summary: str
    options: list[Obj]
    changed: list[Obj]
    drift_candidates: list[Obj | str]
    circuit_breaker_state: Literal["active", "degraded"]
    redaction: dict[str, int]
    interrupted_restores: list[Obj]
    page: PreviewPage


class CheckpointOut(ToolOutput):
    model_config = ConfigDict(extra="allow")

    kind: Literal["checkpoint"]
    reused: bool
    checkpoint_id: str
    created_at: str
    message: str
    file_count: int


class RecapOut(ToolOutput):
    kind: Literal["recap"]
    recap: Obj = Field(
        description="The recap document, redacted; its next_actions say whose each step is."
    )
    next: list[Obj] = Field(
        description="The recap's next actions as MCP calls (by: agent) or commands for the "
        "user (by: user) or the project's shell (by: shell)."
    )


class RunsOut(ToolOutput):
    kind: Literal["runs"]
    runs: list[Obj]


class TriggersOut(ToolOutput):
    kind: Literal["triggers"]
    triggers: list[Obj]
    firing: list[str]
    recommendations: list[Obj]


class RewindOut(ToolOutput):
    kind: Literal["rewind"]
    session: Obj | None
    turns: list[Obj]
    sessions: list[Obj]
    how_to_rewind: str | None = None


class HandoffOut(ToolOutput):
    model_config = ConfigDict(extra="allow")

    kind: Literal["handoff"]
    schema_version: int
    for_: str = Field(alias="for")
    budget: int
    total_chars: int
    generated_at: str
    sections: list[Obj]
    text: str
    redaction: dict[str, int]


class HandoffExportOut(HandoffOut):
    written_to: str


class RunOut(ToolOutput):
    """Where the recover run stands; its public context (plan, preview) rides along."""

    model_config = ConfigDict(extra="allow")

    run_id: str
    flow: str
    status: str
    state: str
    blocked_reason: str | None
    error: str | None
    waiting_for: Obj | None
    next: list[Obj] = Field(
        description="The next steps: MCP calls (by: agent, tool, arguments) or commands "
        "only the user may run (by: user, command)."
    )


#: Every tool's output model (handlers.TOOLS names the same tools).
OUTPUTS: dict[str, type[ToolOutput]] = {
    "memory_summary_read": MemorySummaryOut,
    "recovery_preview": RecoveryPreviewOut,
    "checkpoint_create": CheckpointOut,
    "recap_read": RecapOut,
    "runs_list": RunsOut,
    "triggers_check": TriggersOut,
    "rewind_list": RewindOut,
    "handoff": HandoffOut,
    "memory_full_read": MemoryFullOut,
    "memory_write": MemoryWriteOut,
    "handoff_export": HandoffExportOut,
    "recovery_apply": RunOut,
}


def output_schema(tool: str) -> dict[str, Any]:
    """The tool's output schema as it goes on the wire (aliases, not field names)."""
    return OUTPUTS[tool].model_json_schema(by_alias=True, mode="serialization")
