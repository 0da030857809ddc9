"""The domain: step functions, guards and the services they call.

One subpackage per concept. :func:`register` adds everything the domain
offers to an engine registry. What the verifier needs — names, what a step
mutates, a guard's family — is declared here as data. Each step and guard is a
method of a small class built with exactly the services it uses; the class's
module is imported, and the class built, only when one of its steps or guards
first runs, so commands that never run a flow (``runs list``, ``recap``) stay
fast to start and never build the services.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from vibflow.engine.errors import ErrorCode, VibflowError

if TYPE_CHECKING:
    from vibflow.engine.registry import Registry
    from vibflow.steps.recovery.services import RecoveryServices

RecoveryProvider = Callable[[], "RecoveryServices"]


def _no_project() -> RecoveryServices:
    raise VibflowError(
        ErrorCode.INTERNAL,
        "this step needs a project, and the registry was built without one",
    )


def _recover_steps(svc: RecoveryServices) -> Any:
    from vibflow.steps.recovery.flow_steps import RecoverSteps

    return RecoverSteps(svc.advisor, svc.memory, svc.plans)


def _restore_steps(svc: RecoveryServices) -> Any:
    from vibflow.steps.recovery.apply_steps import RestoreSteps

    return RestoreSteps(svc)


def _review_steps(svc: RecoveryServices) -> Any:
    from vibflow.engine.clock import system_clock
    from vibflow.steps.memory.review_marks import ReviewMarks
    from vibflow.steps.memory.review_steps import ReviewSteps

    if svc.memory is None or svc.state_dir is None:
        raise VibflowError(ErrorCode.INTERNAL, "the memory review needs the project's memory")
    return ReviewSteps(svc.memory, ReviewMarks(svc.state_dir / "recovery"), system_clock)


def _prepare_steps(svc: RecoveryServices) -> Any:
    from vibflow.steps.recovery.restore_steps import PrepareSteps

    return PrepareSteps(svc)


def _rewind_steps(svc: RecoveryServices) -> Any:
    from vibflow.steps.agents.records import AgentRecords
    from vibflow.steps.agents.rewind_steps import RewindSteps

    if svc.state_dir is None:
        raise VibflowError(ErrorCode.INTERNAL, "a rewind needs the project's agent records")
    return RewindSteps(svc, AgentRecords(svc.state_dir / "agents.db"))


class _Binder:
    """Builds one domain class from the services on first use, then hands out its
    bound methods; the services provider runs at most once per command."""

    def __init__(
        self, provider: RecoveryProvider, build: Callable[[RecoveryServices], Any]
    ) -> None:
        self._provider = provider
        self._build = build
        self._instance: Any = None

    def method(self, name: str) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            if self._instance is None:
                self._instance = self._build(self._provider())
            return getattr(self._instance, name)(*args)

        call.__name__ = call.__qualname__ = name
        return call


def register(registry: Registry, recovery: RecoveryProvider | None = None) -> None:
    """Register the domain's steps and guards, bound to ``recovery``'s services.

    Without a provider (checking or drawing flows outside a project) the steps
    and guards are declared but refuse to run.
    """
    # Imported here, not with the package: every ``vibflow.steps.*`` import runs
    # this package first, and the agent hook (which never registers a flow)
    # cannot afford the registry's imports (~30 ms).
    from vibflow.engine.kinds import Mutation
    from vibflow.engine.registry import GuardFamily, GuardSpec, StepSpec

    provider = recovery or _no_project
    flow = _Binder(provider, _recover_steps)
    restore = _Binder(provider, _restore_steps)
    prepare = _Binder(provider, _prepare_steps)
    review = _Binder(provider, _review_steps)
    rewind = _Binder(provider, _rewind_steps)
    steps = [
        (
            "recovery.explain",
            flow,
            "explain",
            Mutation.NONE,
            "what changed, the intent zone and drift candidates",
        ),
        ("recovery.recommend", flow, "recommend", Mutation.NONE, "pick the safest useful option"),
        (
            "recovery.preview",
            flow,
            "preview",
            Mutation.NONE,
            "what each option would change; recorded and audited",
        ),
        ("recovery.result", flow, "result", Mutation.NONE, "the outcome and what to do next"),
        ("recovery.route", restore, "route", Mutation.NONE, "send restore choices to the sandwich"),
        (
            "checkpoints.sandwich",
            restore,
            "sandwich",
            Mutation.CHECKPOINT_ONLY,
            "the safety checkpoint taken right before confirmation",
        ),
        (
            "restore.prepare",
            prepare,
            "restore",
            Mutation.NONE,
            "what restoring files from a checkpoint would write and delete",
        ),
        (
            "undo.prepare",
            prepare,
            "undo",
            Mutation.NONE,
            "what undoing a finished restore would write and delete",
        ),
        (
            "rewind.prepare",
            rewind,
            "prepare",
            Mutation.NONE,
            "what putting the tree back to before an agent turn would write and delete",
        ),
        (
            "recovery.apply",
            restore,
            "apply",
            Mutation.FILES,
            "restore the confirmed files, file by file, under the lease",
        ),
    ]
    steps += [
        ("memory_review.gather", review, "gather", Mutation.NONE, "what memory proposes"),
        (
            "memory_review.accept",
            review,
            "accept",
            Mutation.MEMORY,
            "write one proposal through the memory write gate",
        ),
        (
            "memory_review.edit",
            review,
            "edit",
            Mutation.MEMORY,
            "write one proposal, with your text, through the write gate",
        ),
        (
            "memory_review.dismiss",
            review,
            "dismiss",
            Mutation.MEMORY,
            "remember that a proposal was dismissed",
        ),
        (
            "memory_review.snooze",
            review,
            "snooze",
            Mutation.MEMORY,
            "put a proposal off until tomorrow",
        ),
        ("memory_review.result", review, "result", Mutation.NONE, "what the review changed"),
    ]
    for name, binder, method, mutates, text in steps:
        # Every domain step is safe to re-run after a crash: the apply skips
        # files already equal to the checkpoint, the others only read.
        registry.add_step(
            StepSpec(
                name,
                binder.method(method),
                mutates,
                idempotent=True,
                description=text,
                # An aborted restore's temp files go with it (runs abort).
                abort=binder.method("abandon") if name == "recovery.apply" else None,
            )
        )
    guards: list[tuple[str, _Binder, GuardFamily, str | None]] = [
        ("option_available", flow, GuardFamily.GENERIC, None),
        ("memory_free", restore, GuardFamily.GENERIC, None),
        ("confirmation_matches", restore, GuardFamily.CONFIRMATION, None),
        ("grant", restore, GuardFamily.GRANT, None),
        ("lock_acquired", restore, GuardFamily.LOCK, "release_lock"),
        ("sandwich_present", restore, GuardFamily.SANDWICH, None),
        ("paths_valid", restore, GuardFamily.PATH_CONTRACT, None),
    ]
    for name, binder, family, release in guards:
        registry.add_guard(
            GuardSpec(
                name,
                binder.method(name),
                family,
                param="required" if name == "grant" else "none",
                release=binder.method(release) if release else None,
            )
        )


__all__ = ["RecoveryProvider", "register"]
