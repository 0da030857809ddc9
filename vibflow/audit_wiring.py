"""Build the audit's P0 summary and retention over one project.

The engine's aggregator and retention know rows, not flows: which states
change files (the sandwich SLO's samples) comes from the project's flow
catalog and step registry, loaded only for the flows the rows name. The
rollover summaries and the quarantine live under ``.vibflow/recovery/``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from vibflow.engine.audit_policy import SECTION, AuditPolicy
from vibflow.engine.errors import VibflowError

# Every append checks whether a rollover is due (the policy above); the
# rollover store, the quarantine and the crash plan only when one runs.
if TYPE_CHECKING:
    from vibflow.engine.audit_quarantine import Quarantine
    from vibflow.engine.audit_retention import Retention
    from vibflow.engine.audit_rollover import RolloverStore
    from vibflow.engine.audit_slo import FilesStates
    from vibflow.engine.audit_summary import P0Summary
    from vibflow.wiring import Project

QUARANTINE = "audit_quarantine.jsonl"


def rollover_store(project: Project) -> RolloverStore:
    from vibflow.engine.audit_rollover import FOLDER, RolloverStore

    return RolloverStore(project.state_dir / "recovery" / FOLDER)


def quarantine(project: Project) -> Quarantine:
    from vibflow.engine.audit_quarantine import Quarantine

    return Quarantine(project.state_dir / "recovery" / QUARANTINE)


def audit_policy(project: Project) -> AuditPolicy:
    return project.policy.section(SECTION, AuditPolicy)


def files_states(project: Project) -> FilesStates:
    """Whether a flow's state runs a step that changes files, as the registry
    declares it (a flow that no longer loads has none: its rows are not counted)."""
    from vibflow.engine.kinds import Mutation

    known: dict[str, frozenset[str]] = {}

    def files_state(flow: str, state: str) -> bool:
        if flow not in known:
            try:
                defn = project.catalog.load(flow).definition
            except VibflowError:
                known[flow] = frozenset()
            else:
                known[flow] = frozenset(
                    name
                    for name, spec in defn.states.items()
                    if spec.step is not None
                    and project.registry.get_step(spec.step).mutates is Mutation.FILES
                )
        return state in known[flow]

    return files_state


def roll_if_due(project: Project, size: int) -> None:
    """After an append: the automatic rollover, built only when one is due."""
    from vibflow.engine.clock import system_clock

    policy = audit_policy(project)
    if policy.rollover_due(size, project.audit.first_timestamp(), system_clock()):
        project.audit_retention.maybe(size)


def retention(project: Project) -> Retention:
    from vibflow.engine.audit_retention import Retention
    from vibflow.engine.faults import CrashPlan

    return Retention(
        project.audit,
        rollover_store(project),
        quarantine(project),
        audit_policy(project),
        files_state=lambda: files_states(project),
        anchor=lambda: project.journal,
        crash=CrashPlan.from_env(project.env).at_retain_step,
    )


def summary(project: Project, window_days: int | None) -> P0Summary:
    """The P0 summary over the last ``window_days`` (default: the active P0
    window); corrupt rows it skips are copied, redacted, to the quarantine."""
    from vibflow.engine.audit_summary import summarize
    from vibflow.engine.clock import system_clock

    now = system_clock()
    start = (
        now - timedelta(days=window_days)
        if window_days is not None
        else audit_policy(project).active_window_start(now)
    )
    result, bad = summarize(
        project.audit.rows(),
        ledger=rollover_store(project).load(),
        anchor=project.journal,
        files_state=files_states(project),
        window_start=start,
        window_end=now,
    )
    if bad:
        result.quarantined = quarantine(project).add(bad, now)
    return result
