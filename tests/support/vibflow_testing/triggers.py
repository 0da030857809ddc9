"""A trigger service over real files in a temp folder, with in-memory facts and a
clock the test moves (our own seams; no git, filesystem or SQLite is faked)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from vibflow.engine.audit import AuditLog, TriggerRef
from vibflow.engine.clock import stamp
from vibflow.steps.memory.facts import FileTime
from vibflow.steps.memory.freshness import assess
from vibflow.steps.memory.models import MemoryState
from vibflow.steps.memory.policy import MemoryPolicy
from vibflow.steps.triggers.baseline import Baseline
from vibflow.steps.triggers.metrics import MetricInputs
from vibflow.steps.triggers.policy import TriggersPolicy
from vibflow.steps.triggers.service import TriggerService
from vibflow.steps.triggers.session import Action, SessionFile

T0 = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def shipped_policy() -> TriggersPolicy:
    from importlib.resources import files

    from vibflow.engine.yamlsource import parse_yaml

    text = files("vibflow.policies").joinpath("triggers.yaml").read_text("utf-8")
    doc = parse_yaml(text, "triggers.yaml")
    return TriggersPolicy.model_validate(doc.data["triggers"])


#: A file time after any verification a test records (the year 2100, in ns).
_FAR_FUTURE_NS = 4_102_444_800 * 1_000_000_000


@dataclass
class Facts:
    """Repository facts as data."""

    commits: int | None = 0
    lines: int | None = 0
    missing: set[str] = field(default_factory=set)
    changed: set[str] = field(default_factory=set)

    def head(self) -> str | None:
        return "a" * 40

    def commits_since(self, sha: str) -> int | None:
        del sha
        return self.commits

    def diff_lines_since(self, sha: str) -> int | None:
        del sha
        return self.lines

    def exists(self, path: str) -> bool | None:
        return path not in self.missing

    def close(self) -> None:
        pass

    def file_times(self, paths: Sequence[str]) -> list[FileTime]:
        """A changed path changed long after any verification; the others long before."""
        return [FileTime(p, _FAR_FUTURE_NS if p in self.changed else 0) for p in paths]


@dataclass
class Turns:
    outside: int | None

    def files_outside_zone_in_last_turn(self) -> int | None:
        return self.outside


@dataclass
class Handoffs:
    without_next: bool | None

    def handoff_without_next_action(self, since: datetime) -> bool | None:
        del since
        return self.without_next


@dataclass
class World:
    """The state a test arranges; the service reads it on each call."""

    folder: Path
    now: datetime = T0
    state: MemoryState = field(default_factory=MemoryState)
    facts: Facts = field(default_factory=Facts)
    turns: Turns | None = None
    handoffs: Handoffs | None = None
    agent_session: str | None = None
    policy: TriggersPolicy = field(default_factory=shipped_policy)

    @property
    def audit_path(self) -> Path:
        return self.folder / "audit.jsonl"

    def audit(self) -> AuditLog:
        return AuditLog(self.audit_path, project_root_hash="0" * 64, clock=lambda: self.now)

    def service(self) -> TriggerService:
        def inputs(now: datetime, started: datetime) -> MetricInputs:
            found = MetricInputs(
                now=now,
                session_started=started,
                memory=lambda: self.state,
                freshness=lambda: assess(found.state(), self.facts, MemoryPolicy(), now=now),
                repo=self.facts,
                turns=self.turns,
                handoffs=self.handoffs,
            )
            return found

        log = self.audit()

        def record(rows: Sequence[tuple[str, Action, str]]) -> None:
            log.append_many(
                [("trigger", {"trigger": TriggerRef(id=t, action=a, source=s)}) for t, a, s in rows]
            )

        return TriggerService(
            self.policy,
            inputs=inputs,
            sessions=SessionFile(self.folder / "recovery"),
            baseline=Baseline(self.folder / "recovery", self.audit_path),
            audit=record,
            clock=lambda: self.now,
            agent_session=lambda: self.agent_session,
        )

    def later(self, **delta: float) -> None:
        self.now += timedelta(**delta)


def ago(now: datetime, **delta: float) -> str:
    return stamp(now - timedelta(**delta))
