"""Assemble one command's world: the project, its policy, journal, audit, the
domain services and the engine that runs flows over them.

The composition root: the only module that imports both ``engine`` and
``steps`` (together with the CLI/MCP handlers that call it). Everything is
built lazily, once per command, so a command pays only for what it uses
(``runs list`` never builds the checkpoint store or the advisor). Steps and
guards receive typed services (:class:`RecoveryServices`) bound at
registration; nothing is looked up by name at run time.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vibflow.engine.audit import AuditLog, project_root_hash
from vibflow.engine.flags import flag_enabled
from vibflow.engine.journal import Journal
from vibflow.engine.policy import USER_POLICY_DISPLAY, EnginePolicy, PolicySet
from vibflow.registry_wiring import (
    RECOVERY_APPLY_FLAG,
    RegistryHook,
    build_registry,
    policy_sections,
)

if TYPE_CHECKING:
    # Imported where used: commands that never load or run a flow (checkpoint,
    # memory, recover --explain) then never build the flow models.
    from vibflow.engine.audit_retention import Retention
    from vibflow.engine.catalog import FlowCatalog
    from vibflow.engine.registry import Registry
    from vibflow.engine.runner import Runner
    from vibflow.paths_wiring import ProjectPaths
    from vibflow.steps.agents.policy import AgentsPolicy
    from vibflow.steps.agents.records import AgentRecords
    from vibflow.steps.checkpoints.store import CheckpointStore
    from vibflow.steps.grants.capabilities import Lapsed
    from vibflow.steps.grants.service import GrantService
    from vibflow.steps.handoff.service import HandoffService
    from vibflow.steps.memory.service import MemoryService
    from vibflow.steps.recovery.advisor import RecoveryAdvisor
    from vibflow.steps.recovery.early_listing import Listing
    from vibflow.steps.recovery.git_memo import AdviceCache
    from vibflow.steps.recovery.lease import LeaseFile
    from vibflow.steps.recovery.memory_boundary import MemoryActionCheck
    from vibflow.steps.recovery.plans import RunPlans
    from vibflow.steps.recovery.policy import RecoveryPolicy
    from vibflow.steps.recovery.services import RecoveryServices
    from vibflow.steps.redaction.objects import KnownObjects
    from vibflow.steps.redaction.scans import ScanMemo
    from vibflow.steps.redaction.verdicts import KnownClean
    from vibflow.steps.triggers.policy import TriggersPolicy
    from vibflow.steps.triggers.repo import GitDiffFacts
    from vibflow.steps.triggers.service import TriggerService
    from vibflow.triggers_wiring import MemoryFacts


def _stderr_warning(message: str) -> None:
    print(f"vibflow: warning: {message}", file=sys.stderr)  # noqa: T201 - the default sink


#: Policy keys an override replaces whole: a trigger's condition tree is never
#: merged key by key with the shipped one.
POLICY_ATOMIC = frozenset({"when"})


@dataclass
class Project:
    """Everything one command needs about the project it runs in."""

    root: Path
    registry_hook: RegistryHook | None = None
    env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    tool: str = "cli"
    #: Where a warning goes that the user must see although the command goes on
    #: (a damaged journal backed up and started afresh).
    warn: Callable[[str], None] = field(default=_stderr_warning)
    #: A dry run writes nothing, caches included (``run --dry-run`` sets it).
    dry_running: bool = False
    #: The command changes neither the work tree nor memory (``recap``): memory, its
    #: freshness and git's counts since the intent are read once and shared by all
    #: it shows. Left False, every trigger evaluation reads them afresh.
    steady: bool = False
    #: A journal opened once by a long-lived process (the MCP server keeps one per
    #: worker thread) instead of one per command; :meth:`close` leaves it open.
    shared_journal: Journal | None = None
    #: Likewise the policy, when the long-lived process knows the files are unchanged.
    shared_policy: PolicySet | None = None
    #: What a long-lived process keeps for the advisor between requests (answers no
    #: change can alter: ``steps/recovery/git_memo``); None: computed afresh.
    advice_cache: AdviceCache | None = None
    #: The redaction contract's per-text verdicts a long-lived process keeps
    #: (``steps/redaction/scans``); None: every payload is judged afresh.
    scan_memo: ScanMemo | None = None
    #: The git listings a fresh ``recover`` started before loading vibflow, for its advisor.
    early_listing: Listing | None = None

    @classmethod
    def discover(
        cls,
        start: Path,
        registry_hook: RegistryHook | None = None,
        *,
        tool: str = "cli",
        warn: Callable[[str], None] | None = None,
    ) -> Project:
        from vibflow.steps.workspace.root import find_root

        project = cls(find_root(start), registry_hook, tool=tool)
        if warn is not None:
            project.warn = warn
        return project

    def close(self) -> None:
        """Release what this project opened (the journal's connection): a long-lived
        process (the MCP server) builds one project per request and closes it."""
        journal = self.__dict__.get("journal")
        if journal is not None and journal is not self.shared_journal:
            journal.close()

    @cached_property
    def registry(self) -> Registry:
        return build_registry(self.registry_hook, recovery=lambda: self.recovery_services)

    @cached_property
    def state_dir(self) -> Path:
        from vibflow.steps.workspace.root import state_dir

        return state_dir(self.root)

    @cached_property
    def catalog(self) -> FlowCatalog:
        from vibflow.engine.catalog import FlowCatalog

        return FlowCatalog(
            self.registry,
            builtin=files("vibflow.flows"),
            project_dir=self.root / ".vibflow" / "flows",
        )

    @cached_property
    def policy(self) -> PolicySet:
        """The project's policy, every section checked at once: each command
        refuses a broken policy the same way, before it does anything."""
        if self.shared_policy is not None:
            return self.shared_policy
        return PolicySet(
            files("vibflow.policies"),
            self.root / ".vibflow" / "policy.yaml",
            sections=policy_sections,
            atomic=POLICY_ATOMIC,
        )

    def shipped_policy(self) -> PolicySet:
        """The shipped policy alone, as if the project had no policy file. Only for
        what must happen although the project's own policy cannot be read: the MCP
        server's audit row of an answer that refused the broken policy."""
        return PolicySet(
            files("vibflow.policies"), None, sections=policy_sections, atomic=POLICY_ATOMIC
        )

    def policy_from(self, text: str, display: str = USER_POLICY_DISPLAY) -> PolicySet:
        """The policy this project would have with ``text`` as its own file
        (every section checked: raises with every problem at once)."""
        return PolicySet(
            files("vibflow.policies"),
            None,
            sections=policy_sections,
            atomic=POLICY_ATOMIC,
            user_display=display,
            user_text=text,
        )

    @cached_property
    def engine_policy(self) -> EnginePolicy:
        return self.policy.section("engine", EnginePolicy)

    @cached_property
    def journal(self) -> Journal:
        if self.shared_journal is not None:
            return self.shared_journal
        return Journal(
            self.state_dir / "runs.db",
            synchronous=self.engine_policy.journal.synchronous,
            on_recovered=self.warn,
        )

    @cached_property
    def audit(self) -> AuditLog:
        """The audit log; it rolls over on its own at the policy's age or size."""
        from vibflow import audit_wiring

        return AuditLog(
            self.state_dir / "audit.jsonl",
            project_root_hash=project_root_hash(self.root),
            tool=self.tool,
            anchor=lambda: self.journal,
            rollovers=lambda: audit_wiring.rollover_store(self),
            after_append=lambda size: audit_wiring.roll_if_due(self, size),
        )

    @cached_property
    def audit_retention(self) -> Retention:
        from vibflow import audit_wiring

        return audit_wiring.retention(self)

    @cached_property
    def recovery_policy(self) -> RecoveryPolicy:
        from vibflow.steps.recovery.policy import RecoveryPolicy

        return self.policy.section("recovery", RecoveryPolicy)

    @cached_property
    def lease_file(self) -> LeaseFile:
        from vibflow.steps.recovery.lease import LeaseFile

        return LeaseFile(
            self.state_dir / "recovery", ttl_seconds=self.recovery_policy.lease_seconds
        )

    @cached_property
    def checkpoints(self) -> CheckpointStore:
        from vibflow.agent_wiring import turn_pins
        from vibflow.steps.checkpoints.store import CheckpointStore

        return CheckpointStore(
            self.root, self.state_dir, self.recovery_policy.checkpoints, pins=turn_pins(self)
        )

    @cached_property
    def agents_policy(self) -> AgentsPolicy:
        from vibflow.steps.agents.policy import SECTION, AgentsPolicy

        return self.policy.section(SECTION, AgentsPolicy)

    @cached_property
    def agent_records(self) -> AgentRecords:
        """Agent sessions and turns (``.vibflow/agents.db``), opened on first use."""
        from vibflow.steps.agents.records import AgentRecords

        return AgentRecords(self.state_dir / "agents.db", on_recovered=self.warn)

    def _own_files(self) -> dict[str, str]:
        """The files vibflow wrote that still hold only its change (its agent hooks);
        nothing is loaded unless ``vibflow agent install`` left its record."""
        if not (self.state_dir / "agents" / "installed").is_dir():
            return {}
        from vibflow.steps.agents.settings import installed_only

        return installed_only(self.root, self.state_dir)

    @cached_property
    def recovery(self) -> RecoveryAdvisor:
        """The read-only recovery advisor for this project."""
        from vibflow.agent_wiring import last_turn_note, recorded_turns
        from vibflow.engine.journal import utcnow
        from vibflow.steps.recovery.advisor import RecoveryAdvisor

        return RecoveryAdvisor(
            self.root,
            self.state_dir,
            checkpoints=self.checkpoints,
            memory=self.memory,
            policy=self.recovery_policy,
            generated=self.paths.rules,
            redact_payload=self.redact_payload,
            clock=utcnow,
            apply_enabled=flag_enabled(self.env, RECOVERY_APPLY_FLAG),
            last_turn=last_turn_note(self),
            cache=self.advice_cache,
            own_files=self._own_files,
            turns=recorded_turns(self),
            early=self.early_listing,
        )

    @cached_property
    def run_plans(self) -> RunPlans:
        """The whole plan each recover run showed, kept beside the run."""
        from vibflow.steps.recovery.plans import RunPlans

        return RunPlans(self.state_dir / "recovery" / "plans")

    @cached_property
    def recovery_services(self) -> RecoveryServices:
        """What the recover flow's steps and guards use, built on first use."""
        from vibflow.steps.recovery.job import RestoreJobs
        from vibflow.steps.recovery.services import RecoveryServices

        return RecoveryServices(
            root=self.root,
            checkpoints=self.checkpoints,
            lease_file=self.lease_file,
            advisor=self.recovery,
            memory=self.memory,
            jobs=RestoreJobs(self.state_dir / "recovery" / "jobs"),
            plans=self.run_plans,
            normalize_paths=self.paths.restore_paths,
            tool=self.tool,
            state_dir=self.state_dir,
            grants=self.granted,
            grant_lapsed=self.grant_lapsed,
            memory_check=self.memory_action_check,
        )

    @cached_property
    def memory_action_check(self) -> MemoryActionCheck:
        """The memory→action check every apply passes, audited (memory_action_check rows)."""
        from vibflow.steps.recovery.memory_boundary import MemoryActionCheck

        # The stored text only: freshness (a git call) has no say in what memory wrote.
        return MemoryActionCheck(lambda: self.memory.store.load().state, self.audit.append)

    @cached_property
    def grants(self) -> GrantService:
        """Capability grants for MCP clients (``.vibflow/grants.json``), audited."""
        from vibflow.grants_wiring import grant_service

        return grant_service(self)

    def granted(self, capability: str, client: str) -> str | None:
        """The id of the grant in force letting ``client`` use ``capability`` (None: denied)."""
        found = self.grants.check(capability, client)
        return found.id if found is not None else None

    def grant_lapsed(self, capability: str, client: str) -> Lapsed:
        """Why ``client`` has no grant in force for ``capability`` (expired, revoked, never)."""
        return self.grants.lapsed(capability, client)

    def redact_payload(self, data: Any) -> tuple[Any, dict[str, int]]:
        """``data`` (any JSON-like value) through the redaction contract, with counts."""
        from vibflow.steps.redaction.contract import redact_payload

        red = redact_payload(
            data,
            root=self.root,
            known=self.clean_verdicts,
            memo=self.scan_memo,
            objects=self.object_ids,
        )
        return red.value, red.counts.model_dump()

    @cached_property
    def object_ids(self) -> KnownObjects:
        """Which full-length hex ids name objects of this repository (commit ids the
        redaction contract leaves readable), asked of git once per id and command."""
        from vibflow.engine.errors import VibflowError
        from vibflow.steps.redaction.objects import KnownObjects
        from vibflow.steps.workspace.git import Git

        git = Git(self.root)

        def lookup(names: Collection[str]) -> frozenset[str]:
            try:
                return git.existing_objects(names)
            except VibflowError:  # no answer: the ids stay masked
                return frozenset()

        return KnownObjects(lookup)

    @cached_property
    def clean_verdicts(self) -> KnownClean:
        """Digests of texts the detectors already found clean (skips re-scanning)."""
        from vibflow.steps.redaction.verdicts import VerdictFile

        return VerdictFile(
            self.state_dir / "recovery" / "clean_texts", writable=lambda: not self.dry_running
        )

    @cached_property
    def memory(self) -> MemoryService:
        """The memory service, with this project's facts, paths, redaction and audit."""
        from vibflow.steps.memory.policy import MemoryPolicy
        from vibflow.steps.memory.service import MemoryService
        from vibflow.steps.memory.store import MemoryStore
        from vibflow.steps.workspace.repo_facts import GitRepoFacts

        return MemoryService(
            MemoryStore(self.state_dir / "memory.json"),
            policy=self.policy.section("memory", MemoryPolicy),
            facts=GitRepoFacts(self.root),
            redactor=self.redact_text,
            normalize_path=self.paths.normalize_path,
            audit=self._audit_memory,
        )

    def redact_inputs(self, inputs: Mapping[str, Any]) -> dict[str, Any]:
        """Run inputs through the redaction contract before a run stores them: a
        pasted token is masked, a path inside the project becomes relative."""
        if not inputs:
            return {}  # most runs start without inputs: no detectors loaded for them
        value, _ = self.redact_payload(dict(inputs))
        return dict(value) if isinstance(value, dict) else {}

    def redact_text(self, text: str) -> tuple[str, dict[str, int]]:
        from vibflow.steps.redaction.contract import redact_text

        red = redact_text(text, root=self.root, objects=self.object_ids)
        return str(red.value), red.counts.model_dump()

    @cached_property
    def paths(self) -> ProjectPaths:
        """The path contract as this project applies it (``paths_wiring``)."""
        from vibflow.paths_wiring import ProjectPaths

        return ProjectPaths(self.root, self.policy, self.tool)

    def _audit_memory(self, event: str, result: str, counts: Mapping[str, int]) -> None:
        from vibflow.engine.audit import RedactionCounts

        self.audit.append(
            event,
            result=result,
            redaction=RedactionCounts(**counts) if any(counts.values()) else None,
        )

    @cached_property
    def triggers_policy(self) -> TriggersPolicy:
        from vibflow.steps.triggers.policy import SECTION, TriggersPolicy

        return self.policy.section(SECTION, TriggersPolicy)

    @cached_property
    def triggers(self) -> TriggerService:
        """Nudges: check, show (``triggers.nudges(source)``) and answer triggers."""
        from vibflow.triggers_wiring import trigger_service

        return trigger_service(self)

    @cached_property
    def trigger_repo(self) -> GitDiffFacts:
        from vibflow.steps.triggers.repo import GitDiffFacts

        return GitDiffFacts(self.root, keep=self.steady)

    @cached_property
    def memory_facts(self) -> MemoryFacts:
        """Memory and its freshness as triggers and recaps read them (no write gate)."""
        from vibflow.triggers_wiring import MemoryFacts

        return MemoryFacts(self)

    def start_trigger_check(self) -> None:
        """Start the git work a full ``triggers check`` will need, before anything
        else is loaded (``triggers_wiring.start_check``)."""
        from vibflow.triggers_wiring import start_check

        start_check(self)

    @cached_property
    def handoff(self) -> HandoffService:
        """Handoffs for the next agent or human (the CLI and MCP's ``handoff_export``)."""
        from vibflow.handoff_wiring import handoff_service

        return handoff_service(self)

    @cached_property
    def dry_runner(self) -> Runner:
        """A runner over an in-memory journal and audit: a dry run writes nothing."""
        from vibflow.runner_wiring import dry_runner

        return dry_runner(self)

    def refresh_runs(self) -> None:
        """Bring the latest runs up to date (``Runner.refresh_all``: a run a stopped
        process left behind reads ``interrupted``). The runner — the flow engine
        with every step — is built only when some run needs it, which a listing
        or a recap almost never does."""
        from vibflow.engine.claims import REFRESH_WINDOW, needs_refresh

        if any(needs_refresh(run) for run in self.journal.runs(limit=REFRESH_WINDOW)):
            self.runner.refresh_all()

    @cached_property
    def runner(self) -> Runner:
        """The flow engine over this project's journal and audit, with every step."""
        from vibflow.runner_wiring import runner

        return runner(self)
