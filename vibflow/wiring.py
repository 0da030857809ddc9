"""Assemble the engine for one project: registry, catalog, policy, journal,
audit and runner. The only module that imports both ``engine`` and ``steps``
(together with the CLI/MCP handlers that call it)."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from importlib.resources import files
from pathlib import Path

from vibflow.engine import builtin_guards
from vibflow.engine.audit import AuditLog, project_root_hash
from vibflow.engine.catalog import FlowCatalog
from vibflow.engine.faults import CrashPlan
from vibflow.engine.journal import Journal
from vibflow.engine.policy import EnginePolicy, PolicySet
from vibflow.engine.registry import Registry
from vibflow.engine.runner import Runner

RegistryHook = Callable[[Registry], None]


def build_registry(extra: RegistryHook | None = None) -> Registry:
    import vibflow.steps

    registry = Registry()
    builtin_guards.register(registry)
    vibflow.steps.register(registry)
    if extra is not None:
        extra(registry)
    return registry


def catalog_without_project(registry: Registry) -> FlowCatalog:
    return FlowCatalog(registry, builtin=files("vibflow.flows"), project_dir=None)


@dataclass
class Project:
    """Everything one command needs about the project it runs in."""

    root: Path
    registry: Registry
    env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    tool: str = "cli"

    @classmethod
    def discover(cls, start: Path, registry: Registry, *, tool: str = "cli") -> Project:
        from vibflow.steps.workspace.root import find_root

        return cls(find_root(start), registry, tool=tool)

    @cached_property
    def state_dir(self) -> Path:
        from vibflow.steps.workspace.root import state_dir

        return state_dir(self.root)

    @cached_property
    def catalog(self) -> FlowCatalog:
        return FlowCatalog(
            self.registry,
            builtin=files("vibflow.flows"),
            project_dir=self.root / ".vibflow" / "flows",
        )

    @cached_property
    def policy(self) -> PolicySet:
        return PolicySet(files("vibflow.policies"), self.root / ".vibflow" / "policy.yaml")

    @cached_property
    def engine_policy(self) -> EnginePolicy:
        return self.policy.section("engine", EnginePolicy)

    @cached_property
    def journal(self) -> Journal:
        return Journal(
            self.state_dir / "runs.db", synchronous=self.engine_policy.journal.synchronous
        )

    @cached_property
    def audit(self) -> AuditLog:
        return AuditLog(
            self.state_dir / "audit.jsonl",
            project_root_hash=project_root_hash(self.root),
            tool=self.tool,
        )

    @cached_property
    def dry_runner(self) -> Runner:
        """A runner over an in-memory journal: a dry run writes nothing."""
        memory = Path(":memory:")
        return Runner(
            registry=self.registry,
            journal=Journal(memory),
            audit=AuditLog(memory, project_root_hash=project_root_hash(self.root)),
            project_root=self.root,
            env=self.env,
        )

    @cached_property
    def runner(self) -> Runner:
        return Runner(
            registry=self.registry,
            journal=self.journal,
            audit=self.audit,
            project_root=self.root,
            env=self.env,
            policy_digest=self.policy.digest(),
            context_max_bytes=self.engine_policy.context_max_bytes,
            crash=CrashPlan.from_env(self.env),
        )
