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
next to the snapshot index; a verdict is cached only for a file last modified
well before the scan began (the racy-git rule: a same-size rewrite within the
file system's timestamp granularity would otherwise keep a stale "clean").
The cache is only ever a shortcut: losing it means scanning again.
"""

from __future__ import annotations

import bisect
import json
import os
import stat
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vibflow.engine.atomicfile import atomic_write
from vibflow.steps.checkpoints.models import SecretFilesPolicy, Skipped
from vibflow.steps.checkpoints.secret_names import NameRules

if TYPE_CHECKING:
    from vibflow.steps.redaction.spans import Span

# Generic kinds of finding (keyword assignments, high-entropy strings, URL
# credentials): they count only with `scan_generic`; every other kind — a vendor
# token, a private key, a JWT, a bearer header — always does.
GENERIC_KINDS = frozenset({"credential", "high_entropy", "high_entropy_hex", "url_credentials"})
# A verdict is cached only for files last modified this long before the scan.
RACY_NS = 2_000_000_000
BINARY_PROBE = 8192  # bytes looked at for a NUL, as git does
SCAN_BATCH = 1024 * 1024  # characters of file text handed to the detectors at once
CACHE_VERSION = 1


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
        cache = self._load_cache()
        verdicts, todo = self._known(files, cache)
        now, later = self._within_budget(todo)
        if now and progress is not None:
            progress(f"scanning {len(now)} new or changed untracked file(s) for secrets")
        for cand, kinds in self._scan(now):
            if started - cand.key[1] > RACY_NS:
                verdicts[cand.path] = [cand.key, kinds]
            else:  # judged now, but not trusted next time: scanned again then
                verdicts[cand.path] = [None, kinds]
        cacheable = {p: v for p, v in verdicts.items() if v[0] is not None}
        if not every_file:
            cacheable = {**cache, **cacheable}
        if cacheable != cache:
            self._save_cache(cacheable)
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
            key = [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]
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

    def _scan(self, todo: list[_Candidate]) -> list[tuple[_Candidate, list[str]]]:
        """Every finding kind in each file, the files scanned many to one call."""
        if not todo:
            return []
        from vibflow.steps.redaction.secrets import collapse_whitespace, find_secrets

        results: list[tuple[_Candidate, list[str]]] = []
        batch: list[tuple[_Candidate, str]] = []
        size = 0

        def flush() -> None:
            nonlocal size
            if batch:
                results.extend(_kinds_per_file(batch, find_secrets))
            batch.clear()
            size = 0

        for cand in todo:
            text = self._text(cand.path)
            if text is None:
                results.append((cand, []))
                continue
            text = collapse_whitespace(text)
            batch.append((cand, text))
            size += len(text)
            if size >= SCAN_BATCH:
                flush()
        flush()
        return results

    def _text(self, rel: str) -> str | None:
        try:
            with (self.root / rel).open("rb") as fh:
                data = fh.read(self.policy.scan_max_kb * 1024 + 1)
        except OSError:
            return None
        if b"\0" in data[:BINARY_PROBE]:
            return None  # binary: the detectors read text
        return data.decode("utf-8", "replace")

    def _load_cache(self) -> dict[str, list[Any]]:
        try:
            data = json.loads(self.cache_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("version") != CACHE_VERSION:
            return {}
        if data.get("scan_max_kb") != self.policy.scan_max_kb:
            return {}  # a file cut at the old size was judged on part of its text
        files = data.get("files")
        if not isinstance(files, dict):
            return {}
        return {
            p: v
            for p, v in files.items()
            if isinstance(v, list)
            and len(v) == 2
            and isinstance(v[0], list)
            and isinstance(v[1], list)
        }

    def _save_cache(self, files: dict[str, list[Any]]) -> None:
        body = {"version": CACHE_VERSION, "scan_max_kb": self.policy.scan_max_kb, "files": files}
        # Not durable: a lost cache only means scanning again.
        atomic_write(self.cache_file, json.dumps(body), durable=False)


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
