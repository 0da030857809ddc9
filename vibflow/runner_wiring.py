"""Build the flow engine's runners for one project (part of the composition root,
kept apart so ``wiring`` stays small): the real one over the project's journal
and audit, and a dry one over in-memory stores that writes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from vibflow.engine.audit import project_root_hash

if TYPE_CHECKING:
    from vibflow.engine.runner import Runner
    from vibflow.wiring import Project


def runner(project: Project) -> Runner:
    """The runner of every step, over the project's journal and audit."""
    from vibflow.engine.faults import CrashPlan
    from vibflow.engine.runner import Runner

    return Runner(
        registry=project.registry,
        journal=project.journal,
        audit=project.audit,
        project_root=project.root,
        env=project.env,
        policy_digest=project.policy.digest(),
        context_max_bytes=project.engine_policy.context_max_bytes,
        crash=CrashPlan.from_env(project.env),
        sanitize_inputs=project.redact_inputs,
    )


def dry_runner(project: Project) -> Runner:
    """A runner over an in-memory journal and audit: a dry run writes nothing."""
    from vibflow.engine.runner import Runner
    from vibflow.engine.testing import MemoryAudit, MemoryJournal

    return Runner(
        registry=project.registry,
        journal=MemoryJournal(),
        audit=MemoryAudit(project_root_hash=project_root_hash(project.root)),
        project_root=project.root,
        env=project.env,
        sanitize_inputs=project.redact_inputs,
    )
