"""Checkpoint metadata and the policy that bounds the store."""

from __future__ import annotations

import json
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from vibflow.engine.factories import empty_list
from vibflow.steps.checkpoints.secret_names import DEFAULT_SECRET_ALLOW, DEFAULT_SECRET_NAMES

REF_PREFIX = "refs/vibflow/checkpoints/"
META_MARKER = "vibflow-checkpoint-v1"


SkipReason = Literal["too_large", "nested_repo", "unreadable", "secret_name", "secret_content"]
# Left out because the file likely holds a secret: the checkpoint has no copy, so
# nothing restored from it may delete or overwrite that file.
SECRET_REASONS: frozenset[str] = frozenset({"secret_name", "secret_content"})
_WHY = {
    "too_large": "too large",
    "nested_repo": "nested repo",
    "unreadable": "unreadable",
    "secret_name": "likely secret (its name matches {detail})",
    "secret_content": "likely secret (it holds {detail})",
}


class Skipped(BaseModel):
    """An untracked file a checkpoint left out, and why (never its content)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    path: str
    reason: SkipReason
    size: int | None = None
    # Which secret-name pattern matched, or which kinds of secret were found.
    detail: str | None = None

    @property
    def secret(self) -> bool:
        return self.reason in SECRET_REASONS

    @property
    def why(self) -> str:
        """The reason in words."""
        text = _WHY[self.reason]
        if "{detail}" in text:
            text = text.format(detail=self.detail or "the secret-file list")
        return text


class CheckpointMeta(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    checkpoint_id: str = Field(pattern=r"^ckpt_[0-9a-f]{32}$")
    created_at: str
    message: str = ""
    reason: Literal["manual", "sandwich", "flow_stage", "agent_turn"] = "manual"
    base_head: str | None = None
    file_count: int = 0
    untracked_count: int = 0
    skipped: list[Skipped] = Field(default_factory=empty_list)
    unscanned_count: int = Field(
        default=0,
        description="new untracked files stored without a secret scan (over the scan budget)",
    )
    metadata_complete: bool = True
    commit: str = ""
    tree: str = ""
    reused: bool = Field(default=False, description="nothing changed since this checkpoint")
    same_tree_as: str | None = Field(
        default=None,
        description="a new checkpoint (new words) of the files this earlier one holds",
    )


def _check_secret_pattern(pattern: str) -> str:
    if not pattern.strip() or pattern.startswith("/") or "\\" in pattern:
        raise ValueError(
            "a secret-file pattern is a file-name glob ('*.pem') or a project-relative "
            "glob with '/' ('config/prod/*.yaml'), never empty, absolute or with '\\'"
        )
    return pattern


SecretPattern = Annotated[str, AfterValidator(_check_secret_pattern)]


class SecretFilesPolicy(BaseModel):
    """Which untracked files a checkpoint leaves out as likely secrets."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    names: tuple[SecretPattern, ...] = DEFAULT_SECRET_NAMES
    extra_names: tuple[SecretPattern, ...] = ()
    allow: tuple[SecretPattern, ...] = DEFAULT_SECRET_ALLOW
    scan_content: bool = True
    scan_max_kb: int = Field(default=256, ge=1, le=64 * 1024)
    scan_budget_mb: float = Field(default=4, ge=0)
    scan_generic: bool = False

    def fingerprint(self) -> str:
        """Changes whenever a setting that decides what is left out changes."""
        return json.dumps(self.model_dump(mode="json"), sort_keys=True)


class CheckpointPolicy(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    untracked_size_cap_mb: float = Field(default=5, gt=0)
    keep_last: int = Field(default=50, ge=1)
    keep_days: int = Field(default=14, ge=0)
    protect_sandwiches: int = Field(default=5, ge=0)
    secrets: SecretFilesPolicy = SecretFilesPolicy()

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
