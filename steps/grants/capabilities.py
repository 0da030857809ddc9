"""What each MCP tool may do by default (spec §7's permission table), as data.

Three postures: *allowed* (read-only or safe-write tools every configured
client may call), *denied* (needs a grant from ``vibflow grant``) and
*gated* (``recovery_apply``: a grant **and** the ``VIBFLOW_RECOVERY_APPLY``
flag in the server's own environment). The table is code, not policy: a
project's YAML can never turn a denied tool on; only a grant can, and only
the local user's CLI writes grants.

A client name is the identity the server was started with (``vibflow mcp
serve --client NAME``), never something a caller says about itself. ``cli``
is reserved: it is how the local terminal is known to the guards, so no MCP
server may call itself that.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from vibflow.engine.errors import ErrorCode, VibflowError

Posture = Literal["allowed", "denied", "gated"]

#: The one environment flag that switches file changes on (also the flow's guard).
APPLY_FLAG_ENV = "VIBFLOW_RECOVERY_APPLY"
#: Client names fit the audit's identifier shape (``tool`` in every audit row).
CLIENT_PATTERN = re.compile(r"^[a-z][a-z0-9_.-]{0,63}$")
RESERVED_CLIENTS = frozenset({"cli"})


@dataclass(frozen=True)
class Capability:
    name: str
    posture: Posture
    what: str  # one plain sentence: what a call may do


CAPABILITIES: dict[str, Capability] = {
    c.name: c
    for c in (
        Capability("memory_summary_read", "allowed", "reads a redacted summary of memory"),
        Capability("recovery_preview", "allowed", "previews the ways back; changes no file"),
        Capability(
            "checkpoint_create",
            "allowed",
            "takes a checkpoint of the working tree (stored in git; no file changes)",
        ),
        Capability("recap_read", "allowed", "reads a stored recap (redacted when written)"),
        Capability("runs_list", "allowed", "lists recent runs and their states"),
        Capability("triggers_check", "allowed", "evaluates the nudges; records nothing"),
        Capability("handoff", "allowed", "reads the redacted, budgeted handoff for an agent"),
        Capability(
            "rewind_list",
            "allowed",
            "lists the recent agent turns, the files each touched and their checkpoints",
        ),
        Capability("memory_full_read", "denied", "reads all of memory, redacted"),
        Capability(
            "memory_write",
            "denied",
            "writes memory through the write gate (intent-shaping fields need confirmation)",
        ),
        Capability(
            "handoff_export",
            "denied",
            "writes the handoff to a file inside the project",
        ),
        Capability(
            "recovery_apply",
            "gated",
            "steps the recover flow up to restoring files (sandwich, confirmation, lock)",
        ),
    )
}

GRANTABLE: tuple[str, ...] = tuple(n for n, c in CAPABILITIES.items() if c.posture != "allowed")


def check_client(name: str) -> str:
    """``name`` as a client identity, or bad input saying what a name may be."""
    if name in RESERVED_CLIENTS:
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"'{name}' is reserved for the local command line; an MCP client needs its own name",
            hint="Use the client's name, for example --client claude-code.",
        )
    if not CLIENT_PATTERN.fullmatch(name):
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            "a client name is 1 to 64 lower-case letters, digits, '.', '_' or '-', "
            "starting with a letter",
            hint="For example --client claude-code.",
        )
    return name


def check_grantable(tool: str) -> str:
    """``tool`` if a grant can change what it may do, else bad input naming the tools."""
    if tool in GRANTABLE:
        return tool
    if tool in CAPABILITIES:
        raise VibflowError(
            ErrorCode.BAD_INPUT,
            f"{tool} is allowed for every MCP client already; it needs no grant",
            hint=f"Tools that need one: {', '.join(GRANTABLE)}.",
        )
    raise VibflowError(
        ErrorCode.BAD_INPUT,
        "there is no MCP tool by that name",
        hint=f"Tools that need a grant: {', '.join(GRANTABLE)}.",
    )


@dataclass(frozen=True)
class Lapsed:
    """Why a client has no grant in force for a tool: its last grant ``expired`` (at
    ``when``), was ``revoked`` (at ``when``, by the login ``by``), or ``never`` existed."""

    status: Literal["never", "expired", "revoked"]
    grant_id: str | None = None
    when: str | None = None
    by: str | None = None

    def to_json(self) -> dict[str, str | None]:
        return {"status": self.status, "grant_id": self.grant_id, "at": self.when}


def grant_command(tool: str, client: str) -> str:
    """The command the project's owner runs to let ``client`` call ``tool``."""
    return f"vibflow grant {tool} --client {client}"


def no_grant_reason(tool: str, client: str, lapsed: Lapsed) -> str:
    """The refusal for a client with no grant in force, saying which case it is."""
    again = f"the project's owner can grant it again with `{grant_command(tool, client)}`"
    if lapsed.status == "expired":
        return (
            f"the MCP client '{client}' had a grant for {tool} ({lapsed.grant_id}), but it "
            f"expired at {lapsed.when}; {again} (with --expires for a limited time)"
        )
    if lapsed.status == "revoked":
        who = f" by {lapsed.by}" if lapsed.by else ""
        return (
            f"the MCP client '{client}' had a grant for {tool} ({lapsed.grant_id}), but it "
            f"was revoked at {lapsed.when}{who} at the project's command line "
            f"(`vibflow revoke`); {again}"
        )
    return (
        f"{tool} is denied by default and the MCP client '{client}' has never been granted "
        f"it; the project's owner can allow it with `{grant_command(tool, client)}`"
    )


@dataclass(frozen=True)
class Decision:
    """Whether a client may call a tool now, the grant that allows it, or why not."""

    allowed: bool
    grant_id: str | None = None
    reason: str | None = None
    #: Refused for want of a grant: why there is none in force (else None).
    lapsed: Lapsed | None = None


def decide(
    tool: str,
    client: str,
    *,
    granted: Callable[[str, str], str | None],
    apply_flag_on: bool,
    lapsed: Callable[[str, str], Lapsed] | None = None,
) -> Decision:
    """The tool-level gate of spec §7 for ``client`` (its configured name).

    ``granted`` is asked only for tools that need a grant; ``apply_flag_on`` is
    the flag as the *server's* environment has it — nothing a caller sends
    (``feature_enabled`` included) takes part in the decision. ``lapsed`` says,
    for a refusal, why the client has no grant (expired, revoked, never).
    """
    cap = CAPABILITIES[tool]
    if cap.posture == "allowed":
        return Decision(True)
    grant_id = granted(tool, client)
    if grant_id is None:
        why = lapsed(tool, client) if lapsed is not None else Lapsed("never")
        return Decision(False, reason=no_grant_reason(tool, client, why), lapsed=why)
    if cap.posture == "gated" and not apply_flag_on:
        return Decision(
            False,
            grant_id,
            reason="restoring files is switched off in this MCP server; its owner can start "
            f"it with {APPLY_FLAG_ENV}=1 in its environment",
        )
    return Decision(True, grant_id)
