"""Feature flags: whether ``VIBFLOW_<NAME>`` is switched on in an environment.

The one reading of a flag, apart from the guard that refuses on it
(``builtin_guards``): a read-only command asks whether restores are switched
on without loading the step and guard registry.
"""

from __future__ import annotations

from collections.abc import Mapping

_TRUTHY = frozenset({"1", "true", "yes", "on"})


def flag_enabled(env: Mapping[str, str], name: str) -> bool:
    """Is ``VIBFLOW_<NAME>`` switched on? The one reading of a feature flag."""
    return env.get(f"VIBFLOW_{name.upper()}", "").strip().lower() in _TRUTHY
