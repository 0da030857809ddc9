"""A trigger's lifecycle within one session, and where that is kept.

The lifecycle is ``flows/trigger.yaml``: armed → shown → accepted |
dismissed | snoozed | ignored (:data:`TRANSITIONS` is that flow's table; a
test pins the two equal). Suppression lasts for the session only: a session
ends when nothing asked for nudges for ``session_idle_minutes`` or when the
agent's session changes, and every nudge shown in it and never answered is
then *ignored*. A snooze also ends after ``snooze_minutes``.

The state is local measurement data, not project memory: it lives in
``.vibflow/recovery/trigger_state.json`` (trigger ids and times only) and
never in ``memory.json``.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Literal

from vibflow.engine.atomicfile import atomic_write
from vibflow.engine.clock import parse_stamp, stamp
from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.steps.memory.reading import Unreadable, parse_object, read_bytes

Status = Literal["armed", "shown", "accepted", "dismissed", "snoozed", "ignored"]
Action = Literal["shown", "accepted", "dismissed", "snoozed", "ignored"]

#: (from, event) -> to: the transitions of ``flows/trigger.yaml``.
TRANSITIONS: dict[tuple[str, str], str] = {
    ("armed", "show"): "shown",
    ("shown", "accept"): "accepted",
    ("shown", "dismiss"): "dismissed",
    ("shown", "snooze"): "snoozed",
    ("shown", "ignore"): "ignored",
}
EVENT_OF: dict[Action, str] = {
    "shown": "show",
    "accepted": "accept",
    "dismissed": "dismiss",
    "snoozed": "snooze",
    "ignored": "ignore",
}
STATE_FILE = "trigger_state.json"
#: A session holds one entry per trigger: far below this.
MAX_STATE_BYTES = 1024 * 1024
LOCK_SECONDS = 5


@dataclass
class Entry:
    status: Status
    at: datetime
    until: datetime | None = None


@dataclass
class Session:
    started: datetime
    last_seen: datetime
    agent_session: str | None = None
    entries: dict[str, Entry] = field(default_factory=dict)

    def status(self, trigger: str, now: datetime) -> Status:
        entry = self.entries.get(trigger)
        if entry is None:
            return "armed"
        if entry.status == "snoozed" and entry.until is not None and now >= entry.until:
            return "armed"
        return entry.status

    def move(
        self, trigger: str, action: Action, now: datetime, *, until: datetime | None = None
    ) -> None:
        """Record ``action``; refuses a step the lifecycle does not have."""
        current = self.status(trigger, now)
        if TRANSITIONS.get((current, EVENT_OF[action])) != action:
            raise ValueError(f"trigger '{trigger}' cannot go from {current} to {action}")
        self.entries[trigger] = Entry(action, now, until)


def roll(
    session: Session | None, now: datetime, *, idle_minutes: int, agent_session: str | None
) -> tuple[Session, list[str]]:
    """The session current at ``now`` and the triggers left ``shown`` by the one that
    ended (to be recorded as ignored); a new session starts with every trigger armed."""
    ended = session is None or (
        now - session.last_seen > timedelta(minutes=idle_minutes)
        or (agent_session is not None and agent_session != session.agent_session)
    )
    if session is None or ended:
        unanswered = (
            sorted(t for t, e in session.entries.items() if e.status == "shown") if session else []
        )
        # What happened within the idle window belongs to this session (an agent's
        # patches before anyone asked for a nudge); a new agent session starts now.
        agent_changed = session is not None and agent_session not in {None, session.agent_session}
        started = now if agent_changed else now - timedelta(minutes=idle_minutes)
        return Session(started=started, last_seen=now, agent_session=agent_session), unanswered
    session.last_seen = max(session.last_seen, now)
    return session, []


class SessionFile:
    """The session state on disk; unreadable state starts a fresh session."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / STATE_FILE

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the state's lock while it is read, changed and written: two commands
        at once (a recap and an agent's hook) neither lose an answer nor show a
        trigger twice. A lock held too long is busy (exit 3), never a wait."""
        from filelock import FileLock, Timeout

        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            lock = FileLock(str(self.path.with_suffix(".lock")), timeout=LOCK_SECONDS)
            with lock:
                yield
        except Timeout as exc:
            raise VibflowError(
                ErrorCode.BUSY,
                "another vibflow command is recording a nudge right now",
                hint="Try again in a moment.",
            ) from exc
        except OSError as exc:
            raise VibflowError(
                ErrorCode.STORE_ERROR,
                f".vibflow/recovery could not hold the nudge lock ({exc.strerror or exc})",
            ) from exc

    def load(self) -> Session | None:
        # Read as hostile input: a folder, FIFO, link or huge file here is a fresh session.
        try:
            return _session(parse_object(read_bytes(self.path, max_bytes=MAX_STATE_BYTES)))
        except (Unreadable, OSError, ValueError, TypeError, KeyError, AttributeError):
            return None

    def save(self, session: Session) -> None:
        data: dict[str, Any] = {
            "schema_version": 1,
            "started": stamp(session.started),
            "last_seen": stamp(session.last_seen),
            "agent_session": session.agent_session,
            "entries": {
                t: {
                    "status": e.status,
                    "at": stamp(e.at),
                    "until": stamp(e.until) if e.until else None,
                }
                for t, e in sorted(session.entries.items())
            },
        }
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(self.path, json.dumps(data, indent=1) + "\n", durable=False)
        except OSError as exc:
            raise VibflowError(
                ErrorCode.STORE_ERROR,
                f".vibflow/recovery/{STATE_FILE} could not be written ({exc.strerror or exc})",
                hint="Move away whatever is in its place; vibflow starts it afresh.",
            ) from exc


def _time(value: Any) -> datetime:
    found = parse_stamp(str(value))
    if found is None:
        raise ValueError("bad time")
    return found


def _session(raw: dict[str, Any]) -> Session:
    entries: dict[str, Entry] = {}
    for trigger, e in dict(raw.get("entries") or {}).items():
        status = e["status"]
        if status not in {"shown", "accepted", "dismissed", "snoozed", "ignored"}:
            continue
        entries[str(trigger)] = Entry(
            status, _time(e["at"]), _time(e["until"]) if e.get("until") else None
        )
    agent = raw.get("agent_session")
    return Session(
        started=_time(raw["started"]),
        last_seen=_time(raw["last_seen"]),
        agent_session=str(agent) if agent is not None else None,
        entries=entries,
    )
