"""What a turn checkpoint's snapshot must change, from one ``git status`` against
the private index — for the agent hook's lean path (:mod:`.quick`): which
entries to drop and which files to (re)add, with the untracked files judged
the store's way for just the files the status names.

Tracked files gone from the work tree are kept in the state as the store keeps
them (``add -u`` drops them; one that comes back is put back explicitly).

The store's ``_filter_untracked`` applies, in this order: vibflow's own files
are never included; a nested repository, a likely secret by name, an
unreadable file and one over the size cap are left out and listed; then the
content verdict. Verdicts come from the store's scan cache
(``checkpoints/secret_scan.json``, :mod:`.scan_cache`) when it holds one for
the file as it is — by its stat data, or else by the SHA-256 of its bytes (a
file scanned right after it was written, copied or renamed); otherwise the
file is scanned by the store's own :class:`~.secret_files.SecretFiles`
(imported only then: pydantic and detect-secrets are more than the hook's
budget, and most turns edit tracked files only).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from vibflow.steps.checkpoints import gitstate, scan_cache
from vibflow.steps.checkpoints.lean_policy import LeanPolicy, Unsupported
from vibflow.steps.checkpoints.leftovers import is_restore_temp
from vibflow.steps.checkpoints.secret_names import NameRules
from vibflow.steps.checkpoints.snapshot_core import nested_repo_appeared


def _skip(
    path: str, reason: str, size: int | None = None, detail: str | None = None
) -> dict[str, Any]:
    # The key order of the store's Skipped.model_dump(): the metadata JSON is the same bytes.
    return {"path": path, "reason": reason, "size": size, "detail": detail}


class Plan:
    """What the snapshot index must drop and add (a plain class, as everything the
    hook imports: building a dataclass costs about a millisecond)."""

    def __init__(
        self,
        *,
        signature: list[int] | None,
        head: str | None,
        previous: set[str],
        was_missing: set[str],
        missing: set[str],
        gone: set[str],
        drop: list[str],
        add: list[str],
        current: set[str],
        skipped: list[dict[str, Any]],
        unscanned: int,
        nothing_new: bool,
    ) -> None:
        self.signature = signature
        self.head = head
        self.previous = previous  # untracked files in the private index before
        self.was_missing = was_missing  # tracked files missing before
        self.missing = missing  # tracked files missing now
        self.gone = gone  # untracked files to take out: deleted, now ignored, now left out
        self.drop = drop
        self.add = add
        self.current = current  # untracked files in the private index after
        self.skipped = skipped
        self.unscanned = unscanned  # new files stored without a scan (over its budget)
        self.nothing_new = nothing_new

    @property
    def reasons(self) -> list[tuple[str, str]]:
        return sorted((str(s["path"]), str(s["reason"])) for s in self.skipped)


class Seed:
    """What the snapshot starts from: the user's index signature and, unless the
    private index was just seeded again from it, what the last snapshot recorded."""

    def __init__(
        self, signature: list[int] | None, reseed: bool, previous: set[str], was_missing: set[str]
    ) -> None:
        self.signature = signature
        self.reseed = reseed
        self.previous = previous  # untracked files in the private index
        self.was_missing = was_missing  # tracked files missing at the last snapshot


class UntrackedJudge:
    """The store's untracked-file rules for one policy, over a given set of files."""

    def __init__(self, root: Path, folder: Path, policy: LeanPolicy) -> None:
        self.root = root
        self.dir = folder  # the store's checkpoints/ folder (its scan cache)
        self.policy = policy
        self._rules: NameRules | None = None
        self._cache: tuple[scan_cache.Files, scan_cache.Contents] | None = None

    def judge(
        self, status: gitstate.TreeStatus, previous: set[str], was_missing: set[str]
    ) -> tuple[list[str], list[dict[str, Any]], set[str], int]:
        """(untracked files to add, every untracked file left out, included files
        that must now be left out, how many added were not scanned) — the store's
        ``_filter_untracked`` over only the files the status names: those not in
        the private index, and the included ones whose content changed."""
        judged: dict[str, dict[str, Any] | None] = {}
        to_scan: list[tuple[str, os.stat_result]] = []
        names = [r for r in status.untracked if r not in was_missing]  # back: tracked
        names += [r for r in status.changed if r in previous]
        for rel in names:
            verdict = self._verdict(rel)
            if isinstance(verdict, os.stat_result):
                to_scan.append((rel, verdict))
            elif verdict != "ignore":
                judged[rel] = verdict  # type: ignore[assignment]
        unscanned = 0
        if to_scan:
            found, unscanned = self._scan_now(to_scan)
            judged.update({rel: found.get(rel) for rel, _ in to_scan})
        new = sorted(r for r, v in judged.items() if v is None and r not in previous)
        skipped = sorted((v for v in judged.values() if v is not None), key=lambda s: s["path"])
        out = {r for r, v in judged.items() if v is not None and r in previous}
        return new, skipped, out, unscanned

    def _verdict(self, rel: str) -> dict[str, Any] | str | os.stat_result | None:
        """``None``: include it; ``"ignore"``: vibflow's own; its lstat: its content
        must be scanned first; else why it is left out."""
        if rel.startswith(".vibflow/") or is_restore_temp(rel):
            return "ignore"
        if rel.endswith("/"):
            return _skip(rel.rstrip("/"), "nested_repo")
        if self._rules is None:
            p = self.policy
            self._rules = NameRules((*p.names, *p.extra_names), p.allow)
        rule = self._rules.rule(rel)
        if rule is not None:
            return _skip(rel, "secret_name", detail=rule)
        try:
            st = os.lstat(f"{self.root}/{rel}")
        except OSError:
            return _skip(rel, "unreadable")
        if st.st_size > self.policy.size_cap_bytes:
            return _skip(rel, "too_large", size=st.st_size)
        kinds = self._content_kinds(rel, st)
        if kinds is None:
            return st
        if kinds:
            return _skip(rel, "secret_content", detail=", ".join(kinds))
        return None

    def _content_kinds(self, rel: str, st: os.stat_result) -> list[str] | None:
        """The secret kinds the store's scan cache holds for this file as it is now
        (``[]`` for a file never scanned: empty, large, not a regular file), or
        ``None`` when it must be scanned."""
        p = self.policy
        if not p.scan_content or not stat.S_ISREG(st.st_mode):
            return []
        if st.st_size == 0 or st.st_size > p.scan_max_kb * 1024:
            return []
        files, contents = self._scan_cache()
        key = scan_cache.stat_key(st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
        known = files.get(rel)
        if known is not None and known[0] == key:
            kinds: list[str] | None = [str(k) for k in known[1]]
        else:
            kinds = self._by_content(rel, contents)
        if kinds is None:
            return None
        return kinds if p.scan_generic else [k for k in kinds if k not in scan_cache.GENERIC_KINDS]

    def _by_content(self, rel: str, contents: scan_cache.Contents) -> list[str] | None:
        """The verdict cached for the file's bytes as they are now, if any (the
        bytes the scanner would read: up to ``scan_max_kb``, plus one)."""
        if not contents:
            return None
        try:
            with open(f"{self.root}/{rel}", "rb") as fh:  # noqa: PTH123 - no Path on this path
                data = fh.read(self.policy.scan_max_kb * 1024 + 1)
        except OSError:
            return None
        return contents.get(scan_cache.content_key(data))

    def _scan_now(
        self, files: list[tuple[str, os.stat_result]]
    ) -> tuple[dict[str, dict[str, Any]], int]:
        """The store's own content scan (:class:`~.secret_files.SecretFiles`, same
        detectors, budget and verdict cache) of the files whose verdict is not cached:
        (why each secret one is left out, how many were over the scan budget and are
        stored unscanned, as the store stores them). It imports pydantic and the
        detectors, so only a turn with a new or edited untracked file pays it."""
        from vibflow.steps.checkpoints.models import SecretFilesPolicy
        from vibflow.steps.checkpoints.secret_files import SecretFiles

        p = self.policy
        policy = SecretFilesPolicy(
            names=p.names,
            extra_names=p.extra_names,
            allow=p.allow,
            scan_content=p.scan_content,
            scan_max_kb=p.scan_max_kb,
            scan_budget_mb=p.scan_budget_mb,
            scan_generic=p.scan_generic,
        )
        if policy.fingerprint() != p.fingerprint:
            raise Unsupported("the secret-file rules do not read back the same")
        scanner = SecretFiles(self.root, policy, self.dir / "secret_scan.json")
        found = scanner.by_content(files, every_file=False)
        self._cache = None  # the scan wrote its verdicts: read them afresh if asked
        return {s.path: s.model_dump(mode="json") for s in found.skipped}, found.unscanned

    def _scan_cache(self) -> tuple[scan_cache.Files, scan_cache.Contents]:
        if self._cache is None:
            self._cache = scan_cache.load(self.dir / "secret_scan.json", self.policy.scan_max_kb)
        return self._cache

    def plan(self, seed: Seed, status: gitstate.TreeStatus, now_ignored: list[str]) -> Plan:
        """What the snapshot index must drop and add to match the work tree."""
        previous, was_missing, reseed = seed.previous, seed.was_missing, seed.reseed
        if status.unusual:
            raise Unsupported("an unmerged entry, a rename or a submodule")
        if nested_repo_appeared(self.root, previous):
            raise Unsupported("a folder of included files became a repository")
        # A file that became a folder is reported as changed; like ``add -u``, its
        # entry goes (the files in the folder are untracked, and listed as such).
        became_dirs = [r for r in status.changed if self._is_dir(r)]
        if became_dirs:
            status.changed = [r for r in status.changed if r not in set(became_dirs)]
            status.deleted = [*status.deleted, *became_dirs]
        # Tracked files gone from the work tree (``add -u`` drops them; one that
        # comes back is put back explicitly), as the store keeps them.
        missing = {p for p in status.deleted if p not in previous}
        back = sorted(
            p for p in was_missing if p not in missing and self._exists(p) and not self._is_dir(p)
        )
        missing |= {p for p in was_missing if p not in back}
        new, skipped, left_out, unscanned = self.judge(status, previous, was_missing)
        gone = set(now_ignored) | (previous & set(status.deleted)) | left_out
        return Plan(
            signature=seed.signature,
            head=status.head,
            previous=previous,
            was_missing=was_missing,
            missing=missing,
            gone=gone,
            drop=sorted(gone | set(status.deleted)),
            add=sorted(set(status.changed) - gone) + new + back,
            current=(previous - gone) | set(new),
            skipped=skipped,
            unscanned=unscanned,
            nothing_new=not (gone or new or back or status.changed or status.deleted or reseed),
        )

    def _is_dir(self, rel: str) -> bool:
        try:
            return stat.S_ISDIR(os.lstat(f"{self.root}/{rel}").st_mode)
        except OSError:
            return False

    def _exists(self, rel: str) -> bool:
        return os.path.lexists(f"{self.root}/{rel}")
