"""Read the zone's evidence from the project — bounded, read-only.

* references: each changed candidate file (at most ``reference_files``, the
  first ``reference_bytes`` of each, binary files skipped) and each explicit
  file are scanned with the rules of ``references``; for the few files a link
  was found in, the version at HEAD is read (one ``git cat-file --batch``) to
  tell whether the linking line is part of the change;
* co-change: one ``git log`` (``cochange.read``), started early by the caller;
* names: the file names in each explicit file's folder (one listing each);
* mentions: the lines each changed documentation page added (at most
  ``_DOCS_MAX`` pages; the HEAD side in the same one ``cat-file --batch``
  style read), for the intent's words they use;
* then the second round (``evidence_closure``): sibling copies, the intent's
  literals, the closure over references and the dependency lines needed.

Text is read through ``evidence_text.Reader`` (each file once per plan); links
and shared names are found by ``evidence_links``.

No network, no model, nothing written.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from vibflow.steps.recovery import cochange, embedded, moved_apart, shared_names
from vibflow.steps.recovery.environments import environments_in
from vibflow.steps.recovery.evidence import Evidence, Link, removes_tests
from vibflow.steps.recovery.evidence_closure import (
    close,
    find_literals,
    find_mirrors,
    find_needs,
    find_renames,
)
from vibflow.steps.recovery.evidence_links import find_links, find_shared, tested_stems
from vibflow.steps.recovery.evidence_text import SEEDS_MAX, Reader, at_head, is_doc_page
from vibflow.steps.recovery.git_memo import Pinned
from vibflow.steps.recovery.mirrors import intent_tokens
from vibflow.steps.recovery.models import ChangedFile
from vibflow.steps.recovery.proximity import matched, words
from vibflow.steps.recovery.reformats import NONE as NO_REFORMATS
from vibflow.steps.recovery.reformats import Reformats, asks_for_formatting
from vibflow.steps.recovery.zone_policy import ZonePolicy
from vibflow.steps.workspace.git import Git

__all__ = ["gather", "is_doc_page"]

#: Names listed per folder for the distinctive-word check.
_FOLDER_NAMES = 2000
#: New files read for a deleted file of yours that may have moved there.
_MOVED_READ = 500
#: Changed documentation pages read for the intent's words.
_DOCS_MAX = 200


def gather(
    root: Path,
    git: Git,
    changed: Sequence[ChangedFile],
    seeds: Mapping[str, Sequence[str]],
    intent: str | None,
    policy: ZonePolicy,
    history: Iterable[tuple[str, ...]] = (),
    anchors: Sequence[str] = (),
    whole: Mapping[str, bytes] | None = None,
    held_out: frozenset[str] = frozenset(),
    memo: Pinned | None = None,
    head: str | None = None,
) -> Evidence:
    """The evidence for the changed files, against ``seeds`` (each explicit file →
    the names it may be referred to by: its path, and its old path if renamed);
    co-change is counted against ``anchors`` (the explicit entries themselves);
    ``whole``: files already read whole (by the generated-file rules);
    ``held_out``: files the user said are drift (never a step of the closure);
    ``memo``: a long-lived process's answers, each kept under its whole input;
    ``head``: HEAD's commit id, as the listing read it."""
    by_path = {c.path: c for c in changed}
    reader = Reader(root, git, policy.reference_bytes, whole or {}, memo, head)
    candidates = [
        c
        for c in changed
        if not c.generated and not c.lockfile and c.path not in seeds and c.status != "deleted"
    ]
    links: dict[str, list[Link]] = {}
    if seeds and policy.reference_files > 0:
        links = find_links(reader, by_path, candidates[: policy.reference_files], seeds)
    folders: dict[str, tuple[str, ...]] = {}
    for seed in list(seeds)[:SEEDS_MAX]:
        folder = seed.rpartition("/")[0]
        if folder not in folders:
            try:
                with os.scandir(root / folder if folder else root) as it:
                    folders[folder] = tuple(
                        e.name for _, e in zip(range(_FOLDER_NAMES), it, strict=False)
                    )
            except OSError:
                folders[folder] = ()
    intent_words = frozenset(words(intent or ""))
    mentions = _mentions(reader, candidates, _worked_on(reader, by_path, seeds, intent_words))
    shared: dict[str, tuple[str, str, str]] = {}
    if seeds and policy.reference_files > 0:
        shared = find_shared(
            reader, by_path, candidates[: policy.reference_files], seeds, intent_words
        )
    co = cochange.count(
        history,
        anchors,
        [c.path for c in candidates] + [c.old_path for c in candidates if c.old_path],
    )
    said = intent_tokens(intent or "")
    copies = find_mirrors(reader, by_path, candidates, said) if policy.mirrors and said else {}
    evidence = Evidence(
        links=links,
        cochange=co,
        folders=folders,
        intent_words=intent_words,
        min_together=policy.cochange_min_together,
        proximity=policy.proximity,
        mentions=mentions,
        tested=tested_stems(seeds),
        removes_tests=removes_tests(intent or ""),
        shared=shared,
        mirrors=copies,
        environments=environments_in(said) if policy.environments else frozenset(),
        reformats=_reformats(reader, by_path, said) if policy.reformats else NO_REFORMATS,
        shown=embedded.shown(changed, reader.added, policy.reference_files),
        moved=_moved(reader, anchors, changed, held_out),
    )
    if not seeds or policy.reference_files == 0:
        return evidence
    limited = candidates[: policy.reference_files]
    if policy.literals:
        # When every file you named is documentation, the task is documenting: a
        # literal written in code is what the page documents, not the documenting.
        docs_only = all(is_doc_page(seed) for seed in seeds)
        wanted = [c for c in limited if is_doc_page(c.path)] if docs_only else limited
        evidence = find_literals(reader, wanted, intent or "", evidence)
        evidence = find_renames(reader, by_path, limited, intent or "", evidence)
    evidence = close(reader, by_path, limited, seeds, evidence, policy, held_out)
    if not policy.dependencies:
        return evidence
    return find_needs(reader, by_path, limited, seeds, evidence, held_out)


def _moved(
    reader: Reader,
    anchors: Sequence[str],
    changed: Sequence[ChangedFile],
    held_out: frozenset[str],
) -> dict[str, str]:
    """New files that may be where a deleted file you named moved (``moved_apart``),
    judged on the deleted files' text at HEAD and at most ``_MOVED_READ`` new files'."""
    by_path = {c.path: c for c in changed}
    # The entries themselves: a file under a folder you named is not one you named.
    gone = [a for a in anchors if a in by_path and by_path[a].status == "deleted"]
    if not gone:
        return {}
    texts = at_head(reader.git, gone, reader.limit, reader.head or "HEAD")
    if not texts:
        return {}
    new = [
        c.path
        for c in changed
        if c.status in ("added", "untracked")
        and not c.generated
        and not c.lockfile
        and c.path not in held_out
    ]
    found = moved_apart.moves(
        texts, {p: reader.now(p) if n < _MOVED_READ else None for n, p in enumerate(new)}
    )
    return {path: moved_apart.reason(was, how) for path, (was, how) in found.items()}


def _reformats(
    reader: Reader, by_path: Mapping[str, ChangedFile], said: frozenset[str]
) -> Reformats:
    """Which changed files only reformat, read when asked; none when the intent asks
    for formatting (then a reformat is the work)."""
    if asks_for_formatting(said):
        return NO_REFORMATS

    def texts(paths: Sequence[str]) -> dict[str, tuple[str | None, str | None]]:
        modified = [by_path[p] for p in paths if p in by_path and by_path[p].status == "modified"]
        before = reader.before(modified)  # one cat-file for every HEAD side not read yet
        return {c.path: (before.get(c.path), reader.now(c.path)) for c in modified}

    return Reformats(texts)


def _worked_on(
    reader: Reader,
    by_path: Mapping[str, ChangedFile],
    seeds: Mapping[str, Sequence[str]],
    intent_words: frozenset[str],
) -> frozenset[str]:
    """The intent's words the change to your files adds too — what is being made
    (``csv`` for "an Export CSV button on the invoices list"), not where (``list``)
    — or all of them when none of your files changed (nothing to tell them by)."""
    changed = [
        by_path[s]
        for s in list(seeds)[:SEEDS_MAX]
        if s in by_path and by_path[s].status != "deleted"
    ]
    if not changed or not intent_words:
        return intent_words
    reader.before(changed)  # one read of every HEAD side
    added = " ".join(line for c in changed for line in reader.added(c))
    return frozenset(matched(intent_words, words(added)))


def _mentions(
    reader: Reader,
    candidates: Sequence[ChangedFile],
    intent_words: frozenset[str],
) -> dict[str, tuple[str, ...]]:
    """Documentation page → the intent's words in the lines it added."""
    docs = [c for c in candidates if is_doc_page(c.path)][:_DOCS_MAX]
    if not docs or not intent_words:
        return {}
    before = reader.before(docs)
    out: dict[str, tuple[str, ...]] = {}
    for c in docs:
        now = reader.now(c.path)
        if now is None:
            continue
        old = before.get(c.path, "")
        added = shared_names.added(old, now)
        # A word the page already used is its subject, not what this change adds
        # (a README about entries, rewritten for setup, still says "entries").
        had = set(words(old))
        found = [w for w in matched(intent_words, words(" ".join(added))) if w not in had]
        if found:
            out[c.path] = tuple(found)
    return out
