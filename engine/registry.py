"""Registries say what exists: steps and guards, by name.

A flow may only name steps and guards registered here; the verifier fails a
flow at load time with the nearest registered names otherwise. A step declares
what it mutates (the flow's ``mutates:`` is checked against it, never trusted),
and whether it is safe to re-run after a crash. A guard declares its *family*
(feature flag, grant, lock, sandwich, path contract, confirmation), which is
what the trusted-shape rule of the verifier reasons about.
"""

from __future__ import annotations

import difflib
import enum
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.kinds import FinalStatus, GuardParam, Mutation


class GuardFamily(enum.StrEnum):
    GENERIC = "generic"
    FEATURE_FLAG = "feature_flag"
    GRANT = "grant"
    LOCK = "lock"
    SANDWICH = "sandwich"
    PATH_CONTRACT = "path_contract"
    CONFIRMATION = "confirmation"


class ItemProgress(Protocol):
    """Per-item progress of a ``resumable: per_item`` step."""

    def is_done(self, key: str) -> bool: ...

    def mark_done(self, key: str) -> None: ...

    def finish(self, key: str) -> None:
        """The item is done but recorded later, with others (:meth:`flush`, or when
        the step returns). Only for items whose redo is harmless: a crash before the
        flush makes resume run them again."""
        ...

    def flush(self) -> None: ...

    def pending(self, keys: Iterable[str]) -> Iterator[str]: ...


@dataclass(frozen=True)
class StepContext:
    """What a step sees. ``context`` is a read-only snapshot of the run."""

    run_id: str
    flow: str
    state: str
    context: Mapping[str, Any]
    project_root: Path
    progress: ItemProgress
    attempt: int = 1
    dry_run: bool = False


@dataclass(frozen=True)
class StepResult:
    """A step's outcome: the event to fire, and what to remember.

    ``outcome`` is a short, count-only note for the journal (never file
    contents or paths). ``audit`` carries count-only audit facts (see
    ``audit.AuditFacts``) for the transition's audit row.
    """

    event: str = "done"
    outcome: str = ""
    context: Mapping[str, Any] = field(default_factory=dict)
    status: FinalStatus | None = None
    audit: Mapping[str, Any] = field(default_factory=dict)


StepFn = Callable[[StepContext], "StepResult | str"]
ReconcileFn = Callable[[StepContext], "StepResult | None"]
AbortFn = Callable[[StepContext], "str | None"]


@dataclass(frozen=True)
class StepSpec:
    """A registered step.

    ``idempotent`` steps are re-run after a crash; otherwise ``reconcile`` (if
    given) inspects the world and returns the outcome the interrupted attempt
    reached, or ``None`` to re-run. Neither ⇒ resume must ask the user.
    """

    name: str
    fn: StepFn
    mutates: Mutation = Mutation.NONE
    idempotent: bool = False
    reconcile: ReconcileFn | None = None
    description: str = ""
    #: Cleans up after an attempt that will never be resumed, when the run is
    #: aborted while in this step (a killed restore's temp files); returns a
    #: short, count-only note for the journal, or None.
    abort: AbortFn | None = None

    @property
    def safe_to_rerun(self) -> bool:
        return self.idempotent or self.reconcile is not None


@dataclass(frozen=True)
class GuardContext:
    run_id: str
    flow: str
    source: str
    event: str
    target: str
    context: Mapping[str, Any]
    inputs: Mapping[str, Any]
    project_root: Path
    env: Mapping[str, str]
    dry_run: bool = False


@dataclass(frozen=True)
class GuardResult:
    """``reason`` is plain language for the user and never echoes a raw path
    or value."""

    passed: bool
    reason: str | None = None
    facts: Mapping[str, Any] = field(default_factory=dict)  # count-only, for the audit row

    @classmethod
    def ok(cls, **facts: Any) -> GuardResult:
        return cls(True, None, facts)

    @classmethod
    def refuse(cls, reason: str) -> GuardResult:
        return cls(False, reason)


GuardFn = Callable[[GuardContext, GuardParam], "GuardResult | bool"]
ReleaseFn = Callable[[GuardContext, GuardParam], None]


@dataclass(frozen=True)
class GuardSpec:
    """A registered guard. ``release`` undoes a guard that acquired something
    (a lock) when a later guard on the same transition refuses."""

    name: str
    fn: GuardFn
    family: GuardFamily = GuardFamily.GENERIC
    param: Literal["none", "required", "optional"] = "none"
    release: ReleaseFn | None = None
    description: str = ""


class Registry:
    """Steps and guards by name. Built once per process by the front door."""

    def __init__(self) -> None:
        self._steps: dict[str, StepSpec] = {}
        self._guards: dict[str, GuardSpec] = {}
        self._apply_flags: set[str] = set()

    def allow_apply_flag(self, name: str) -> None:
        """Declare ``name`` a feature flag that may switch on a state that changes
        files (the domain declares its one flag; the verifier refuses any other)."""
        self._apply_flags.add(name)

    @property
    def apply_flags(self) -> frozenset[str]:
        return frozenset(self._apply_flags)

    def add_step(self, spec: StepSpec) -> StepSpec:
        if spec.name in self._steps:
            raise ValueError(f"step {spec.name!r} registered twice")
        self._steps[spec.name] = spec
        return spec

    def add_guard(self, spec: GuardSpec) -> GuardSpec:
        if spec.name in self._guards:
            raise ValueError(f"guard {spec.name!r} registered twice")
        self._guards[spec.name] = spec
        return spec

    def step(
        self,
        name: str,
        *,
        mutates: Mutation = Mutation.NONE,
        idempotent: bool = False,
        reconcile: ReconcileFn | None = None,
        description: str = "",
    ) -> Callable[[StepFn], StepFn]:
        """Decorator form of :meth:`add_step`."""

        def register(fn: StepFn) -> StepFn:
            self.add_step(StepSpec(name, fn, mutates, idempotent, reconcile, description))
            return fn

        return register

    def guard(
        self,
        name: str,
        *,
        family: GuardFamily = GuardFamily.GENERIC,
        param: Literal["none", "required", "optional"] = "none",
        release: ReleaseFn | None = None,
        description: str = "",
    ) -> Callable[[GuardFn], GuardFn]:
        """Decorator form of :meth:`add_guard`."""

        def register(fn: GuardFn) -> GuardFn:
            self.add_guard(GuardSpec(name, fn, family, param, release, description))
            return fn

        return register

    def has_step(self, name: str) -> bool:
        return name in self._steps

    def has_guard(self, name: str) -> bool:
        return name in self._guards

    def get_step(self, name: str) -> StepSpec:
        try:
            return self._steps[name]
        except KeyError:
            raise VibflowError(
                ErrorCode.FLOW_INVALID,
                f"unknown step '{name}'{nearest(name, self._steps)}",
            ) from None

    def get_guard(self, name: str) -> GuardSpec:
        try:
            return self._guards[name]
        except KeyError:
            raise VibflowError(
                ErrorCode.FLOW_INVALID,
                f"unknown guard '{name}'{nearest(name, self._guards)}",
            ) from None

    @property
    def step_names(self) -> list[str]:
        return sorted(self._steps)

    @property
    def guard_names(self) -> list[str]:
        return sorted(self._guards)


def nearest(name: str, known: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` or a list of what exists, for error messages."""
    names = sorted(known)
    close = difflib.get_close_matches(name, names, n=2, cutoff=0.5)
    if close:
        return " (did you mean " + " or ".join(f"'{c}'" for c in close) + "?)"
    if names:
        shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
        return f" (registered: {shown})"
    return " (none are registered)"
