"""Build the capability-grant service over one project's state folder, audit and
redaction (part of the composition root, kept apart so ``wiring`` stays small)."""

from __future__ import annotations

import getpass
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vibflow.steps.grants.service import GrantService
    from vibflow.wiring import Project


def grant_service(project: Project) -> GrantService:
    """Grants in ``.vibflow/grants.json``; every change writes one count-only audit row."""
    from vibflow.engine.clock import system_clock
    from vibflow.steps.grants.service import GrantService
    from vibflow.steps.grants.store import GrantStore

    def audit(event: str, grant_id: str, counts: Mapping[str, int]) -> None:
        from vibflow.engine.audit import RedactionCounts

        project.audit.append(
            event,
            result="ok",
            capability_grant_id=grant_id,
            redaction=RedactionCounts(**counts) if any(counts.values()) else None,
        )

    return GrantService(
        GrantStore(project.state_dir, clock=system_clock),
        audit=audit,
        redact=project.redact_text,
        clock=system_clock,
        user=_user,
    )


def _user() -> str | None:
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return None
