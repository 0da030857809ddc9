"""What the engine is handed before any project: the step and guard registry,
the model of every shipped policy section, and the catalog of built-in flows.

Apart from :mod:`vibflow.wiring`'s per-project composition because commands
that have no project yet (``flows list`` outside a repository, ``policy``'s
section listing, the test kit's harness) need them too.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.resources import files
from typing import TYPE_CHECKING

from vibflow.engine.policy import EnginePolicy

if TYPE_CHECKING:
    from pydantic import BaseModel

    from vibflow.engine.catalog import FlowCatalog
    from vibflow.engine.registry import Registry
    from vibflow.steps import RecoveryProvider

RegistryHook = Callable[["Registry"], None]

#: The one feature flag that switches file changes on (spec §12): the verifier
#: refuses a files-changing state guarded by any other.
RECOVERY_APPLY_FLAG = "RECOVERY_APPLY"


def build_registry(
    extra: RegistryHook | None = None, *, recovery: RecoveryProvider | None = None
) -> Registry:
    """The engine's built-in guards, the domain's steps and guards (bound to
    ``recovery``'s services when given) and any ``extra`` registrations."""
    import vibflow.steps
    from vibflow.engine import builtin_guards
    from vibflow.engine.registry import Registry

    registry = Registry()
    registry.allow_apply_flag(RECOVERY_APPLY_FLAG)
    builtin_guards.register(registry)
    vibflow.steps.register(registry, recovery)
    if extra is not None:
        extra(registry)
    return registry


def policy_sections() -> dict[str, type[BaseModel]]:
    """The model of every shipped policy section, by section name."""
    from vibflow.engine.audit_policy import SECTION as AUDIT_SECTION
    from vibflow.engine.audit_policy import AuditPolicy
    from vibflow.steps.agents.policy import SECTION as AGENTS_SECTION
    from vibflow.steps.agents.policy import AgentsPolicy
    from vibflow.steps.memory.policy import MemoryPolicy
    from vibflow.steps.paths.policy import SECTION as PATHS_SECTION
    from vibflow.steps.paths.policy import PathsPolicy
    from vibflow.steps.recovery.policy import RecoveryPolicy
    from vibflow.steps.triggers.policy import SECTION as TRIGGERS_SECTION
    from vibflow.steps.triggers.policy import TriggersPolicy

    return {
        AUDIT_SECTION: AuditPolicy,
        AGENTS_SECTION: AgentsPolicy,
        "engine": EnginePolicy,
        "memory": MemoryPolicy,
        PATHS_SECTION: PathsPolicy,
        "recovery": RecoveryPolicy,
        TRIGGERS_SECTION: TriggersPolicy,
    }


def catalog_without_project(registry: Registry) -> FlowCatalog:
    from vibflow.engine.catalog import FlowCatalog

    return FlowCatalog(registry, builtin=files("vibflow.flows"), project_dir=None)
