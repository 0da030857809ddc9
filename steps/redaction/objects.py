"""Git object ids that name an object of this repository are names, not secrets.

A full-length object id (40 hex digits, or 64 in a SHA-256 repository) has the
entropy of a random key, so the hex detector masks it — and an agent handed
``[REDACTED:high_entropy_hex]`` for a checkpoint's commit or a restore's
``from_commit`` cannot use the id it was given. An id that names an object in
this repository is not a secret: anyone with the repository can list it, and a
random key matches an existing object with probability 2**-160.

So the contract asks a seam (:data:`ObjectLookup`, git's ``cat-file
--batch-check`` in the wiring) which of a text's full-length hex findings name
objects, and leaves only those unmasked. Everything else stays as it was: a hex
secret next to a commit id is still masked, a keyword finding
(``token=<hex>``) is masked whatever its value names, and when the lookup
cannot answer every candidate is kept masked (fail closed). Only full-length
ids are looked up: git would resolve a shorter prefix to some object, which
says nothing about whether the text is a key.

:class:`KnownObjects` keeps the answers for one request, so the candidates of a
whole answer cost one lookup (:meth:`KnownObjects.prefetch`), not one per text.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Collection, Iterable
from collections.abc import Set as AbstractSet

#: Which of these full-length lowercase hex names are objects of the repository.
ObjectLookup = Callable[[Collection[str]], AbstractSet[str]]

#: A full-length object id standing alone (git prints them in lowercase).
_OBJECT_ID = re.compile(r"(?<![0-9A-Za-z])(?:[0-9a-f]{64}|[0-9a-f]{40})(?![0-9A-Za-z])")


def is_object_id(token: str) -> bool:
    """``token`` has the shape of a full-length git object id, and nothing else."""
    return _OBJECT_ID.fullmatch(token) is not None


def object_ids_in(text: str) -> set[str]:
    """The full-length object ids ``text`` holds (shape only, not yet looked up)."""
    if len(text) < 40:
        return set()
    return set(_OBJECT_ID.findall(text))


class KnownObjects:
    """The answers of one :data:`ObjectLookup`, asked at most once per id.

    Thread-safe (the MCP server redacts in worker threads). A lookup that fails
    answers "not an object" for what it was asked, so those stay masked.
    """

    def __init__(self, lookup: ObjectLookup) -> None:
        self._lookup = lookup
        self._lock = threading.Lock()
        self._asked: set[str] = set()
        self._found: set[str] = set()

    def prefetch(self, texts: Iterable[str]) -> None:
        """Look up every id not asked yet in ``texts``, in one lookup."""
        wanted: set[str] = set()
        for text in texts:
            wanted |= object_ids_in(text)
        self._ask(wanted)

    def named(self, tokens: Collection[str]) -> frozenset[str]:
        """Those of ``tokens`` that name an object of the repository."""
        self._ask({t for t in tokens if is_object_id(t)})
        with self._lock:
            return frozenset(t for t in tokens if t in self._found)

    def _ask(self, wanted: set[str]) -> None:
        with self._lock:
            new = wanted - self._asked
        if not new:
            return
        try:
            found = {t for t in self._lookup(sorted(new)) if t in new}
        except Exception:  # noqa: BLE001 - fail closed: an unanswered id stays masked
            found = set()
        with self._lock:
            self._found |= found
            self._asked |= new
