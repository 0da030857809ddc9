"""The ``paths:`` policy section as written in YAML (a pydantic model), and the
merge that turns it into the :class:`~.policy.PathPolicy` the contract applies.

Apart from :mod:`.policy` so that checking a path never imports pydantic
(:mod:`.policy` re-exports these names and imports this module on first use).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from vibflow.steps.paths.policy import (
    DEFAULT_GENERATED,
    DEFAULT_MAX_PATH_BYTES,
    SECTION,
    PathPolicy,
)

if TYPE_CHECKING:
    from vibflow.engine.policy import PolicySet

__all__ = ["SECTION", "PathsPolicy", "from_section", "path_policy"]


def _check_pattern(pattern: str) -> str:
    if not pattern or pattern != pattern.strip():
        raise ValueError("a pattern must be non-empty, without surrounding spaces")
    if "\\" in pattern or pattern.startswith("/"):
        raise ValueError(f"'{pattern}' must be project-relative and use '/' (e.g. 'build/')")
    segments = pattern.rstrip("/").split("/")
    if any(s in {"", ".", ".."} for s in segments) or pattern.endswith("//"):
        raise ValueError(f"'{pattern}' has an empty, '.' or '..' segment")
    return pattern


# Validated one by one so an error points at the offending list item.
Pattern = Annotated[str, AfterValidator(_check_pattern)]


class PathsPolicy(BaseModel):
    """The ``paths:`` section as written in YAML."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    generated: tuple[Pattern, ...] = Field(
        default=DEFAULT_GENERATED,
        description="Generated/cache/build names refused unless a caller allows them.",
    )
    extra_generated: tuple[Pattern, ...] = Field(
        default=(), description="Project additions to `generated` (keeps the shipped list)."
    )
    allow: tuple[Pattern, ...] = Field(
        default=(), description="Entries of `generated` that are real sources in this project."
    )
    max_path_bytes: int = Field(
        default=DEFAULT_MAX_PATH_BYTES,
        ge=64,
        le=32767,
        description="Longest accepted project-relative path, in UTF-8 bytes.",
    )

    @field_validator("allow")
    @classmethod
    def _allow_known(cls, value: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        known = {*info.data.get("generated", ()), *info.data.get("extra_generated", ())}
        unknown = [p for p in value if p not in known]
        if unknown:
            raise ValueError(
                f"'{unknown[0]}' is not in generated or extra_generated, so allowing it "
                "changes nothing"
            )
        return value


def from_section(section: PathsPolicy) -> PathPolicy:
    """Merge ``generated + extra_generated - allow`` (order kept, duplicates dropped)."""
    allowed = set(section.allow)
    merged = dict.fromkeys(p for p in (*section.generated, *section.extra_generated))
    return PathPolicy(
        generated=tuple(p for p in merged if p not in allowed),
        max_path_bytes=section.max_path_bytes,
    )


def path_policy(policy_set: PolicySet) -> PathPolicy:
    """The effective path policy of a project (shipped defaults + its overrides)."""
    return from_section(policy_set.section(SECTION, PathsPolicy))
