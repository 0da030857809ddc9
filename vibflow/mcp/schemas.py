"""What each MCP tool takes: one pydantic model per tool, exported as its JSON Schema.

Every model forbids unknown fields, so a caller cannot slip in a parameter
the server would ignore and think it counted — ``feature_enabled`` above
all (spec §12: the flag lives in the server's environment only). Nothing
here names the client: who calls is the server's configured identity.
Paths are plain strings here on purpose: the path contract, not the schema,
decides what a path may be, and says which rule a bad one breaks.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

_MAX_PATH = 10_000  # longer than the path contract's own limit, so its rule is the one named
_MAX_PATHS = 10_000


class ToolInput(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class NoInput(ToolInput):
    """No parameters."""


class RecoveryPreviewIn(ToolInput):
    """Which page of the plan's per-file lists to answer with."""

    offset: int = Field(
        0,
        ge=0,
        le=10_000_000,
        description="Where each per-file list starts (the previous answer's page.next_offset).",
    )
    limit: int = Field(
        25,
        ge=1,
        le=200,
        description="At most this many entries of each per-file list (changed files, drift "
        "candidates, each option's paths ...); fewer when long paths fill the page "
        "(page.shown says how many). The answer counts every list in full (<list>_total).",
    )
    plan_digest: str | None = Field(
        None,
        max_length=64,
        description="The page.plan_digest of the page read before, when reading the next: "
        "if the plan changed since (the working tree moved), the call is refused rather "
        "than mixing two plans' pages; read again from offset 0.",
    )


class CheckpointCreateIn(ToolInput):
    message: str = Field("", max_length=500, description="What the checkpoint is for.")


class MemoryWriteIn(ToolInput):
    field: Literal["intent", "decision", "next_action", "relevant_file", "verification", "risk"]
    text: str | None = Field(
        None,
        max_length=2000,
        description="The intent, decision, next action or risk in words; for a verification, "
        "the command that was run.",
    )
    path: str | None = Field(
        None, max_length=_MAX_PATH, description="relevant_file: a project-relative path."
    )
    why: str | None = Field(None, max_length=500, description="relevant_file: why it matters.")
    result: Literal["pass", "fail"] | None = Field(None, description="verification: how it went.")
    files: list[str] = Field(
        default_factory=list,
        max_length=200,
        description="verification: project-relative files the check covers.",
    )
    risk_kind: Literal["warning", "skipped_check", "assumption", "redaction_note"] = "warning"
    confirmed: bool = Field(
        False,
        description="The user confirmed this exact text. Without it an intent is stored as "
        "a proposal and the other intent-shaping fields are refused.",
    )


class BudgetIn(ToolInput):
    budget: int | None = Field(
        None, ge=200, le=12_000, description="At most this many characters (default 12,000)."
    )


class HandoffExportIn(BudgetIn):
    path: str = Field(
        ..., max_length=_MAX_PATH, description="Where to write it: a project-relative file path."
    )
    overwrite: bool = Field(
        False,
        description="Replace the file if it is an earlier handoff vibflow wrote (its first "
        "line is a handoff's heading); any other existing file is refused.",
    )


class RecoveryApplyIn(ToolInput):
    run_id: str | None = Field(
        None,
        pattern=r"^run_[0-9a-f]{32}$",
        description="The recover run to step; none starts one (it stops at its choice).",
    )
    option_id: str | None = Field(
        None,
        max_length=64,
        description="At the choice: the option to take (opt_...), one of this run's "
        "plan.options (recovery_preview's ids are another plan's).",
    )
    paths: list[str] | None = Field(
        None,
        max_length=_MAX_PATHS,
        description="Project-relative paths, a set (a path named twice counts once): with "
        "option_id, a subset of the option's files; with the confirmation, the paths "
        "previewed, in any order.",
    )
    confirmation: str | None = Field(
        None,
        max_length=200,
        description="At the confirmation: exactly the text the run asked for (APPLY <id>).",
    )


class RecapReadIn(ToolInput):
    recap_id: str | None = Field(
        None, max_length=100, description="A recap id (default: the latest project recap)."
    )


class RewindListIn(ToolInput):
    """Which agent session's turns to list (default: the latest one)."""

    session: str | None = Field(None, min_length=1, max_length=80, pattern=r"^[A-Za-z0-9_.:-]+$")


class RunsListIn(ToolInput):
    status: (
        Literal["running", "waiting", "blocked", "done", "failed", "aborted", "interrupted"] | None
    ) = None
    limit: int = Field(20, ge=1, le=200)
