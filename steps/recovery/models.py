"""RecoveryPlan and its parts (spec §5), as pydantic models.

IDs are generated locally (``rec_`` / ``opt_`` + uuid4 hex) and never derived
from memory text or user input. Drift candidates always require the user's
review: there is no automatic revert path.
"""

from __future__ import annotations

import uuid
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
)

from vibflow.engine.factories import empty_list

ZoneSource = Literal[
    "explicit",
    "recent_patch_target",
    "project_map_category",
    "anchor_co_occurrence",
    "reference",
    "name_proximity",
    "intent_words",
    "test_of",
    "diff_fallback",
    "user_feedback",
    "user_edit",
]


def new_id(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex}"


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ChangedFile(_Model):
    """One changed path in the working tree, relative to HEAD (or untracked)."""

    path: str
    status: Literal["added", "modified", "deleted", "renamed", "type_changed", "untracked"]
    old_path: str | None = None
    added_lines: int | None = None
    deleted_lines: int | None = None
    binary: bool = False
    category: str | None = None
    generated: bool = False
    #: Why it counts as generated, vendored or build output (``generated`` only).
    generated_why: str | None = None
    #: A lockfile its package manager rewrote: listed as regenerated, never drift.
    lockfile: bool = False

    @model_serializer(mode="wrap")
    def _only_when_set(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # The two marks are left out of the dump unless they say something: a plan
        # lists thousands of changes, and every key is walked by the redaction.
        data: dict[str, Any] = handler(self)
        if data.get("generated_why") is None:
            data.pop("generated_why", None)
        if not data.get("lockfile"):
            data.pop("lockfile", None)
        return data


class IntentZoneEntry(_Model):
    path: str
    source: ZoneSource
    reason: str
    #: In scope, yet part of its change is not explained by what put it there (a
    #: manifest's version bump beside the dependency the change needs): the user
    #: should look. Only in the dump when set, like the marks above.
    requires_user_review: bool = False

    @model_serializer(mode="wrap")
    def _review_when_set(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if not data.get("requires_user_review"):
            data.pop("requires_user_review", None)
        return data


class LeftOutFile(_Model):
    """A changed file the safe checkpoint does not hold (a likely secret, too large):
    no restore from it writes or deletes the file. Its content is never shown."""

    path: str
    why: str


class DriftCandidate(_Model):
    path: str
    why_outside_zone: str
    suggested_action: Literal["review_and_revert_if_unintentional"] = (
        "review_and_revert_if_unintentional"
    )
    requires_user_review: Literal[True] = True
    #: Some evidence links it to the intent, too little to call it in scope: shown
    #: apart ("unsure — please look"), still for the user to review. Not part of the
    #: spec's entry shape: the plan lists these paths in ``unsure_paths``.
    unsure: bool = Field(default=False, exclude=True)


class RecoveryOption(_Model):
    option_id: str = Field(default_factory=lambda: new_id("opt"))
    level: int = Field(ge=0, le=4)
    label: str
    affected_paths: list[str] = Field(default_factory=empty_list)
    deletes: list[str] = Field(
        default_factory=empty_list,
        description="affected paths that did not exist at the checkpoint: a restore deletes them",
    )
    estimated_impact: str
    requires_sandwich: bool = False
    requires_lock: bool = False
    blocked_reason: str | None = None
    recommended: bool = False


#: Hex digits a commit id is shown with (the plan, the confirmation text). Longer
#: abbreviations read as secrets to the redaction's entropy check; a restore
#: resolves the abbreviation to the full id once, when it is chosen.
COMMIT_ABBREV = 8


class SafeCheckpointCandidate(_Model):
    """The safe point a restore reads from: a checkpoint, or — when no checkpoint
    predates the change — the last commit (tracked files only; an untracked file
    is deleted only when it is listed and confirmed)."""

    kind: Literal["checkpoint", "commit"] = "checkpoint"
    checkpoint_id: str | None = Field(description="the checkpoint; null for kind commit")
    commit: str | None = Field(
        default=None, description="the commit's abbreviated id, for kind commit"
    )
    label: str = Field(default="", description="what the options call it")
    created_at: str | None = Field(description="when the checkpoint was taken; null for a commit")
    predates_change: bool
    metadata_complete: bool
    preview_available: bool = True
    why: str | None = Field(
        default=None,
        description="why this one and not the newest that predates the change, when so",
    )


class RecentCommitInfo(_Model):
    """A recent commit on HEAD as the plan shows it: no paths, only how many."""

    commit: str = Field(description="short sha")
    subject: str
    committed_at: str | None = Field(description="committer time, UTC; null if unreadable")
    files_count: int | None = Field(
        description="paths it touched; null when not diffed (a root commit)"
    )
    since_intent: bool = Field(description="made after the active intent was set")


class GeneratedReason(_Model):
    """One reason changed files were recognised as generated, vendored or build output."""

    reason: str
    count: int = Field(ge=1)
    example: str


class RedactionSummary(_Model):
    secret_hits: int = 0
    privacy_hits: int = 0
    summarized_fields: int = 0


class AgentTurnNote(_Model):
    """The agent's last recorded turn (from the agent hooks' records): the files it
    changed — its tools' reports and the tree's diff over the turn — and how many
    of them lie outside the intent zone (``None``: no intent to judge by)."""

    agent: str
    turn: int
    started_at: str
    files: list[str] = Field(default_factory=empty_list)
    outside_intent: int | None = None
    checkpoint_id: str | None = Field(default=None, description="taken before the turn")


class RecoveryPlan(_Model):
    plan_id: str = Field(default_factory=lambda: new_id("rec"))
    mode: Literal["read_only", "apply_preview", "apply"] = "read_only"
    level: int = Field(ge=0, le=4)
    summary: str
    memory_mode: Literal["memory", "diff_aware"] = "diff_aware"
    memory_note: str | None = None
    intent: str | None = None
    intent_stale: bool = False
    intent_zone: list[IntentZoneEntry] = Field(default_factory=empty_list)
    drift_candidates: list[DriftCandidate] = Field(default_factory=empty_list)
    unsure_paths: list[str] = Field(
        default_factory=empty_list,
        description="drift candidates with some evidence for the intent, too little to call "
        "them in scope: shown as 'unsure — please look', still for the user to review",
    )
    feedback_paths: list[str] = Field(
        default_factory=empty_list,
        description="what drift labelling says (even while degraded): the paths feedback may "
        "confirm or reject",
    )
    changed: list[ChangedFile] = Field(default_factory=empty_list)
    excluded_generated: list[str] = Field(default_factory=empty_list)
    generated_reasons: list[GeneratedReason] = Field(
        default_factory=empty_list,
        description="why the excluded files count as generated: one entry per reason",
    )
    regenerated: list[str] = Field(
        default_factory=empty_list,
        description="changed lockfiles: regenerated by a package manager, not drift, not hidden",
    )
    left_out: list[LeftOutFile] = Field(
        default_factory=empty_list,
        description="changed files the safe checkpoint left out: every restore leaves them be",
    )
    recent_commits: list[RecentCommitInfo] = Field(
        default_factory=empty_list,
        description="the newest few recent commits on HEAD, newest first",
    )
    recent_commits_total: int = Field(
        default=0, ge=0, description="recent commits read (bounded in number and age)"
    )
    recent_commits_since_intent: int = Field(
        default=0, ge=0, description="how many of them were made after the intent was set"
    )
    recent_commits_since_intent_files: int = Field(
        default=0, ge=0, description="distinct paths those commits touched"
    )
    options: list[RecoveryOption] = Field(default_factory=empty_list)
    safe_checkpoint_candidate: SafeCheckpointCandidate | None = None
    agent_last_turn: AgentTurnNote | None = None
    circuit_breaker_state: Literal["active", "degraded"] = "active"
    redaction: RedactionSummary = RedactionSummary()
    files_modified: Literal[0] = 0
