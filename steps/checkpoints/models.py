"""Checkpoint metadata and the policy that bounds the store."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

REF_PREFIX = "refs/vibflow/checkpoints/"
META_MARKER = "vibflow-checkpoint-v1"


class Skipped(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    path: str
    reason: Literal["too_large", "nested_repo", "unreadable"]
    size: int | None = None


class CheckpointMeta(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    checkpoint_id: str = Field(pattern=r"^ckpt_[0-9a-f]{32}$")
    created_at: str
    message: str = ""
    reason: Literal["manual", "sandwich", "flow_stage"] = "manual"
    base_head: str | None = None
    file_count: int = 0
    untracked_count: int = 0
    skipped: list[Skipped] = Field(default_factory=list)
    metadata_complete: bool = True
    commit: str = ""
    tree: str = ""
    reused: bool = Field(default=False, description="nothing changed since this checkpoint")


class CheckpointPolicy(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    untracked_size_cap_mb: float = Field(default=5, gt=0)
    keep_last: int = Field(default=50, ge=1)
    keep_days: int = Field(default=14, ge=0)
    protect_sandwiches: int = Field(default=5, ge=0)

    @property
    def size_cap_bytes(self) -> int:
        return int(self.untracked_size_cap_mb * 1024 * 1024)


class FileChange(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    path: str
    status: Literal["added", "modified", "deleted", "renamed", "type_changed", "copied"]
    old_path: str | None = None
    added_lines: int | None = None
    deleted_lines: int | None = None
    binary: bool = False
