"""Guards the engine ships because every flow may need them.

``feature_flag: NAME`` passes only when the environment variable
``VIBFLOW_NAME`` is ``1``/``true``/``yes``/``on``. The environment is the
*only* flag path: a flag-like field in a request or input is never consulted.
"""

from __future__ import annotations

import re

from vibflow.engine.flags import flag_enabled
from vibflow.engine.kinds import GuardParam
from vibflow.engine.registry import GuardContext, GuardFamily, GuardResult, GuardSpec, Registry

#: ``flag_enabled`` lives in ``flags`` (read-only commands read it without the
#: registry) and is still importable from here.
__all__ = ["feature_flag", "flag_enabled", "register"]

_FLAG = re.compile(r"^[A-Z][A-Z0-9_]{0,63}$")


def feature_flag(ctx: GuardContext, param: GuardParam) -> GuardResult:
    name = str(param or "").upper()
    if not _FLAG.match(name):
        return GuardResult.refuse("the feature flag guard names no valid flag")
    if flag_enabled(ctx.env, name):
        return GuardResult.ok()
    return GuardResult.refuse(
        f"this action is switched off; set VIBFLOW_{name}=1 in the environment to enable it"
    )


def register(registry: Registry) -> None:
    registry.add_guard(
        GuardSpec(
            "feature_flag",
            feature_flag,
            GuardFamily.FEATURE_FLAG,
            param="required",
            description="passes when the environment variable VIBFLOW_<NAME> is 1/true/yes/on",
        )
    )
