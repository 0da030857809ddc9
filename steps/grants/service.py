"""Grant, revoke, list and check capability grants, with one audit row per change.

The CLI (``vibflow grant``/``revoke``/``grants``) changes grants; the MCP
server and the flow's ``grant`` guard only ask :meth:`GrantService.check`.
Each change writes one count-only audit row (``grant.created`` /
``grant.revoked``) carrying the grant's id; the reason is redacted before it
is stored, since ``grants.json`` may be shown, shared or backed up.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime

from vibflow.engine.clock import stamp
from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.steps.grants.capabilities import Lapsed, check_client, check_grantable
from vibflow.steps.grants.model import (
    GRANT_ID,
    MAX_REASON,
    Grant,
    last_for,
    new_grant_id,
    parse_duration,
    pick,
    trimmed,
)
from vibflow.steps.grants.store import GrantStore

#: (event, grant id, redaction counts) -> one audit row
GrantAudit = Callable[[str, str, Mapping[str, int]], None]
#: text -> (redacted text, counts)
Redactor = Callable[[str], tuple[str, Mapping[str, int]]]


@dataclass(frozen=True)
class Listing:
    grants: list[Grant]
    now: datetime
    warning: str | None = None


class GrantService:
    def __init__(
        self,
        store: GrantStore,
        *,
        audit: GrantAudit,
        redact: Redactor,
        clock: Callable[[], datetime],
        user: Callable[[], str | None] = lambda: None,
    ) -> None:
        self._store = store
        self._audit = audit
        self._redact = redact
        self._clock = clock
        self._user = user

    def check(self, tool: str, client: str) -> Grant | None:
        """The grant in force that lets ``client`` use ``tool`` (None: denied)."""
        return pick(self._store.load().grants, tool, client, self._clock())

    def lapsed(self, tool: str, client: str) -> Lapsed:
        """Why ``client`` has no grant in force for ``tool``: its last one expired, or
        was revoked (when, by whom), or there never was one."""
        now = self._clock()
        last = last_for(self._store.load().grants, tool, client)
        if last is None or last.in_force(now):
            return Lapsed("never")
        if last.revoked_at is not None:
            by = last.revoked_user if last.revoked_user else None
            return Lapsed("revoked", last.id, last.revoked_at, by)
        return Lapsed("expired", last.id, last.expires_at)

    def listing(self) -> Listing:
        loaded = self._store.load()
        return Listing(loaded.grants, self._clock(), loaded.warning)

    def grant(
        self,
        tool: str,
        *,
        client: str | None = None,
        expires: str | None = None,
        reason: str | None = None,
    ) -> Grant:
        check_grantable(tool)
        if client is not None:
            check_client(client)
        now = self._clock()
        until = stamp(now + parse_duration(expires)) if expires is not None else None
        clean: str | None = None
        counts: Mapping[str, int] = {}
        if reason is not None and reason.strip():
            text, counts = self._redact(" ".join(reason.split()))
            if len(text) > MAX_REASON:
                raise VibflowError(
                    ErrorCode.BAD_INPUT,
                    f"a reason is at most {MAX_REASON} characters",
                    hint="Say it shorter.",
                )
            clean = text
        user = self._user()
        made = Grant(
            id=new_grant_id(),
            tool=tool,
            client=client,
            granted_at=stamp(now),
            user=user[:64] if user else None,
            expires_at=until,
            reason=clean,
        )
        with self._store.locked() as loaded:
            self._store.save(trimmed([*loaded.grants, made], now))
        self._audit("grant.created", made.id, counts)
        return made

    def revoke(self, target: str) -> list[Grant]:
        """Revoke one grant by id, or every grant in force for a tool (maybe none)."""
        by_id = GRANT_ID.fullmatch(target) is not None
        if not by_id:
            check_grantable(target)
        now = self._clock()
        with self._store.locked() as loaded:
            if by_id:
                hit = [g for g in loaded.grants if g.id == target]
                if not hit:
                    raise VibflowError(
                        ErrorCode.BAD_INPUT,
                        f"there is no grant {target} in this project",
                        hint="`vibflow grants --all` lists them.",
                    )
                if hit[0].revoked_at is not None:
                    raise VibflowError(
                        ErrorCode.BAD_INPUT,
                        f"grant {target} was already revoked",
                        hint="`vibflow grants` lists the grants in force.",
                    )
                doomed = {target}
            else:
                doomed = {g.id for g in loaded.grants if g.tool == target and g.in_force(now)}
            user = self._user()
            update = {
                "revoked_at": stamp(now),
                "revoked_by": "cli",
                "revoked_user": user[:64] if user else None,
            }
            changed = [g.model_copy(update=update) if g.id in doomed else g for g in loaded.grants]
            if doomed:
                self._store.save(changed)
        revoked = [g for g in changed if g.id in doomed]
        for g in revoked:
            self._audit("grant.revoked", g.id, {})
        return revoked
