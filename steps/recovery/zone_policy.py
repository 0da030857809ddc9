"""The ``recovery.zone`` policy section: how much evidence the intent zone reads.

Bounds, not switches of meaning: how many files and bytes the reference rules
read, how much history the co-change signal walks, how often two files must
have changed together. Every signal can be turned off (``0``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class ZonePolicy(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    reference_files: int = Field(
        default=2000, ge=0, le=100_000, description="Changed files read for references (0: off)."
    )
    reference_bytes: int = Field(
        default=65536, ge=1024, le=4 * 1024 * 1024, description="Bytes read of each file."
    )
    cochange_commits: int = Field(
        default=200, ge=0, le=5000, description="Commits touching an explicit file read (0: off)."
    )
    cochange_days: int = Field(default=365, ge=1, le=36500)
    cochange_max_files: int = Field(
        default=40, ge=2, le=10_000, description="Commits touching more files are skipped."
    )
    cochange_min_together: int = Field(
        default=2, ge=1, le=100, description="Commits in common that put a file in the zone."
    )
    proximity: bool = Field(default=True, description="Same folder and a shared name word.")
    closure_hops: int = Field(
        default=2,
        ge=0,
        le=5,
        description="Hops of references followed from files in scope by a reference (0: off).",
    )
    closure_files: int = Field(
        default=50, ge=1, le=10_000, description="Files a closure hop may add at most."
    )
    dependencies: bool = Field(
        default=True, description="A manifest or settings line for a library the change imports."
    )
    literals: bool = Field(
        default=True,
        description="Added lines writing a flag, route or identifier the intent spells out.",
    )
    mirrors: bool = Field(
        default=True,
        description="The same file as yours in a sibling place the intent does not name: drift.",
    )
    environments: bool = Field(
        default=True,
        description="A file of another deployment environment than the intent names: drift.",
    )
    reformats: bool = Field(
        default=True,
        description="A Python file whose change only reformats it (same syntax tree): drift.",
    )
