"""What a tool's handler is given and what it gives back: the contract between the
server's boundary and the handlers (``handlers.py``, ``apply.py``).

A :class:`Call` carries a fresh project for the server's own root and client and
the validated input; a :class:`Reply` the data (redacted later, at the boundary,
with everything else that leaves) and count-only facts for the audit row.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vibflow.wiring import Project


@dataclass(frozen=True)
class Call:
    project: Project
    client: str
    args: Any  # the tool's schemas.ToolInput model, validated
    grant_id: str | None = None


@dataclass
class Reply:
    data: dict[str, Any]
    #: Count-only facts for the request's audit row (paths_count, run_id, result ...).
    facts: dict[str, Any] = field(default_factory=dict)
    #: Top-level keys of ``data`` whose values the service already passed through the
    #: redaction contract (the advisor's plan): not redacted twice. The fail-closed
    #: absolute-path check still reads all of ``data``.
    redacted: frozenset[str] = frozenset()
    #: Work that only the answer's later readers need (recording the preview): run by
    #: the server after the answer is audited, in order, off the answer's path.
    after: Callable[[], object] | None = None
