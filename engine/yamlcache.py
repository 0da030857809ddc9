"""Parsed YAML kept by content digest, so a command need not parse (or import a
YAML parser) to read files it read before.

Every vibflow command reads the policy files; parsing them with ruamel costs
more than the rest of a small command. This cache maps the SHA-256 of a
file's exact text (and its display name, and this format's version) to the
plain data and node positions ``parse_yaml`` produced, in one JSON file.
Only documents that survive a JSON round trip unchanged are kept (no dates,
no non-string keys); a missing, unreadable or foreign cache file is simply
not used, and writing it is best effort. It is never a source of truth: a
different text is a different key.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from vibflow.engine.yamlsource import YamlDocument

_FORMAT = "vibflow-yaml-cache-1"


def digest(text: str, display: str) -> str:
    h = hashlib.sha256(_FORMAT.encode())
    h.update(b"\0" + display.encode("utf-8", "surrogateescape") + b"\0")
    h.update(text.encode("utf-8", "surrogateescape"))
    return h.hexdigest()


class YamlCache:
    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._entries = self._read() if path is not None else {}
        self._used: dict[str, Any] = {}
        self._changed = False

    def _read(self) -> dict[str, Any]:
        assert self.path is not None  # noqa: S101 - only called with a path
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("format") != _FORMAT:
            return {}
        entries = data.get("entries")
        return entries if isinstance(entries, dict) else {}

    def get(self, text: str, display: str) -> YamlDocument | None:
        key = digest(text, display)
        entry = self._entries.get(key)
        if not isinstance(entry, dict):
            return None
        try:
            positions = {tuple(p): (int(line), int(col)) for p, line, col in entry["positions"]}
            doc = YamlDocument(display, entry["data"], positions)
        except (KeyError, TypeError, ValueError):
            return None
        self._used[key] = entry
        return doc

    def put(self, text: str, display: str, doc: YamlDocument) -> None:
        entry = {
            "data": doc.data,
            "positions": [[list(p), line, col] for p, (line, col) in doc.positions.items()],
        }
        try:
            if json.loads(json.dumps(entry["data"])) != doc.data:
                return  # not plain JSON data: keep parsing it
        except (TypeError, ValueError):
            return
        self._used[digest(text, display)] = entry
        self._changed = True

    def save(self) -> None:
        """Write the entries used by this process (only they), if any were new."""
        if self.path is None or not self._changed or not self.path.parent.is_dir():
            return
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            tmp.write_text(json.dumps({"format": _FORMAT, "entries": self._used}), encoding="utf-8")
            tmp.replace(self.path)
        except OSError:
            tmp.unlink(missing_ok=True)
