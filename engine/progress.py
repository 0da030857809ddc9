"""Item progress of a ``resumable: per_item`` step.

A step that works through many items (files to restore) asks which are done
and marks each one it finishes, so a resumed run picks up where a crash left
it. :class:`JournalProgress` records that in the journal, :class:`MemoryProgress`
nowhere (dry runs). Both implement :class:`~vibflow.engine.registry.ItemProgress`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from vibflow.engine.faults import CrashPlan
from vibflow.engine.records import JournalStore


class JournalProgress:
    """Item progress of a per-item step, recorded in the journal.

    Finished items are read on first use only, so steps that never ask cost
    no query.
    """

    def __init__(self, journal: JournalStore, run_id: str, state: str, crash: CrashPlan) -> None:
        self._journal = journal
        self._run_id = run_id
        self._state = state
        self._crash = crash
        self._loaded: set[str] | None = None
        self._unrecorded: list[str] = []
        self.marked_in_process = 0

    @property
    def _done(self) -> set[str]:
        if self._loaded is None:
            self._loaded = self._journal.done_items(self._run_id, self._state)
        return self._loaded

    def is_done(self, key: str) -> bool:
        return key in self._done

    def mark_done(self, key: str) -> None:
        if key in self._done:
            return
        self._journal.mark_items(self._run_id, self._state, [key])
        self._done.add(key)
        self.marked_in_process += 1
        self._crash.after_item(self.marked_in_process)
        self._crash.slow(1)

    def finish(self, key: str) -> None:
        # One durable commit per item costs a disk flush each; a batch of items
        # whose redo is harmless shares one (flush). The crash point still counts
        # every finished item, so a kill can land between recording points.
        if key in self._done:
            return
        self._done.add(key)
        self._unrecorded.append(key)
        self.marked_in_process += 1
        self._crash.after_item(self.marked_in_process)

    def flush(self) -> None:
        if self._unrecorded:
            self._journal.mark_items(self._run_id, self._state, self._unrecorded)
            self._crash.slow(len(self._unrecorded))
            self._unrecorded = []

    def pending(self, keys: Iterable[str]) -> Iterator[str]:
        done = self._done
        return (k for k in keys if k not in done)

    @property
    def done_count(self) -> int:
        return len(self._done)


class MemoryProgress:
    """Progress for dry runs: nothing is written."""

    def __init__(self) -> None:
        self._done: set[str] = set()

    def is_done(self, key: str) -> bool:
        return key in self._done

    def mark_done(self, key: str) -> None:
        self._done.add(key)

    def finish(self, key: str) -> None:
        self._done.add(key)

    def flush(self) -> None:
        pass

    def pending(self, keys: Iterable[str]) -> Iterator[str]:
        return (k for k in keys if k not in self._done)
