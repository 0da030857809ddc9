"""The error tree every vibflow failure travels through.

One root, :class:`VibflowError`, carries a stable :class:`ErrorCode` and a
plain-language message that names the thing (flow, run, state, file:line:col,
rule) and says what to do next. Front doors map the code's :class:`Outcome` to
an exit status, so the CLI never has to guess from exception types.

Control signals (a lost lease, a cancelled run) derive from
:class:`ControlSignal`, which is *not* a ``VibflowError``: a broad
``except VibflowError`` can never swallow one by accident.
"""

from __future__ import annotations

import enum
from typing import NamedTuple


class Outcome(enum.IntEnum):
    """How a failure is reported to a shell: the process exit status."""

    FAILURE = 1
    BAD_INPUT = 2
    REFUSED = 3


class ErrorCode(enum.Enum):
    """Stable error codes. Values are never reused once published."""

    # bad input (exit 2)
    YAML_SYNTAX = ("E101", Outcome.BAD_INPUT)
    SCHEMA = ("E102", Outcome.BAD_INPUT)
    FLOW_INVALID = ("E103", Outcome.BAD_INPUT)
    FLOW_NOT_FOUND = ("E104", Outcome.BAD_INPUT)
    RUN_NOT_FOUND = ("E105", Outcome.BAD_INPUT)
    BAD_INPUT = ("E106", Outcome.BAD_INPUT)
    UNKNOWN_EVENT = ("E107", Outcome.BAD_INPUT)
    RECAP_NOT_FOUND = ("E108", Outcome.BAD_INPUT)
    POLICY_INVALID = ("E109", Outcome.BAD_INPUT)
    NOT_A_PROJECT = ("E110", Outcome.BAD_INPUT)
    # refused or busy (exit 3)
    GUARD_REFUSED = ("E201", Outcome.REFUSED)
    BUSY = ("E202", Outcome.REFUSED)
    NOT_RESUMABLE = ("E203", Outcome.REFUSED)
    RUN_FINISHED = ("E204", Outcome.REFUSED)
    CONFIRMATION_REQUIRED = ("E205", Outcome.REFUSED)
    WRITE_CONFLICT = ("E206", Outcome.REFUSED)
    READ_ONLY = ("E207", Outcome.REFUSED)
    RATE_LIMITED = ("E208", Outcome.REFUSED)
    PLAN_CHANGED = ("E209", Outcome.REFUSED)
    # failures (exit 1)
    STEP_FAILED = ("E301", Outcome.FAILURE)
    STORE_ERROR = ("E302", Outcome.FAILURE)
    STORE_CORRUPT = ("E303", Outcome.FAILURE)
    AUDIT_BROKEN = ("E304", Outcome.FAILURE)
    NOT_AVAILABLE = ("E305", Outcome.FAILURE)
    INTERNAL = ("E399", Outcome.FAILURE)

    @property
    def id(self) -> str:
        return self.value[0]

    @property
    def outcome(self) -> Outcome:
        return self.value[1]


class SourceLocation(NamedTuple):
    """A position in a YAML file, 1-based as editors show it. (A NamedTuple: every
    command imports this module, and ``dataclasses`` costs several milliseconds.)"""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class VibflowError(Exception):
    """Root of every error vibflow reports to a user."""

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        *,
        hint: str | None = None,
        location: SourceLocation | None = None,
        problems: tuple[tuple[SourceLocation, str], ...] = (),
    ) -> None:
        self.code = code
        self.message = message
        self.hint = hint
        self.location = location
        # Every located mistake when a file has several (a user fixes them all
        # in one pass instead of one per run); ``message`` summarizes them.
        self.problems = problems
        super().__init__(self.render())

    def render(self) -> str:
        """One line a user can act on: where, what, and what to do next."""
        many = len(self.problems) > 1
        # With several problems the location is the first one's, listed below.
        where = f"{self.location}: " if self.location and not many else ""
        tail = f" {self.hint}" if self.hint else ""
        head = (
            f"{where}{self.message}.{tail}"
            if not self.message.endswith(".")
            else (f"{where}{self.message}{tail}")
        )
        if not many:
            return head
        return "\n".join([head, *(f"  {loc}: {text}" for loc, text in self.problems)])

    def to_json(self) -> dict[str, object]:
        return {
            "code": self.code.id,
            "kind": self.code.name.lower(),
            "message": self.message,
            "hint": self.hint,
            "location": str(self.location) if self.location else None,
            "problems": [{"location": str(loc), "message": text} for loc, text in self.problems],
        }


class ControlSignal(BaseException):
    """Base for control-flow signals that must not be caught as errors."""
