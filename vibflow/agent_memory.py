"""What the agent hooks hand to project memory: the files each closed turn
reported (observed context), and at the session's end its recap.

Memory's write path costs more than a turn-start hook's budget, so a closed
turn's files are handed over by a detached background process
(``vibflow agent hook --observe-pending``) while the agent goes on — and
synchronously only when the session ends, before its recap is written. Each
turn is handed over once: the records mark it observed, under a lock.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from vibflow.steps.agents.records import Session, Turn

#: The hook's own background hand-over of ended turns' files to memory.
OBSERVE_PENDING = "--observe-pending"
#: At most this many of a turn's files go to memory.
TURN_FILES_MAX = 200


class Noting(Protocol):
    """Where a hand-over notes what went wrong, under the agent it was for."""

    agent: str

    def failed(self, what: str, exc: BaseException) -> None: ...


def spawn_observer(root: Path) -> None:
    """Start ``vibflow agent hook --observe-pending`` in the background and return at
    once: detached (its own session, no inherited pipes — the agent waits for the
    hook's output to close, never for this), it hands the ended turns' files to
    memory while the agent goes on."""
    import subprocess

    subprocess.Popen(
        [sys.executable, "-m", "vibflow", "agent", "hook", OBSERVE_PENDING],
        cwd=root,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        close_fds=True,
    )


def observe_pending(root: Path, state: Path, records: Any, note: Noting) -> None:
    """Hand every ended turn's reported files to memory (observed context), once each:
    under a lock, so two hand-overs at once never append a turn twice. A turn memory
    refuses is noted as a problem and not offered again."""
    from filelock import FileLock

    (state / "agents").mkdir(parents=True, exist_ok=True)
    with FileLock(str(state / "agents" / "observe.lock"), timeout=60):
        memory = None
        for turn, agent in records.unobserved():
            files = records.files(turn.id)
            if files:
                note.agent = agent
                try:
                    memory = memory or _memory(root)
                    _hand_over(memory, agent, files)
                except Exception as exc:  # noqa: BLE001 - memory refusing is noted, never fatal
                    note.failed("memory did not take the turn's files", exc)
            records.mark_observed(turn.id)


def observe(root: Path, agent: str, files: list[str]) -> None:
    """Hand one turn's files to memory now."""
    _hand_over(_memory(root), agent, files)


def session_recap(root: Path, records: Any, session: Session, turns: list[Turn]) -> None:
    """Write the ended session's recap (its turns, from the records)."""
    from vibflow.agent_wiring import write_session_recap
    from vibflow.wiring import Project

    write_session_recap(Project(root), records, session, turns)


def _memory(root: Path) -> Any:
    from vibflow.wiring import Project

    return Project(root).memory


def _hand_over(memory: Any, agent: str, files: list[str]) -> None:
    memory.observe("touched_files", {"paths": files[:TURN_FILES_MAX]}, writer=f"agent.{agent}")
