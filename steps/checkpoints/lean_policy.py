"""The checkpoint policy as plain values, for the agent hook's lean checkpoint path.

:class:`~.models.CheckpointPolicy` is a pydantic model; the turn-start hook
cannot afford pydantic's import, so :mod:`.quick` reads the same settings
from this frozen dataclass: the shipped defaults, or the project's own policy
copied over (:meth:`LeanPolicy.from_policy`) when the hook has loaded it.
``tests/steps/checkpoints/test_quick_checkpoints.py`` pins the defaults and the
fingerprint to the pydantic ones.
"""

from __future__ import annotations

import json
from typing import Any

from vibflow.steps.checkpoints.secret_names import DEFAULT_SECRET_ALLOW, DEFAULT_SECRET_NAMES


class LeanPolicy:
    """The parts of ``recovery.checkpoints`` a turn checkpoint applies, as plain
    values; :meth:`from_policy` reads them off the pydantic policy when the
    project has its own (a test pins the defaults to the shipped ones). A plain
    class: building a dataclass costs about a millisecond of the hook's start."""

    def __init__(
        self,
        *,
        size_cap_bytes: int = 5 * 1024 * 1024,
        keep_last: int = 50,
        keep_days: int = 14,
        protect_sandwiches: int = 5,
        names: tuple[str, ...] = DEFAULT_SECRET_NAMES,
        extra_names: tuple[str, ...] = (),
        allow: tuple[str, ...] = DEFAULT_SECRET_ALLOW,
        scan_content: bool = True,
        scan_max_kb: int = 256,
        scan_budget_mb: float = 4.0,
        scan_generic: bool = False,
    ) -> None:
        self.size_cap_bytes = size_cap_bytes
        self.keep_last = keep_last
        self.keep_days = keep_days
        self.protect_sandwiches = protect_sandwiches
        self.names = names
        self.extra_names = extra_names
        self.allow = allow
        self.scan_content = scan_content
        self.scan_max_kb = scan_max_kb
        self.scan_budget_mb = scan_budget_mb
        self.scan_generic = scan_generic

    @classmethod
    def from_policy(cls, policy: Any) -> LeanPolicy:
        s = policy.secrets
        return cls(
            size_cap_bytes=policy.size_cap_bytes,
            keep_last=policy.keep_last,
            keep_days=policy.keep_days,
            protect_sandwiches=policy.protect_sandwiches,
            names=tuple(s.names),
            extra_names=tuple(s.extra_names),
            allow=tuple(s.allow),
            scan_content=s.scan_content,
            scan_max_kb=s.scan_max_kb,
            scan_budget_mb=s.scan_budget_mb,
            scan_generic=s.scan_generic,
        )

    @classmethod
    def from_dump(cls, data: dict[str, Any]) -> LeanPolicy:
        """From ``CheckpointPolicy.model_dump(mode="json")`` (as the hook caches it)."""
        s = data["secrets"]
        return cls(
            size_cap_bytes=int(data["untracked_size_cap_mb"] * 1024 * 1024),
            keep_last=data["keep_last"],
            keep_days=data["keep_days"],
            protect_sandwiches=data["protect_sandwiches"],
            names=tuple(s["names"]),
            extra_names=tuple(s["extra_names"]),
            allow=tuple(s["allow"]),
            scan_content=s["scan_content"],
            scan_max_kb=s["scan_max_kb"],
            scan_budget_mb=s["scan_budget_mb"],
            scan_generic=s["scan_generic"],
        )

    @property
    def fingerprint(self) -> str:
        """:meth:`~.models.SecretFilesPolicy.fingerprint`, computed the same way."""
        dumped = {
            "names": list(self.names),
            "extra_names": list(self.extra_names),
            "allow": list(self.allow),
            "scan_content": self.scan_content,
            "scan_max_kb": self.scan_max_kb,
            "scan_budget_mb": float(self.scan_budget_mb),
            "scan_generic": self.scan_generic,
        }
        return json.dumps(dumped, sort_keys=True)


class Unsupported(Exception):
    """The lean path cannot vouch for this checkpoint: take it with the full store."""
