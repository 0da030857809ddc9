"""Texts already found free of secrets, remembered by digest so the next
process need not build the detectors to find it again.

Setting up the detectors (detect-secrets' plugins and our patterns: some 200
compiled expressions) costs a fresh process ~75 ms, and most of what a
command sends out — memory text that passed the write gate, ids, states —
was scanned clean by an earlier command. A :class:`VerdictFile` keeps the
SHA-256 of each text the detectors found nothing in, under a fingerprint of
the detectors (vibflow's redaction sources and detect-secrets' version): a
text is skipped only if the very same detectors already passed the very
same text, so the result is the same as scanning it. A different
fingerprint, a damaged file or a missing one just means scanning again.

Only digests of clean texts are written — never a text, never a finding.
The privacy filter (paths, hosts, addresses) still runs on every text.
"""

from __future__ import annotations

import hashlib
import importlib.util
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import Protocol

from vibflow.engine.atomicfile import atomic_write

#: Digests kept (the most recent); ~34 bytes each on disk.
KEEP = 50_000
_SOURCES = (
    "clean.py",
    "detectors.py",
    "gates.py",
    "patterns.py",
    "secrets.py",
    "shapes.py",
    "spans.py",
    "verdicts.py",
)


class KnownClean(Protocol):
    """Which texts (by :func:`digest`) the current detectors already passed."""

    def known(self, digests: Iterable[str]) -> set[str]: ...

    def remember(self, digests: Iterable[str]) -> None: ...


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


@cache
def fingerprint() -> str:
    """The detectors' identity: our redaction sources and detect-secrets' version
    (read from its files, so nothing is imported to learn it)."""
    h = hashlib.sha256()
    here = Path(__file__).parent
    for name in _SOURCES:
        h.update(name.encode())
        h.update((here / name).read_bytes())
    spec = importlib.util.find_spec("detect_secrets")
    if spec is not None and spec.origin:
        version = Path(spec.origin).with_name("__version__.py")
        h.update(version.read_bytes() if version.is_file() else b"?")
    return h.hexdigest()[:32]


class VerdictFile:
    """Clean verdicts kept in one file (``.vibflow/recovery/clean_texts``)."""

    def __init__(self, path: Path, *, writable: Callable[[], bool] = lambda: True) -> None:
        self.path = path
        self._writable = writable
        self._loaded: dict[str, None] | None = None
        self._added = False

    def _digests(self) -> dict[str, None]:
        if self._loaded is None:
            self._loaded = {}
            try:
                lines = self.path.read_text("ascii").split()
            except (OSError, UnicodeDecodeError):
                lines = []
            if lines and lines[0] == fingerprint():
                self._loaded = dict.fromkeys(d for d in lines[1:] if len(d) == 32)
        return self._loaded

    def known(self, digests: Iterable[str]) -> set[str]:
        have = self._digests()
        return {d for d in digests if d in have}

    def remember(self, digests: Iterable[str]) -> None:
        have = self._digests()
        new = [d for d in digests if d not in have]
        if not new:
            return
        have.update(dict.fromkeys(new))
        kept = list(have)[-KEEP:]
        self._loaded = dict.fromkeys(kept)
        if not self._writable():
            return  # a dry run: remembered for this process only
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(self.path, "\n".join([fingerprint(), *kept]) + "\n", durable=False)
        except OSError:
            pass  # a cache: the next command scans again
