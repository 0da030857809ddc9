"""The project each MCP request works on, and what the long-lived server keeps for them.

A server answers many requests for one project. Each request gets a fresh
:class:`~vibflow.wiring.Project` (nothing of one request's state leaks into the
next), handed what may outlive a request: one journal connection per worker
thread (opening and closing SQLite per request cost more than most answers),
the parsed policy until its file changes, the advisor's immutable git answers,
and the redaction contract's per-text verdicts. Git still runs per call.

When the project's policy cannot be read, the request fails with that error;
the answer's audit row is still written, by :meth:`Projects.for_audit`, under
the shipped policy.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from vibflow.steps.recovery.git_memo import RACY_SECONDS

if TYPE_CHECKING:
    from vibflow.engine.policy import PolicySet
    from vibflow.steps.recovery.git_memo import AdviceCache
    from vibflow.steps.redaction.scans import ScanMemo
    from vibflow.wiring import Project


class Projects:
    """Builds each request's project for one root and client, with the server's keeps."""

    def __init__(self, root: Path, client: str, env: Mapping[str, str]) -> None:
        self.root = root
        self.client = client
        self.env = dict(env)
        self._journals = threading.local()
        self._lock = threading.Lock()
        self._policy_cache: tuple[tuple[int, ...] | None, PolicySet] | None = None
        self._advice_cache: AdviceCache | None = None
        self._scan_memo: ScanMemo | None = None

    def project(self, warnings: list[str] | None = None) -> Project:
        """A request's project (raises when the project's policy cannot be read)."""
        from vibflow.wiring import Project

        sink = warnings.append if warnings is not None else (lambda _m: None)
        project = Project(self.root, tool=self.client, env=self.env, warn=sink)
        found = getattr(self._journals, "journal", None)
        if found is None:
            found = self._journals.journal = project.journal
        project.shared_journal = found
        project.shared_policy = self._policy(project)
        project.advice_cache = self._advice()
        project.scan_memo = self._scans()
        return project

    def for_audit(self) -> Project:
        """A project to write an answer's audit row with when the request's own could
        not be built (its policy cannot be read): the shipped policy stands in."""
        from vibflow.wiring import Project

        project = Project(self.root, tool=self.client, env=self.env, warn=lambda _m: None)
        project.shared_policy = project.shipped_policy()
        found = getattr(self._journals, "journal", None)
        if found is not None:
            project.shared_journal = found
        return project

    def _advice(self) -> AdviceCache:
        """What the advisor keeps for the server's life: answers no change can alter."""
        with self._lock:
            if self._advice_cache is None:
                from vibflow.steps.recovery.git_memo import AdviceCache

                self._advice_cache = AdviceCache.for_root(self.root)
            return self._advice_cache

    def _scans(self) -> ScanMemo:
        """The redaction contract's per-text verdicts, kept for the server's life."""
        with self._lock:
            if self._scan_memo is None:
                from vibflow.steps.redaction.scans import ScanMemo

                self._scan_memo = ScanMemo()
            return self._scan_memo

    def _policy(self, project: Project) -> PolicySet:
        """The project's policy, parsed again only when its file changed (the shipped
        defaults cannot change under a running server)."""
        try:
            st = (self.root / ".vibflow" / "policy.yaml").stat()
            # The change time too: a rewrite that puts size and mtime back (`cp -p`,
            # `touch -r`) still moves it. A file written just now is read every time,
            # as git_memo's Pinned never keeps one.
            key: tuple[int, ...] | None = (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)
            if time.time() - max(st.st_mtime, st.st_ctime) < RACY_SECONDS:
                key = (-1, time.monotonic_ns())  # equal to no key kept before
        except OSError:
            key = None
        with self._lock:
            if self._policy_cache is None or self._policy_cache[0] != key:
                self._policy_cache = (key, project.policy)
            return self._policy_cache[1]
