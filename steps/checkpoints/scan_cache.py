"""The secret-scan verdict cache file (``checkpoints/secret_scan.json``): its
format, read and written in one place for both of its users.

The store's scanner (:mod:`.secret_files`) writes it; the agent hook's lean
path (:mod:`.lean_plan`) only reads it, and must not import pydantic or the
detectors to do so — hence a module of its own, standard library only.

Two maps of verdicts (every finding kind, generic ones included; the reader
filters by its policy):

* ``files``: path -> [stat key, kinds] — valid while the file's stat data
  (size, mtime, ctime, inode) is what it was when it was scanned; only a file
  last modified well before the scan gets one (the racy-git rule);
* ``contents``: SHA-256 of the exact bytes the detectors read -> kinds. A
  verdict about bytes holds whenever the same bytes are read again, whatever
  the file's name, age or stat data, so no racy rule applies. The newest
  :data:`CONTENT_KEEP` are kept.

A cache for another ``scan_max_kb`` is ignored (a file cut at the old size was
judged on part of its text). The cache is only ever a shortcut: losing it
means scanning again.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from vibflow.engine.atomicfile import atomic_write

VERSION = 1
#: Generic kinds of finding (keyword assignments, high-entropy strings, URL
#: credentials): they count only with ``scan_generic``.
GENERIC_KINDS = frozenset({"credential", "high_entropy", "high_entropy_hex", "url_credentials"})
#: Content verdicts kept (newest last): ~80 bytes each.
CONTENT_KEEP = 4096

Files = dict[str, list[Any]]
Contents = dict[str, list[str]]


def content_key(data: bytes) -> str:
    """The key a content verdict is cached under: the SHA-256 of the bytes read."""
    return hashlib.sha256(data).hexdigest()


def stat_key(size: int, mtime_ns: int, ctime_ns: int, ino: int) -> list[int]:
    """The stat data a path verdict is tied to."""
    return [size, mtime_ns, ctime_ns, ino]


def load(path: Path, scan_max_kb: int) -> tuple[Files, Contents]:
    """(path verdicts, content verdicts oldest first); empty when the file is
    missing, unreadable, of another version or for another ``scan_max_kb``."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}, {}
    if not isinstance(data, dict) or data.get("version") != VERSION:
        return {}, {}
    if data.get("scan_max_kb") != scan_max_kb:
        return {}, {}
    files = data.get("files")
    contents = data.get("contents")
    return (
        {
            str(p): v
            for p, v in (files.items() if isinstance(files, dict) else ())
            if isinstance(v, list)
            and len(v) == 2
            and isinstance(v[0], list)
            and isinstance(v[1], list)
        },
        {
            str(k): [str(x) for x in v]
            for k, v in (contents.items() if isinstance(contents, dict) else ())
            if isinstance(v, list) and all(isinstance(x, str) for x in v)
        },
    )


def save(path: Path, scan_max_kb: int, files: Files, contents: Contents) -> None:
    """Write both maps, keeping the newest :data:`CONTENT_KEEP` content verdicts."""
    kept = dict(list(contents.items())[-CONTENT_KEEP:])
    body = {"version": VERSION, "scan_max_kb": scan_max_kb, "files": files, "contents": kept}
    # Not durable: a lost cache only means scanning again.
    atomic_write(path, json.dumps(body), durable=False)
