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
  style read), for the intent's words they use.

No network, no model, nothing written.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Literal

from vibflow.engine.errors import VibflowError
from vibflow.steps.recovery import cochange, shared_names
from vibflow.steps.recovery.evidence import Evidence, Link
from vibflow.steps.recovery.git_memo import Pinned
from vibflow.steps.recovery.models import ChangedFile
from vibflow.steps.recovery.proximity import matched, plain_stem, words
from vibflow.steps.recovery.references import (
    MODULE_NAMED,
    Index,
    camelize,
    changed_lines,
    scan,
)
from vibflow.steps.recovery.zone_policy import ZonePolicy
from vibflow.steps.workspace.git import Git

#: Names listed per folder for the distinctive-word check.
_FOLDER_NAMES = 2000
#: Explicit files read as sources of references.
_SEEDS_MAX = 200
#: Changed documentation pages read for the intent's words.
_DOCS_MAX = 200
_DOC_EXT = (".md", ".mdx", ".markdown", ".rst", ".adoc", ".asciidoc")


def is_doc_page(path: str) -> bool:
    """Prose for readers: Markdown, reST, AsciiDoc anywhere; plain text in a docs
    folder (a ``.txt`` elsewhere is as likely a template or data)."""
    lower = path.lower()
    if lower.endswith(_DOC_EXT):
        return True
    return lower.endswith(".txt") and any(d in ("docs", "doc") for d in lower.split("/")[:-1])


def read_text(path: Path | str, limit: int, known: bytes | None = None) -> str | None:
    """The first ``limit`` bytes of a regular file as text (``known``: the file's
    bytes, already read whole); None for binary or unreadable."""
    if known is not None:
        data = known[:limit]
    else:
        try:
            with open(path, "rb") as fh:  # noqa: PTH123 - a bounded read
                data = fh.read(limit)
        except OSError:
            return None
    if b"\0" in data[:1024]:
        return None
    return data.decode("utf-8", "replace")


def _text_of(top: str, path: str, limit: int, whole: Mapping[str, bytes]) -> str | None:
    """:func:`read_text` of ``path`` under the folder ``top``, or of its bytes in
    ``whole`` — the hot loops' form: no ``Path`` made per file."""
    known = whole.get(path)
    return read_text(top if known is not None else os.path.join(top, path), limit, known)  # noqa: PTH118


def _mentioned(path: str, text: str) -> bool:
    folder, _, base = path.rpartition("/")
    stem = base.split(".")[0] or base
    if base.lower().endswith(MODULE_NAMED) and camelize(stem) in text:
        return True
    return stem in text or (bool(folder) and folder.rpartition("/")[2] in text)


def _needles(seeds: Mapping[str, Sequence[str]]) -> re.Pattern[str] | None:
    """Words one of which every reference to a seed contains (its stem, or its
    folder's name for a package or an index file): a file holding none of them
    cannot refer to a seed, and is not scanned line by line."""
    words: set[str] = set()
    for names in seeds.values():
        for name in names:
            folder, _, base = name.rpartition("/")
            words.add(base.split(".")[0] or base)
            if base.lower().endswith(MODULE_NAMED):
                words.add(camelize(base.split(".")[0]))  # the code names its module
            if folder:
                words.add(folder.rpartition("/")[2])
    words.discard("")
    if not words:
        return None
    return re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)))


def _at_head(git: Git, paths: Sequence[str], limit: int) -> dict[str, str]:
    """HEAD's text of ``paths`` (one ``cat-file --batch``); absent ones are left out."""
    asked = [p for p in paths if "\n" not in p]
    if not asked:
        return {}
    try:
        raw = git.run(
            "cat-file",
            "--batch",
            stdin="".join(f"HEAD:{p}\n" for p in asked).encode("utf-8", "surrogateescape"),
        )
    except VibflowError:
        return {}
    out: dict[str, str] = {}
    pos = 0
    for path in asked:
        end = raw.find(b"\n", pos)
        if end < 0:
            break
        header = raw[pos:end].split()
        pos = end + 1
        if len(header) != 3 or header[1] != b"blob":
            continue
        size = int(header[2])
        body = raw[pos : pos + size]
        pos += size + 1
        if b"\0" not in body[:1024]:
            out[path] = body[:limit].decode("utf-8", "replace")
    return out


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
    memo: Pinned | None = None,
) -> Evidence:
    """The evidence for the changed files, against ``seeds`` (each explicit file →
    the names it may be referred to by: its path, and its old path if renamed);
    co-change is counted against ``anchors`` (the explicit entries themselves);
    ``whole``: files already read whole (by the generated-file rules); ``memo``: a
    long-lived process's answers, each kept under its whole input."""
    by_path = {c.path: c for c in changed}
    whole = whole or {}
    candidates = [
        c
        for c in changed
        if not c.generated and not c.lockfile and c.path not in seeds and c.status != "deleted"
    ]
    links: dict[str, list[Link]] = {}
    if seeds and policy.reference_files > 0:
        links = _links(
            root, git, by_path, candidates[: policy.reference_files], seeds, policy, whole
        )
    folders: dict[str, tuple[str, ...]] = {}
    for seed in list(seeds)[:_SEEDS_MAX]:
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
    mentions = _mentions(root, git, candidates, intent_words, policy.reference_bytes, whole)
    shared: dict[str, tuple[str, str, str]] = {}
    if seeds and policy.reference_files > 0:
        shared = _shared_names(
            root, git, by_path, candidates[: policy.reference_files], seeds, policy, whole, memo
        )
    co = cochange.count(
        history,
        anchors,
        [c.path for c in candidates] + [c.old_path for c in candidates if c.old_path],
    )
    return Evidence(
        links=links,
        cochange=co,
        folders=folders,
        intent_words=intent_words,
        min_together=policy.cochange_min_together,
        proximity=policy.proximity,
        mentions=mentions,
        tested={plain_stem(seed): seed for seed in seeds},
        shared=shared,
    )


def _shared_names(
    root: Path,
    git: Git,
    by_path: Mapping[str, ChangedFile],
    candidates: Sequence[ChangedFile],
    seeds: Mapping[str, Sequence[str]],
    policy: ZonePolicy,
    whole: Mapping[str, bytes],
    memo: Pinned | None = None,
) -> dict[str, tuple[str, str, str]]:
    """Changed file → (explicit file, "uses" | "defines", name): the names the
    explicit files' changes define or use that a candidate's change uses or
    defines (``shared_names``). Only files holding one of those names are diffed."""
    limit = policy.reference_bytes
    changed_seeds = [
        by_path[s]
        for s in list(seeds)[:_SEEDS_MAX]
        if s in by_path and by_path[s].status != "deleted"
    ]
    if not changed_seeds:
        return {}
    now = {c.path: read_text(root / c.path, limit, whole.get(c.path)) for c in changed_seeds}
    olds = _old_texts(git, changed_seeds, limit)
    defines: dict[str, str] = {}
    uses: dict[str, str] = {}
    for c in changed_seeds:
        text = now[c.path]
        if text is None:
            continue
        lines = shared_names.added(olds.get(c.path), text)
        for name in sorted(shared_names.defined(lines, keys=shared_names.is_settings(c.path))):
            defines.setdefault(name, c.path)
        for name in sorted(shared_names.used(lines)):
            uses.setdefault(name, c.path)
    names = set(defines) | set(uses)
    if not names:
        return {}
    needle = re.compile(
        r"\b(?:" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + r")\b"
    )
    theirs_defined = frozenset(defines)
    theirs_used = frozenset(uses)
    holding: dict[str, str] = {}
    top = str(root)
    for c in candidates:
        text = _text_of(top, c.path, limit, whole)
        if text is None or not needle.search(text):
            continue
        # The whole text first: only a file that could link reads its HEAD side.
        keys = shared_names.is_settings(c.path)
        if _links_whole(text, theirs_defined, theirs_used, keys, memo):
            holding[c.path] = text
    if not holding:
        return {}
    olds = _old_texts(git, [by_path[p] for p in holding], limit)
    out: dict[str, tuple[str, str, str]] = {}
    for path, text in holding.items():
        found = shared_names.link(
            shared_names.added(olds.get(path), text),
            theirs_defined,
            theirs_used,
            keys=shared_names.is_settings(path),
        )
        if found is not None:
            how, name = found
            out[path] = (defines[name] if how == "uses" else uses[name], how, name)
    return out


def _links_whole(
    text: str,
    theirs_defined: frozenset[str],
    theirs_used: frozenset[str],
    keys: bool,
    memo: Pinned | None,
) -> bool:
    """Whether any of ``text``'s lines link to the explicit files' change by a name
    (``shared_names.link`` of all its lines). A pure function of its arguments, so
    a long-lived process keeps it under all of them: an unchanged file among
    unchanged explicit files is not read for names again."""
    if memo is None:
        return (
            shared_names.link(text.splitlines(), theirs_defined, theirs_used, keys=keys) is not None
        )
    key = ("shared_names.link", text, theirs_defined, theirs_used, keys)
    hit, kept = memo.get(key)
    if hit:
        return bool(kept)
    found = shared_names.link(text.splitlines(), theirs_defined, theirs_used, keys=keys) is not None
    memo.put(key, found, len(text))
    return found


def _old_texts(git: Git, changes: Sequence[ChangedFile], limit: int) -> dict[str, str]:
    """Each modified or renamed file's text at HEAD, by its path now (one read)."""
    old_names = {
        c.path: c.old_path or c.path
        for c in changes
        if c.status in ("modified", "renamed", "type_changed")
    }
    if not old_names:
        return {}
    at_head = _at_head(git, sorted(set(old_names.values())), limit)
    return {path: at_head[old] for path, old in old_names.items() if old in at_head}


def _mentions(
    root: Path,
    git: Git,
    candidates: Sequence[ChangedFile],
    intent_words: frozenset[str],
    limit: int,
    whole: Mapping[str, bytes],
) -> dict[str, tuple[str, ...]]:
    """Documentation page → the intent's words in the lines it added."""
    docs = [c for c in candidates if is_doc_page(c.path)][:_DOCS_MAX]
    if not docs or not intent_words:
        return {}
    before = _old_texts(git, docs, limit)
    out: dict[str, tuple[str, ...]] = {}
    for c in docs:
        now = read_text(root / c.path, limit, whole.get(c.path))
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


def _links(
    root: Path,
    git: Git,
    by_path: Mapping[str, ChangedFile],
    candidates: Sequence[ChangedFile],
    seeds: Mapping[str, Sequence[str]],
    policy: ZonePolicy,
    whole: Mapping[str, bytes],
) -> dict[str, list[Link]]:
    limit = policy.reference_bytes
    seed_index = Index.of({name: seed for seed, names in seeds.items() for name in names})
    # path → (anchor, direction, how, the lines that refer)
    found: dict[str, list[tuple[str, Literal["from", "to"], str, frozenset[str]]]] = {}
    needles = _needles(seeds)
    top = str(root)
    for c in candidates:
        text = _text_of(top, c.path, limit, whole)
        if text is None or needles is None or not needles.search(text):
            continue
        for anchor, ref in scan(c.path, text, seed_index).items():
            found.setdefault(c.path, []).append((anchor, "from", ref.how, ref.lines))
    seed_texts: dict[str, str] = {}
    for seed in list(seeds)[:_SEEDS_MAX]:
        text = read_text(root / seed, limit, whole.get(seed))
        if text is not None:
            seed_texts[seed] = text
    # Only candidates whose stem or folder name the seeds' texts hold can be referred to.
    joined = "\n".join(seed_texts.values())
    cand_index = Index.of(
        {
            name: c.path
            for c in candidates
            for name in (c.path, c.old_path)
            if name and _mentioned(name, joined)
        }
    )
    for seed, text in seed_texts.items():
        for target, ref in scan(seed, text, cand_index, skip=(seed,)).items():
            found.setdefault(target, []).append((seed, "to", ref.how, ref.lines))
    if not found:
        return {}
    # Which linking lines are part of the change: compare with HEAD, for the files
    # involved that HEAD holds (a new file's lines are all new).
    involved = set(found) | {a for refs in found.values() for a, *_ in refs}
    before = _old_texts(git, [by_path[p] for p in involved if p in by_path], limit)
    changes: dict[str, frozenset[str] | None] = {}

    def changed_in(path: str) -> frozenset[str] | None:
        """The changed lines of ``path``; None when every line is new."""
        if path not in changes:
            change = by_path.get(path)
            if change is None:
                changes[path] = frozenset()  # an explicit file no one touched
            elif change.status in ("added", "untracked"):
                changes[path] = None
            else:
                now = seed_texts.get(path) or read_text(root / path, limit)
                changes[path] = changed_lines(before.get(path), now)
        return changes[path]

    out: dict[str, list[Link]] = {}
    for path, refs in found.items():
        for anchor, direction, how, referring in refs:
            where = path if direction == "from" else anchor
            lines = changed_in(where)
            out.setdefault(path, []).append(
                Link(anchor, direction, how, lines is None or not referring.isdisjoint(lines))
            )
    return out
