"""A grant and the grants file's format: pure data and pure rules.

``.vibflow/grants.json`` holds every grant ever made in the project, revoked
and expired ones included (the history says who allowed what, when): each
with an id ``grt_<32 hex>`` (the audit's ``capability_grant_id``), the tool,
the client it is for (none: any MCP client of this project), who made it and
when, an optional expiry and a reason already redacted. A grant is *in force*
while it is neither revoked nor expired; only in-force grants allow anything.
"""

from __future__ import annotations

import re
import uuid
from datetime import datetime, timedelta
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.factories import empty_list

SCHEMA_VERSION = 1
GRANT_ID = re.compile(r"^grt_[0-9a-f]{32}$")
MAX_REASON = 200
#: The longest a grant may run before it must be made again.
MAX_EXPIRY = timedelta(days=366)
KEEP_HISTORY = 200  # revoked/expired grants kept for the record (in-force ones always)

GrantIdText = Annotated[str, StringConstraints(pattern=GRANT_ID.pattern)]
ClientName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_.-]{0,63}$")]
_UNITS = {"m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
_DURATION = re.compile(r"^\s*(\d{1,6})\s*([mhdw])\s*$")


def new_grant_id() -> str:
    return f"grt_{uuid.uuid4().hex}"


class Grant(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: GrantIdText
    tool: str = Field(pattern=r"^[a-z][a-z0-9_]{0,63}$")
    client: ClientName | None = Field(default=None, description="None: any MCP client")
    granted_at: str
    granted_by: Literal["cli"] = "cli"
    user: str | None = Field(default=None, max_length=64, description="the login that granted it")
    expires_at: str | None = None
    reason: str | None = Field(default=None, max_length=MAX_REASON)
    revoked_at: str | None = None
    #: Who revoked it: the channel (only the local command line revokes) and the login.
    revoked_by: Literal["cli"] | None = None
    revoked_user: str | None = Field(default=None, max_length=64)

    def in_force(self, now: datetime) -> bool:
        if self.revoked_at is not None:
            return False
        return self.expires_at is None or now < datetime.fromisoformat(self.expires_at)

    def covers(self, tool: str, client: str, now: datetime) -> bool:
        return (
            self.tool == tool
            and (self.client is None or self.client == client)
            and self.in_force(now)
        )

    def status(self, now: datetime) -> Literal["active", "revoked", "expired"]:
        if self.revoked_at is not None:
            return "revoked"
        return "active" if self.in_force(now) else "expired"


class GrantsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    schema_version: Literal[1] = 1
    grants: list[Grant] = Field(default_factory=empty_list)


def parse_duration(text: str) -> timedelta:
    """``30m``, ``12h``, ``7d`` or ``2w`` as a duration (at most a year), else bad input."""
    found = _DURATION.fullmatch(text)
    if found is None:
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            "an expiry is a number and a unit: m (minutes), h (hours), d (days) or w (weeks)",
            hint="For example --expires 8h or --expires 7d.",
        )
    span = timedelta(seconds=int(found.group(1)) * _UNITS[found.group(2)])
    if span <= timedelta(0) or span > MAX_EXPIRY:
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            "an expiry is more than zero and at most a year",
            hint="For example --expires 7d; without --expires a grant lasts until revoked.",
        )
    return span


def pick(grants: list[Grant], tool: str, client: str, now: datetime) -> Grant | None:
    """The newest in-force grant that lets ``client`` use ``tool``."""
    found = [g for g in grants if g.covers(tool, client, now)]
    return max(found, key=lambda g: g.granted_at) if found else None


def last_for(grants: list[Grant], tool: str, client: str) -> Grant | None:
    """The newest grant ever made that named ``tool`` for ``client`` (or for any
    client), in force or not: what a refusal explains ("expired", "revoked")."""
    found = [g for g in grants if g.tool == tool and g.client in (None, client)]
    return max(found, key=lambda g: g.granted_at) if found else None


def trimmed(grants: list[Grant], now: datetime) -> list[Grant]:
    """Every in-force grant and the newest :data:`KEEP_HISTORY` others, in order."""
    old = [g for g in grants if not g.in_force(now)]
    drop = {g.id for g in old[: max(0, len(old) - KEEP_HISTORY)]}
    return [g for g in grants if g.id not in drop]
