"""What the agent records are made of: a session (one agent conversation), a
turn (one prompt to the agent) and a file a tool reported touching — plain
frozen values — and the shapes their names and ids are kept in.

Apart from :mod:`.records` (the SQLite file that stores them) because every
reader of the records — the hook, ``rewind``, ``agent status``, the ledger —
passes these values around without caring how they are stored. Standard
library only, and no ``dataclasses``: the agent's turn hook imports this.
"""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime

_SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")
_AGENT = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def new_id(prefix: str) -> str:
    return f"{prefix}_{os.urandom(16).hex()}"


def safe_session_id(raw: object) -> str:
    """The agent's session id as stored: kept when it has a plain id's shape,
    otherwise a digest of it (an id is never free text in vibflow's records)."""
    text = raw if isinstance(raw, str) else ""
    if _SAFE_ID.fullmatch(text):
        return text
    if not text:
        return "unknown"
    import hashlib  # rarely needed; its OpenSSL load is a few ms of every hook

    return "h" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def agent_name(raw: str) -> str:
    """An agent's name as stored (lower case, ``claude-code``); anything else is refused."""
    name = raw.strip().lower()
    if not _AGENT.fullmatch(name):
        raise ValueError("an agent name is 1-40 of a-z, 0-9, '-' and '_'")
    return name


class _Value:
    """A frozen value whose fields are its ``__dict__`` (read as such by the CLI's
    JSON), compared and hashed by them — what a frozen dataclass gives, written out:
    the hook imports this module, and ``dataclasses`` (with ``inspect``) costs it
    several milliseconds."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in self.__dict__:
            raise AttributeError(f"{type(self).__name__} is frozen")
        object.__setattr__(self, name, value)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.__dict__ == self.__dict__

    def __hash__(self) -> int:
        return hash(tuple(self.__dict__.values()))

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items())
        return f"{type(self).__name__}({fields})"


class Session(_Value):
    def __init__(
        self,
        id: str,
        agent: str,
        agent_session: str,
        started_at: str,
        last_seen: str,
        ended_at: str | None,
    ) -> None:
        self.id = id
        self.agent = agent
        self.agent_session = agent_session
        self.started_at = started_at
        self.last_seen = last_seen
        self.ended_at = ended_at


class Turn(_Value):
    def __init__(
        self,
        id: str,
        session_id: str,
        number: int,
        started_at: str,
        ended_at: str | None,
        ended_by: str | None,
        start_checkpoint: str | None,
        end_checkpoint: str | None,
        note: str | None,
        observed: bool,
    ) -> None:
        self.id = id
        self.session_id = session_id
        self.number = number
        self.started_at = started_at
        self.ended_at = ended_at
        self.ended_by = ended_by
        self.start_checkpoint = start_checkpoint
        self.end_checkpoint = end_checkpoint
        self.note = note
        self.observed = observed


class Touched(_Value):
    def __init__(self, path: str, tool: str) -> None:
        self.path = path
        self.tool = tool
