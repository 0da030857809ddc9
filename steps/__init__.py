"""The domain: step functions, guards and the services they call.

One subpackage per concept. :func:`register` adds everything the domain
offers to an engine registry; the front door calls it once per process.
"""

from __future__ import annotations

from vibflow.engine.registry import Registry


def register(registry: Registry) -> None:
    """Register the domain's steps and guards."""
    from vibflow.steps.recovery import apply_steps, flow_steps

    flow_steps.register(registry)
    apply_steps.register(registry)
