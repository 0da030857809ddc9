"""The path contract: every user-supplied path is checked here before use.

``canonicalize`` / ``canonicalize_many`` turn raw input into a
:class:`ProjectPath` (relative, NFC, proven inside the project) or raise
:class:`PathRejected` naming the :class:`PathRule` it broke. Pure rules live in
``windows``, ``review`` and ``policy``; ``resolve`` is the only module that
touches the filesystem.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vibflow.steps.paths.contract import ProjectPath, canonicalize, canonicalize_many
from vibflow.steps.paths.policy import DEFAULT_POLICY, PathPolicy
from vibflow.steps.paths.rules import PathRejected, PathRule

if TYPE_CHECKING:
    from vibflow.steps.paths.section import PathsPolicy, path_policy

__all__ = [
    "DEFAULT_POLICY",
    "PathPolicy",
    "PathRejected",
    "PathRule",
    "PathsPolicy",
    "ProjectPath",
    "canonicalize",
    "canonicalize_many",
    "path_policy",
]


def __getattr__(name: str) -> Any:
    # The policy section's pydantic model, imported on first use (see .policy).
    if name in {"PathsPolicy", "path_policy"}:
        from vibflow.steps.paths import section

        return getattr(section, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
