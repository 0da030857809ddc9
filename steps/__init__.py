"""The domain: step functions, guards and the services they call.

One subpackage per concept. :func:`register` adds everything the domain
offers to an engine registry. What the verifier needs — names, what a step
mutates, a guard's family — is declared here as data; each function's module
is imported only when the step or guard first runs, so commands that never
run a flow (``runs list``, ``recap``) stay fast to start.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from vibflow.engine.kinds import Mutation
from vibflow.engine.registry import GuardFamily, GuardSpec, Registry, StepSpec

_FLOW = "vibflow.steps.recovery.flow_steps"
_APPLY = "vibflow.steps.recovery.apply_steps"


def _lazy(module: str, name: str) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    return call


def register(registry: Registry) -> None:
    """Register the domain's steps and guards."""
    steps = [
        (
            "recovery.explain",
            _FLOW,
            "explain",
            Mutation.NONE,
            "what changed, the intent zone and drift candidates",
        ),
        ("recovery.recommend", _FLOW, "recommend", Mutation.NONE, "pick the safest useful option"),
        (
            "recovery.preview",
            _FLOW,
            "preview",
            Mutation.NONE,
            "what each option would change; recorded and audited",
        ),
        ("recovery.result", _FLOW, "result", Mutation.NONE, "the outcome and what to do next"),
        ("recovery.route", _APPLY, "route", Mutation.NONE, "send restore choices to the sandwich"),
        (
            "checkpoints.sandwich",
            _APPLY,
            "sandwich",
            Mutation.CHECKPOINT_ONLY,
            "the safety checkpoint taken right before confirmation",
        ),
        (
            "recovery.apply",
            _APPLY,
            "apply",
            Mutation.FILES,
            "restore the confirmed files, file by file, under the lease",
        ),
    ]
    for name, module, fn, mutates, text in steps:
        # Every domain step is safe to re-run after a crash: the apply skips
        # files already equal to the checkpoint, the others only read.
        registry.add_step(
            StepSpec(name, _lazy(module, fn), mutates, idempotent=True, description=text)
        )
    guards: list[tuple[str, str, str, GuardFamily, Any]] = [
        ("option_available", _FLOW, "option_available", GuardFamily.GENERIC, None),
        ("confirmation_matches", _APPLY, "confirmation_matches", GuardFamily.CONFIRMATION, None),
        ("grant", _APPLY, "grant", GuardFamily.GRANT, None),
        ("lock_acquired", _APPLY, "lock_acquired", GuardFamily.LOCK, _lazy(_APPLY, "release_lock")),
        ("sandwich_present", _APPLY, "sandwich_present", GuardFamily.SANDWICH, None),
        ("paths_valid", _APPLY, "paths_valid", GuardFamily.PATH_CONTRACT, None),
    ]
    for name, module, fn, family, release in guards:
        registry.add_guard(
            GuardSpec(
                name,
                _lazy(module, fn),
                family,
                param="required" if name == "grant" else "none",
                release=release,
            )
        )
