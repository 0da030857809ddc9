"""``.vibflow/grants.json``: read as hostile input, written atomically under a lock.

Reading never fails open. A file that is not valid JSON, or not the grants
format, is moved aside as ``grants.json.corrupt-<time>`` (kept, never
overwritten) and the project has no grants until the user makes them again;
a path that is not a regular file (a link, a FIFO, a folder) is left where it
is, allows nothing, and refuses writes until it is moved. Either way the
reader is told in one sentence. Every read-modify-write holds
``grants.json.lock`` (never deleted) for the whole change, so two ``vibflow
grant`` commands at once both land.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from pydantic import ValidationError

from vibflow.engine.atomicfile import atomic_write
from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.steps.grants.model import Grant, GrantsFile
from vibflow.steps.memory.reading import Unreadable, parse_object, read_bytes

FILE = "grants.json"
LOCK_TIMEOUT = 10.0
MAX_BYTES = 1024 * 1024


@dataclass(frozen=True)
class Loaded:
    grants: list[Grant] = field(default_factory=list)
    #: One sentence for the user when the file could not be used (its grants allow nothing).
    warning: str | None = None
    #: Why the file cannot be replaced (it is not a regular file), if so.
    unwritable: str | None = None


class GrantStore:
    def __init__(self, state_dir: Path, *, clock: Callable[[], datetime] | None = None) -> None:
        self.path = state_dir / FILE
        self._lock_path = state_dir / (FILE + ".lock")
        self._clock = clock or (lambda: datetime.now(UTC))

    def load(self) -> Loaded:
        try:
            raw = parse_object(read_bytes(self.path, max_bytes=MAX_BYTES))
        except FileNotFoundError:
            return Loaded()
        except NotADirectoryError:
            return Loaded(unwritable=".vibflow is not a folder")
        except Unreadable as exc:
            if not exc.regular:
                return Loaded(
                    warning=f"grants.json could not be read ({exc.reason}); no MCP grant is "
                    "in force until it is moved out of .vibflow",
                    unwritable=exc.reason,
                )
            return self._set_aside(exc.reason)
        except OSError as exc:
            return Loaded(
                warning=f"grants.json could not be read ({exc.strerror}); no MCP grant is in force",
                unwritable=str(exc.strerror),
            )
        try:
            return Loaded(GrantsFile.model_validate(raw).grants)
        except ValidationError:
            return self._set_aside("its content does not fit the grants format")

    def _set_aside(self, problem: str) -> Loaded:
        when = self._clock().strftime("%Y%m%dT%H%M%S%fZ")
        backup = self.path.with_name(f"{FILE}.corrupt-{when}")
        try:
            self.path.replace(backup)
        except OSError:
            return Loaded(
                warning=f"grants.json could not be read ({problem}); no MCP grant is in force",
                unwritable=problem,
            )
        return Loaded(
            warning=f"grants.json could not be read ({problem}); it was kept as {backup.name} "
            "and no MCP grant is in force until you grant again"
        )

    def save(self, grants: list[Grant]) -> None:
        body = GrantsFile(grants=grants).model_dump(mode="json")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(self.path, json.dumps(body, indent=2) + "\n", durable=True)

    @contextmanager
    def locked(self) -> Iterator[Loaded]:
        """Hold the grants lock across a read-modify-write (refuses an unwritable file)."""
        from filelock import FileLock, Timeout

        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            with FileLock(str(self._lock_path), timeout=LOCK_TIMEOUT):
                loaded = self.load()
                if loaded.unwritable is not None:
                    raise VibflowError(
                        ErrorCode.STORE_ERROR,
                        f"grants cannot be saved: .vibflow/grants.json could not be read "
                        f"({loaded.unwritable})",
                        hint="Move it out of .vibflow, then grant again.",
                    )
                yield loaded
        except Timeout as exc:
            raise VibflowError(
                ErrorCode.BUSY,
                "another vibflow command is changing the grants right now",
                hint="Try again in a moment.",
            ) from exc
