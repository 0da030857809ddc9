"""The after-the-fact re-scan of MCP memory answers (spec §15, P0 gate 3).

Redaction is a gate; this checks the gate. A random share of the memory
answers the server already sent is scanned again, off the request path, by
the detectors alone — without the clean-text cache, which is exactly what a
miss could hide behind — and each re-scan writes one ``mcp.rescan`` audit row.
"""

from __future__ import annotations

import contextlib
import queue
import random
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vibflow.wiring import Project


class Rescanner:
    """Re-scan a random share of memory answers after they were sent (spec §15).

    The scan runs on a worker thread with the detectors only (no clean-text
    cache: that cache is what a miss could hide behind) and writes one
    ``mcp.rescan`` row: ``ok`` when the answer is clean, ``failed`` when the
    detectors or the absolute-path check still find something in it.
    """

    def __init__(
        self,
        project: Callable[[], Project],
        *,
        rate: float,
        rng: Callable[[], float] = random.random,
    ) -> None:
        self._project = project
        self._rate = rate
        self._rng = rng
        self._queue: queue.Queue[Any] = queue.Queue(maxsize=1000)
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def offer(self, value: Any) -> bool:
        """Queue ``value`` for a re-scan with the configured probability."""
        if self._rate <= 0 or self._rng() >= self._rate:
            return False
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="vibflow-rescan", daemon=True
                )
                self._thread.start()
        try:
            self._queue.put_nowait(value)
        except queue.Full:
            return False
        return True

    def _run(self) -> None:
        while True:
            value = self._queue.get()
            if value is _STOP:
                return
            # A re-scan that fails never disturbs the server (its row is simply missing).
            with contextlib.suppress(Exception):
                self._rescan(value)

    def _rescan(self, value: Any) -> None:
        from vibflow.steps.redaction.contract import redact_payload
        from vibflow.steps.redaction.privacy import PrivacyContext, contains_absolute_path

        project = self._project()
        try:
            # No cache, but the same rule for this repository's object ids: a commit
            # id the answer names is not a miss.
            again = redact_payload(value, root=project.root, objects=project.object_ids)
            counts = again.counts.model_dump()
            ctx = PrivacyContext.for_root(project.root)
            leaked = any(contains_absolute_path(t, ctx) for t in _strings(value))
            missed = leaked or counts["secret_hits"] > 0 or counts["privacy_hits"] > 0
            project.audit.append(
                "mcp.rescan",
                result="failed" if missed else "ok",
                redaction=counts if any(counts.values()) else None,
            )
        finally:
            project.close()

    def close(self, timeout: float = 5.0) -> None:
        """Finish the queued re-scans (bounded), then stop the worker."""
        with self._lock:
            thread = self._thread
        if thread is None:
            return
        self._queue.put(_STOP)
        thread.join(timeout)


_STOP = object()


def _strings(node: Any) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for k, v in node.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(node, list):
        return [s for v in node for s in _strings(v)]
    return []
