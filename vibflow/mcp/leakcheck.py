"""The server's fail-closed absolute-path check, with the texts it already cleared kept.

Every answer is refused if any string in it (keys included) holds an absolute
local path (the redaction's fail-closed ``assert_no_absolute_paths``). Most of a
large answer — a recovery plan's thousands of project-relative paths — is the
same from one request to the next, and whether a text is "quiet" (the privacy
filter leaves it unchanged, so it holds no absolute path) depends only on the
text and the privacy context (this project's root, the home folder, user and
host names). So a long-lived server keeps the quiet texts per context and
searches only the new ones; when any text is not quiet, the contract's own
check runs on the whole answer, decides and names the field. The verdict is
the contract's in every case: this only skips texts it has already passed.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vibflow.steps.redaction.privacy import PrivacyContext

MAX_KEPT = 500_000  # texts; past it the set starts again (a bound, not a policy)


class AbsolutePathCheck:
    def __init__(self, root: Path) -> None:
        self.root = root
        self._ctx: PrivacyContext | None = None
        self._quiet: set[str] = set()
        self._lock = threading.Lock()

    def __call__(self, value: Any) -> None:
        """Return quietly, or raise the contract's ``INTERNAL`` error naming the field."""
        from vibflow.steps.redaction.failclosed import assert_no_absolute_paths
        from vibflow.steps.redaction.privacy import PrivacyContext, quiet_texts

        ctx = PrivacyContext.for_root(self.root)
        with self._lock:
            if ctx != self._ctx:
                self._ctx, self._quiet = ctx, set()
            cleared = self._quiet  # only ever grown in place, or replaced whole
        unknown = _unknown_texts(value, cleared)
        if unknown is None:  # not plain JSON: the contract's own walk knows how to read it
            assert_no_absolute_paths(value, root=self.root)
            return
        if not unknown:
            return
        quiet = quiet_texts(unknown, ctx)
        if len(quiet) < len(unknown):
            assert_no_absolute_paths(value, root=self.root)
        with self._lock:
            if self._ctx == ctx:
                if len(self._quiet) + len(quiet) > MAX_KEPT:
                    self._quiet = set()
                self._quiet |= quiet


def _unknown_texts(node: Any, cleared: set[str]) -> set[str] | None:
    """The strings of a JSON value (dict keys included) not in ``cleared``
    (iteratively: no depth limit); None when it holds anything else (an object the
    contract would turn into text)."""
    out: set[str] = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item not in cleared:
                out.add(item)
        elif isinstance(item, dict):
            for k, v in item.items():
                key = str(k)
                if key not in cleared:
                    out.add(key)
                if type(v) is str:  # most values: no trip through the stack
                    if v not in cleared:
                        out.add(v)
                else:
                    stack.append(v)
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif not (item is None or isinstance(item, bool | int | float)):
            return None
    return out
