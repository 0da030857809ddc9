"""One ``lstat`` per changed file per preview, shared by every rule that asks.

The listing's line counts, the generated-file rules and the checkpoint
comparison each pin a file by its ``lstat``; asked apart, a 600-file drift paid
three calls per file, 1,800 a preview. The first answer is kept for the rest of
the preview: taken before any of them reads the file, it pins the bytes they
read as well as a later call would (a write after it changes it).
"""

from __future__ import annotations

import os


class Lstats:
    """The ``lstat`` of paths under one root, each taken once (None: absent or
    unreadable)."""

    def __init__(self, root: str) -> None:
        self._top = root
        self._seen: dict[str, os.stat_result | None] = {}

    def get(self, path: str) -> os.stat_result | None:
        try:
            return self._seen[path]
        except KeyError:
            pass
        try:
            st: os.stat_result | None = os.lstat(os.path.join(self._top, path))  # noqa: PTH118
        except OSError:
            st = None
        self._seen[path] = st
        return st
