"""The seam between the generic run rendering (``output``) and one flow's view:
what a view is asked (:class:`RunView`), what it gets to guide a wait at a
terminal (:class:`WaitPrompt`) and what it answers (:data:`Answer`). Its own
module, so a view and the renderer both import it and not each other."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from vibflow.engine.errors import ErrorCode, VibflowError


@dataclass(frozen=True)
class WaitPrompt:
    """What a flow's view may use to guide one wait at a terminal."""

    run_id: str
    wait: str
    events: tuple[str, ...]
    public: Mapping[str, Any]
    #: The inputs the run has received so far (its context's ``inputs``).
    inputs: Mapping[str, Any]
    #: What the flow keeps beside the run, if anything (recover: the whole plan).
    stored: Mapping[str, Any] | None
    #: ``--all``: list every file instead of the first few.
    show_all: bool


#: A guided answer: the event to send and its inputs, or None to stop asking.
Answer = tuple[str, dict[str, Any]] | None


class Refused(VibflowError):
    """A view's wait answered wrongly as many times as it allows: a refusal (exit 3),
    not a stop. Nothing was sent, so the run still waits where it was; the terminal
    shows the run as it stands, then this message."""

    def __init__(self, message: str, *, hint: str) -> None:
        super().__init__(ErrorCode.CONFIRMATION_REQUIRED, message, hint=hint)


class RunView(Protocol):
    """What one flow adds to the generic run rendering, read from the run's public
    context. Each hook answers ``None`` (or no lines) for a run that is not its own;
    ``recover_view.RecoverRunView`` is the recover flow's (its plan's options, the
    confirmation text, the apply result, and the guided choice at a terminal)."""

    def next_commands(
        self, run_id: str, wait: str | None, public: Mapping[str, Any]
    ) -> list[str] | None: ...

    def wait_lines(self, run_id: str, wait: str, public: Mapping[str, Any]) -> list[str]: ...

    def result_lines(self, public: Mapping[str, Any]) -> list[str]: ...

    def guides(self, wait: str, public: Mapping[str, Any]) -> bool:
        """Whether this view asks the whole wait itself at a terminal."""
        ...

    def guide(self, prompt: WaitPrompt) -> Answer:
        """Ask the wait at a terminal: the event and inputs to send, or None to stop."""
        ...
