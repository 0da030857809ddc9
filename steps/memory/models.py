"""MemoryState v1 (spec §5): small, bounded, structured project memory.

Memory is *data*: nothing here (or anywhere in ``steps.memory``) runs a
command or touches files outside the memory store. Every entry records who
wrote it and when. ``decisions`` are explicit only; ``relevant_files`` keep
explicit (handoff truth) and observed (context) entries apart; verification
carries its file scope and whether that scope is known. Fields this version
does not know are kept in ``unknown_fields`` and written back untouched.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from vibflow.engine.factories import empty_dict, empty_list

SCHEMA_VERSION = 1

Writer = Annotated[
    str,
    StringConstraints(
        pattern=r"^(cli|hook|import|mcp\.[a-z_]{1,40}|agent\.[a-z0-9_-]{1,40}|flow\.[a-z_.]{1,60})$"
    ),
]
Source = Literal["explicit", "observed"]
EventKind = Literal[
    "commit",
    "checkpoint",
    "patch_apply",
    "touched_files",
    "verification_result",
    "guard_summary",
    "recovery_preview",
    "recovery_apply",
    "memory_import",
    "legacy_event",
    "note",
]


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def new_id(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex}"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=False)


class Stamped(_Model):
    last_updated: str = Field(default_factory=now_iso)
    updated_by: Writer = "cli"


class ActiveIntent(Stamped):
    text: str = Field(min_length=1, max_length=2000)
    proposed: bool = Field(
        default=False, description="proposed automatically; not the user's word until confirmed"
    )
    stale: bool = Field(default=False, description="stored flag; freshness is recomputed on read")
    head_at_update: str | None = Field(
        default=None, description="HEAD commit when the intent was set (for commit-count staleness)"
    )


class Decision(Stamped):
    id: str = Field(default_factory=lambda: new_id("dec"))
    text: str = Field(min_length=1, max_length=2000)
    source: Literal["explicit"] = "explicit"
    created_at: str = Field(default_factory=now_iso)


class RelevantFile(Stamped):
    path: str = Field(min_length=1, max_length=1024, description="project-relative, POSIX")
    why: str = Field(default="", max_length=500)
    source: Source = "explicit"


class Verification(Stamped):
    id: str = Field(default_factory=lambda: new_id("ver"))
    command: str = Field(min_length=1, max_length=500)
    result: Literal["pass", "fail", "unknown"] = "unknown"
    result_text: str | None = Field(
        default=None, max_length=200, description="legacy free-form result, kept verbatim"
    )
    timestamp: str = Field(default_factory=now_iso)
    source: Source = "explicit"
    related_files: list[str] = Field(default_factory=empty_list)
    scope_unknown: bool = False
    stale: bool = False

    @property
    def scope_key(self) -> str:
        return "\n".join(sorted(self.related_files)) if self.related_files else "<unknown>"


class Risk(Stamped):
    id: str = Field(default_factory=lambda: new_id("risk"))
    text: str = Field(min_length=1, max_length=1000)
    kind: Literal["warning", "skipped_check", "assumption", "redaction_note"] = "warning"


class NextAction(Stamped):
    text: str = Field(min_length=1, max_length=1000)


Detail = dict[str, str | int | bool | list[str]]


class ObservedEvent(_Model):
    kind: EventKind
    at: str = Field(default_factory=now_iso)
    source: Writer = "hook"
    detail: Detail = Field(default_factory=empty_dict)


class MemoryState(_Model):
    schema_version: Literal[1] = 1
    active_intent: ActiveIntent | None = None
    decisions: list[Decision] = Field(default_factory=empty_list)
    relevant_files: list[RelevantFile] = Field(default_factory=empty_list)
    verification: list[Verification] = Field(default_factory=empty_list)
    risks: list[Risk] = Field(default_factory=empty_list)
    next_action: NextAction | None = None
    observed_context: list[ObservedEvent] = Field(default_factory=empty_list)
    archived_decisions: list[Decision] = Field(default_factory=empty_list)
    unknown_fields: dict[str, Any] = Field(default_factory=empty_dict)

    def explicit_files(self) -> list[RelevantFile]:
        return [f for f in self.relevant_files if f.source == "explicit"]


def memory_json_schema() -> dict[str, Any]:
    schema = MemoryState.model_json_schema(mode="validation")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "vibflow project memory (.vibflow/memory.json)"
    return schema
