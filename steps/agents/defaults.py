"""The ``agents`` policy's shipped defaults as plain values, for the hook.

The hook reads these instead of loading the policy machinery when the project
has no ``.vibflow/policy.yaml`` (pydantic and the YAML reader alone take more
than its time budget). ``tests/steps/agents/test_policy.py`` pins them to
``policies/agents.yaml`` and :class:`~vibflow.steps.agents.policy.AgentsPolicy`.
"""

from __future__ import annotations

from typing import Any

DEFAULTS: dict[str, Any] = {
    "timeout": 10.0,
    "keep_sessions": 10,
    "keep_days": 7,
    "max_turns": 2000,
    "keep_records_days": 90,
}
