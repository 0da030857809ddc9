"""``.vibflow/memory.json``: atomic, locked, never silently overwritten.

Reads migrate older files forward (pure functions, see ``migrations``).
Reading is bounded (``reading``: a regular file only, never followed through
a link, at most 8 MB, at most 64 levels deep). A file with a BOM, invalid
JSON, too large, too deep or of a shape that does not validate is moved to a
timestamped backup next to it and memory restarts minimal, with a one-line
warning. Something that is not a regular file (a folder, a link, a FIFO, a
device) is left exactly where it is — vibflow never moves what it may not
understand — memory reads as empty with a warning, and writes are refused
with a clear error until it is moved away. A file from a newer vibflow opens read-only: what this
version understands is shown, nothing is written (spec §6).

Writes hold a file lock for the whole read-modify-write and replace the file
with ``engine.atomicfile.atomic_write`` (a uniquely named temp file in the same
folder, fsynced, renamed over the old one): a crash leaves either the old
memory or the new one. UTF-8 without BOM, LF line ends.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from vibflow.engine.atomicfile import atomic_write
from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.steps.memory.migrations import migrate, version_of
from vibflow.steps.memory.models import SCHEMA_VERSION, MemoryState
from vibflow.steps.memory.reading import Unreadable, parse_object, read_bytes


@dataclass(frozen=True)
class Loaded:
    state: MemoryState
    read_only: bool = False
    warning: str | None = None
    backup: Path | None = None
    exists: bool = True
    #: Why nothing may be written (the path is a folder, a link, a FIFO ...).
    unwritable: str | None = None


class MemoryStore:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock_path = path.with_name(path.name + ".lock")

    def load(self) -> Loaded:
        try:
            problem, data = None, parse_object(read_bytes(self.path))
        except FileNotFoundError:
            return Loaded(MemoryState(), exists=False)
        except NotADirectoryError:
            return Loaded(MemoryState(), exists=False, unwritable=".vibflow is not a folder")
        except Unreadable as exc:
            if not exc.regular:
                return Loaded(
                    MemoryState(),
                    warning=f"memory.json could not be read ({exc.reason}); it was left as it "
                    "is and memory is empty until it is moved away",
                    unwritable=exc.reason,
                )
            problem, data = exc.reason, None
        if problem is None and data is not None:
            version = version_of(data)
            if version > SCHEMA_VERSION:
                return Loaded(
                    _known_part(data),
                    read_only=True,
                    warning=f"memory schema_version={version} is newer than this vibflow supports "
                    "— upgrade vibflow; memory is read-only until then",
                )
            if version < 0:
                problem = "its schema_version is not a number"
            else:
                try:
                    return Loaded(MemoryState.model_validate(migrate(data)))
                except (ValidationError, ValueError) as exc:
                    problem = f"its content does not fit the memory format ({_first_error(exc)})"
        backup = self._back_up()
        return Loaded(
            MemoryState(),
            backup=backup,
            warning=f"memory.json could not be read ({problem}); kept it as {backup.name} and "
            "started with empty memory",
        )

    def _back_up(self) -> Path:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
        backup = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        self.path.replace(backup)
        return backup

    def save(self, state: MemoryState) -> None:
        text = (
            json.dumps(
                state.model_dump(mode="json", exclude_none=False), indent=2, ensure_ascii=False
            )
            + "\n"
        )
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(self.path, text, durable=True)

    @contextmanager
    def locked(self) -> Iterator[Loaded]:
        """Hold the memory lock across a read-modify-write."""
        from filelock import FileLock, Timeout

        self.path.parent.mkdir(parents=True, exist_ok=True)
        lock = FileLock(str(self._lock_path), timeout=10)
        try:
            with lock:
                loaded = self.load()
                if loaded.unwritable is not None:
                    raise VibflowError(
                        ErrorCode.STORE_ERROR,
                        "memory cannot be saved: .vibflow/memory.json could not be read "
                        f"({loaded.unwritable})",
                        hint="Move it out of .vibflow (vibflow never follows or replaces it), "
                        "then try again.",
                    )
                yield loaded
        except Timeout as exc:
            raise VibflowError(
                ErrorCode.BUSY,
                "memory is being written by another vibflow process",
                hint="Try again in a moment.",
            ) from exc


def _known_part(data: dict[str, Any]) -> MemoryState:
    """What a newer file holds that this version understands, for read-only display."""
    fields = MemoryState.model_fields
    known = {k: v for k, v in data.items() if k in fields and k not in ("schema_version",)}
    try:
        return MemoryState.model_validate(known)
    except ValidationError:
        keep: dict[str, Any] = {}
        for key, value in known.items():
            try:
                MemoryState.model_validate({key: value})
                keep[key] = value
            except ValidationError:
                continue
        return MemoryState.model_validate(keep)


def _first_error(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        err = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in err.get("loc", ()))
        return f"{where}: {err.get('msg', 'invalid')}"
    return str(exc)[:120]
