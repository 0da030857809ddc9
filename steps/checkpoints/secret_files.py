"""Which untracked files a checkpoint leaves out because they likely hold a secret.

A checkpoint is a commit in the user's repository: whatever it stores can be
read back with ``git show`` by anyone with the repository, and outlives the
file. An untracked ``.env`` that a missing ``.gitignore`` line lets through
must not be copied there. Two rules, both policy (``recovery.checkpoints.secrets``):

* **By name** — a file whose name matches the secret-file list (``.env``,
  ``*.pem``, ``id_rsa*``, ``credentials.json``, ...), unless ``allow`` lists it.
  Case-insensitive: ``ID_RSA`` is as secret as ``id_rsa``.
* **By content** — a small text file in which the redaction detectors find a
  secret. Only the specific detectors count by default (a vendor token, a
  private key, a JWT): the generic ones (a ``password=`` assignment, any
  high-entropy string) also flag lock-file hashes and test fixtures, and a
  file wrongly left out is a file a restore cannot bring back.

Tracked files are never judged here: tracking a file is the user's choice.

The detectors read about 1.5 MB of text a second, so scanning is bounded:
files over ``scan_max_kb`` and binary files are not scanned, a file is
scanned again only when its stat data changed, and one checkpoint scans at
most ``scan_budget_mb`` of new text (configuration-like names first, then the
smallest files); the rest is stored unscanned, counted in the checkpoint's
``unscanned_count``, and scanned by the next checkpoints — a drift of tens of
thousands of new files must not make the sandwich checkpoint take minutes.
The verdicts are cached in a private file
next to the snapshot index, two ways. By path and stat data: a verdict is
cached only for a file last modified well before the scan began (the racy-git
rule: a same-size rewrite within the file system's timestamp granularity
would otherwise keep a stale "clean"). And by content (the SHA-256 of the
exact bytes the detectors read; :mod:`.scan_cache`): a
verdict about bytes is true whenever those bytes are read again, so a file
scanned right after it was written (too young for the stat key) or copied,
renamed or rewritten to the same text is judged by hashing it — no detector
run, and for the agent hook no import of the detectors at all. The cache is
only ever a shortcut: losing it means scanning again.
"""

from __future__ import annotations

import bisect
import os
import stat
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vibflow.steps.checkpoints import scan_cache
from vibflow.steps.checkpoints.models import SecretFilesPolicy, Skipped
from vibflow.steps.checkpoints.scan_cache import GENERIC_KINDS, content_key
from vibflow.steps.checkpoints.secret_names import NameRules

if TYPE_CHECKING:
    from vibflow.steps.redaction.spans import Span

# Generic kinds of finding (scan_cache.GENERIC_KINDS) count only with
# `scan_generic`; every other kind — a vendor token, a private key, a JWT, a
# bearer header — always does.
# A verdict is cached only for files last modified this long before the scan.
RACY_NS = 2_000_000_000
BINARY_PROBE = 8192  # bytes looked at for a NUL, as git does
SCAN_BATCH = 1024 * 1024  # characters of file text handed to the detectors at once


@dataclass(frozen=True)
class ContentVerdicts:
    """Files left out for what they hold, and how many new files were not scanned."""

    skipped: list[Skipped]
    unscanned: int


@dataclass(frozen=True)
class _Candidate:
    path: str
    key: list[int]  # the stat data a cached verdict is tied to
    size: int


class SecretFiles:
    """The secret-file rules of one policy, with the scan cache in ``cache_file``."""

    def __init__(self, root: Path, policy: SecretFilesPolicy, cache_file: Path) -> None:
        self.root = root
        self.policy = policy
        self.cache_file = cache_file
        self._rules = NameRules((*policy.names, *policy.extra_names), policy.allow)

    @property
    def fingerprint(self) -> str:
        return self.policy.fingerprint()

    def name_rule(self, rel: str) -> str | None:
        """The secret-file pattern ``rel`` matches (``allow`` excepted), or ``None``."""
        return self._rules.rule(rel)

    def by_content(
        self,
        files: Sequence[tuple[str, os.stat_result]],
        *,
        every_file: bool = True,
        progress: Callable[[str], None] | None = None,
    ) -> ContentVerdicts:
        """Which of ``files`` (path, lstat) the detectors find a secret in.

        ``every_file``: ``files`` are all the untracked files there are, so
        cached verdicts of any other file are dropped (they were deleted or
        became ignored); otherwise the cache only gains.
        """
        if not self.policy.scan_content or not files:
            return ContentVerdicts([], 0)
        started = time.time_ns()
        cache, contents = scan_cache.load(self.cache_file, self.policy.scan_max_kb)
        verdicts, todo = self._known(files, cache)
        now, later = self._within_budget(todo)
        if now and progress is not None:
            progress(f"scanning {len(now)} new or changed untracked file(s) for secrets")
        learned: dict[str, list[str]] = {}
        for cand, kinds in self._scan(now, contents, learned):
            if started - cand.key[1] > RACY_NS:
                verdicts[cand.path] = [cand.key, kinds]
            else:  # judged now, but not trusted next time by its stat data
                verdicts[cand.path] = [None, kinds]
        cacheable = {p: v for p, v in verdicts.items() if v[0] is not None}
        if not every_file:
            cacheable = {**cache, **cacheable}
        if cacheable != cache or learned:
            for digest, kinds in learned.items():
                contents.pop(digest, None)  # re-inserted: newest last
                contents[digest] = kinds
            scan_cache.save(self.cache_file, self.policy.scan_max_kb, cacheable, contents)
        out: list[Skipped] = []
        for rel, _ in files:
            known = verdicts.get(rel)
            counted = self._counted(known[1]) if known is not None else []
            if counted:
                out.append(Skipped(path=rel, reason="secret_content", detail=", ".join(counted)))
        return ContentVerdicts(out, len(later))

    def _known(
        self, files: Sequence[tuple[str, os.stat_result]], cache: dict[str, list[Any]]
    ) -> tuple[dict[str, list[Any]], list[_Candidate]]:
        """(cached verdicts still valid, files to scan): a verdict holds while the
        file's stat data is what it was when it was scanned."""
        cap = self.policy.scan_max_kb * 1024
        verdicts: dict[str, list[Any]] = {}
        todo: list[_Candidate] = []
        for rel, st in files:
            if not stat.S_ISREG(st.st_mode) or st.st_size == 0 or st.st_size > cap:
                continue  # links, empty files and large files are not scanned
            key = scan_cache.stat_key(st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
            known = cache.get(rel)
            if known is not None and known[0] == key:
                verdicts[rel] = known
            else:
                todo.append(_Candidate(rel, key, st.st_size))
        return verdicts, todo

    def _within_budget(self, todo: list[_Candidate]) -> tuple[list[_Candidate], list[_Candidate]]:
        """(scanned now, left for a later checkpoint): the files most likely to hold
        a secret first — configuration-like names, then the smallest."""
        budget = int(self.policy.scan_budget_mb * 1024 * 1024)
        ranked = sorted(todo, key=lambda c: (not _config_like(c.path), c.size, c.path))
        used = 0
        for n, cand in enumerate(ranked):
            used += cand.size
            if used > budget:
                return ranked[:n], ranked[n:]
        return ranked, []

    def _counted(self, kinds: list[str]) -> list[str]:
        if self.policy.scan_generic:
            return kinds
        return [k for k in kinds if k not in GENERIC_KINDS]

    def _scan(
        self,
        todo: list[_Candidate],
        contents: dict[str, list[str]],
        learned: dict[str, list[str]],
    ) -> list[tuple[_Candidate, list[str]]]:
        """Every finding kind in each file, the files scanned many to one call —
        or taken from ``contents`` when these exact bytes were judged before;
        ``learned`` gains the verdict of every content read."""
        if not todo:
            return []
        results: list[tuple[_Candidate, list[str]]] = []
        batch: list[tuple[_Candidate, str, str]] = []
        size = 0

        def flush() -> None:
            nonlocal size
            if batch:
                from vibflow.steps.redaction.secrets import find_secrets

                texts = [(cand, text) for cand, text, _ in batch]
                for (cand, kinds), (_, _, digest) in zip(
                    _kinds_per_file(texts, find_secrets), batch, strict=True
                ):
                    learned[digest] = kinds
                    results.append((cand, kinds))
            batch.clear()
            size = 0

        for cand in todo:
            data = self._read(cand.path)
            if data is None:
                results.append((cand, []))
                continue
            digest = content_key(data)
            known = contents.get(digest)
            if known is not None:
                learned[digest] = known
                results.append((cand, known))
            elif b"\0" in data[:BINARY_PROBE]:
                learned[digest] = []  # binary: the detectors read text
                results.append((cand, []))
            else:
                from vibflow.steps.redaction.secrets import collapse_whitespace

                text = collapse_whitespace(data.decode("utf-8", "replace"))
                batch.append((cand, text, digest))
                size += len(text)
                if size >= SCAN_BATCH:
                    flush()
        flush()
        return results

    def _read(self, rel: str) -> bytes | None:
        try:
            with (self.root / rel).open("rb") as fh:
                return fh.read(self.policy.scan_max_kb * 1024 + 1)
        except OSError:
            return None


def _kinds_per_file(
    batch: list[tuple[_Candidate, str]], find: Callable[[str], list[Span]]
) -> list[tuple[_Candidate, list[str]]]:
    """One detector call over the batch's texts joined as lines (the detectors
    work line by line, so a file's findings are those it would get alone, plus
    any value found elsewhere in the batch standing in it too); each finding
    belongs to the file its span starts in."""
    starts: list[int] = []
    pos = 0
    for _, text in batch:
        starts.append(pos)
        pos += len(text) + 1
    joined = "\n".join(text for _, text in batch)
    found: list[set[str]] = [set() for _ in batch]
    for span in find(joined):
        kind = span.replacement.removeprefix("[REDACTED:").removesuffix("]")
        found[bisect.bisect_right(starts, span.start) - 1].add(kind)
    return [(cand, sorted(kinds)) for (cand, _), kinds in zip(batch, found, strict=True)]


_CONFIG_SUFFIXES = (
    ".json", ".yaml", ".yml", ".toml", ".ini", ".cfg", ".conf", ".properties",
    ".xml", ".txt", ".sh", ".rc",
)  # fmt: skip


def _config_like(rel: str) -> bool:
    base = rel.rsplit("/", 1)[-1].lower()
    return "." not in base.lstrip(".") or base.endswith(_CONFIG_SUFFIXES)
