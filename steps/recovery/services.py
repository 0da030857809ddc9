"""What the recover flow's steps and guards use, as one typed object.

The front door builds it once per command (the checkpoint store, the lease
file, the advisor, memory, the restore jobs, the run plans, the path contract and the tool
identity of this project) and hands it to :func:`vibflow.steps.register`,
which binds each step and guard to exactly the parts it uses. No step reaches
back into the front door, and nothing here is looked up by name at run time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vibflow.steps.checkpoints.store import CheckpointStore
    from vibflow.steps.grants.capabilities import Lapsed
    from vibflow.steps.memory.service import MemoryService
    from vibflow.steps.recovery.advisor import RecoveryAdvisor
    from vibflow.steps.recovery.job import RestoreJobs
    from vibflow.steps.recovery.lease import LeaseFile
    from vibflow.steps.recovery.memory_boundary import MemoryActionCheck
    from vibflow.steps.recovery.plans import RunPlans

#: The path contract for this caller: raw paths in, project-relative paths out,
#: a ``VibflowError`` naming the rule for a path that breaks one.
NormalizePaths = Callable[[Iterable[str]], list[str]]
#: (capability, client) -> the id of the grant in force that allows it, or None.
GrantCheck = Callable[[str, str], "str | None"]
GrantLapsed = Callable[[str, str], "Lapsed"]


@dataclass(frozen=True)
class RecoveryServices:
    root: Path
    checkpoints: CheckpointStore
    lease_file: LeaseFile
    advisor: RecoveryAdvisor
    memory: MemoryService | None
    jobs: RestoreJobs
    #: The whole plan each recover run showed (its context only counts paths).
    plans: RunPlans
    normalize_paths: NormalizePaths
    #: Who is calling (``cli``, or an MCP client's configured name): the grant
    #: guard lets only the local CLI through without a grant.
    tool: str
    #: ``.vibflow/`` of this project (review marks and other records beside memory).
    state_dir: Path | None = None
    #: The project's capability grants (``vibflow grant``); None: nothing is granted.
    grants: GrantCheck | None = None
    #: The memory→action check run before every apply (None: not checked, no row).
    memory_check: MemoryActionCheck | None = None
    #: Why a client has no grant in force (expired, revoked, never): what the grant
    #: guard's refusal says. None: "never granted" is assumed.
    grant_lapsed: GrantLapsed | None = None
