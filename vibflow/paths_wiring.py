"""The path contract as one project applies it: its policy's rules, absolute input
only from the trusted local CLI, and the stricter check a restore's names pass.

Every caller that turns typed or listed paths into project paths goes through
here (memory, feedback, a handoff's file, the restore flows and MCP's apply), so
the rules a path meets never depend on which door it came in by.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vibflow.engine.policy import PolicySet
    from vibflow.steps.paths.contract import ProjectPath
    from vibflow.steps.paths.policy import PathPolicy


class ProjectPaths:
    def __init__(self, root: Path, policy: PolicySet, tool: str) -> None:
        self.root = root
        self._policy = policy
        self._absolute = tool == "cli"

    @cached_property
    def rules(self) -> PathPolicy:
        from vibflow.steps.paths.contract import path_policy

        return path_policy(self._policy)

    def normalize_path(self, raw: str) -> str:
        """One path through the contract: project-relative, or a rejection by its rule."""
        return self.normalize_paths([raw])[0]

    def normalize_paths(self, raws: Iterable[str]) -> list[str]:
        """:meth:`normalize_path` for many paths, the project resolved once."""
        return [p.relative for p in self.place_paths(raws)]

    def place_paths(self, raws: Iterable[str]) -> list[ProjectPath]:
        from vibflow.steps.paths.contract import canonicalize_many

        return canonicalize_many(raws, self.root, policy=self.rules, allow_absolute=self._absolute)

    def restore_paths(self, raws: Iterable[str]) -> list[str]:
        """:meth:`normalize_paths` for the names a restore writes: the contract's rules
        first, then a name decomposed as typed or on disk is refused (the contract
        stores it composed, which on Linux is another file)."""
        from vibflow.steps.paths.contract import restore_refusal
        from vibflow.steps.paths.rules import PathRule, reject

        given = list(raws)
        placed = self.place_paths(given)
        for raw, path in zip(given, placed, strict=True):
            refused = restore_refusal(raw)
            if refused is None and path.decomposed_on_disk:
                refused = reject(PathRule.DECOMPOSED_FORM)
            if refused is not None:
                raise refused
        return [p.relative for p in placed]
