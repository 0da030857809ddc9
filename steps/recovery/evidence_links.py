"""Links between changed files and the files in scope: references and shared
names, read from the changed files' text (``evidence_text.Reader``). Used for the
explicit files first, then for each hop of the closure (``evidence_closure``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

from vibflow.steps.recovery import shared_names
from vibflow.steps.recovery.evidence import Link
from vibflow.steps.recovery.evidence_text import SEEDS_MAX, Reader
from vibflow.steps.recovery.models import ChangedFile
from vibflow.steps.recovery.proximity import plain_stem, words
from vibflow.steps.recovery.references import (
    MODULE_NAMED,
    Index,
    camelize,
    changed_lines,
    scan,
)


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


def find_links(
    reader: Reader,
    by_path: Mapping[str, ChangedFile],
    candidates: Sequence[ChangedFile],
    seeds: Mapping[str, Sequence[str]],
) -> dict[str, list[Link]]:
    seed_index = Index.of({name: seed for seed, names in seeds.items() for name in names})
    # path → (anchor, direction, how, the lines that refer)
    found: dict[str, list[tuple[str, Literal["from", "to"], str, frozenset[str]]]] = {}
    needles = _needles(seeds)
    for c in candidates:
        text = reader.now(c.path)
        if text is None or needles is None or not needles.search(text):
            continue
        for anchor, ref in scan(c.path, text, seed_index).items():
            found.setdefault(c.path, []).append((anchor, "from", ref.how, ref.lines))
    seed_texts: dict[str, str] = {}
    for seed in list(seeds)[:SEEDS_MAX]:
        text = reader.now(seed)
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
    before = reader.before([by_path[p] for p in involved if p in by_path])
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
                now = seed_texts.get(path) or reader.now(path)
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


def find_shared(
    reader: Reader,
    by_path: Mapping[str, ChangedFile],
    candidates: Sequence[ChangedFile],
    seeds: Mapping[str, Sequence[str]],
    intent_words: frozenset[str] = frozenset(),
) -> dict[str, tuple[str, str, str]]:
    """Changed file → (explicit file, "uses" | "defines", name): the names the
    explicit files' changes define or use that a candidate's change uses or
    defines (``shared_names``). Only files holding one of those names are diffed."""
    changed_seeds = [
        by_path[s]
        for s in list(seeds)[:SEEDS_MAX]
        if s in by_path and by_path[s].status != "deleted"
    ]
    if not changed_seeds:
        return {}
    defines, uses = _names_of(reader, changed_seeds, intent_words)
    names = set(defines) | set(uses)
    if not names:
        return {}
    # A URL may sit under a prefix (``/admin`` + ``/users/export``): no left edge.
    plain = sorted((n for n in names if not n.startswith("/")), key=len, reverse=True)
    urls = sorted((n for n in names if n.startswith("/")), key=len, reverse=True)
    branches = [r"(?<![\w-])(?:" + "|".join(map(re.escape, plain)) + ")"] if plain else []
    branches += ["(?:" + "|".join(map(re.escape, urls)) + ")"] if urls else []
    needle = re.compile("(?:" + "|".join(branches) + r")(?![\w-])")
    theirs_defined = frozenset(defines)
    theirs_used = frozenset(uses)
    holding: dict[str, str] = {}
    for c in candidates:
        text = reader.now(c.path)
        route = served_route(c)
        if text is None or not (needle.search(text) or (route and route in theirs_used)):
            continue
        # The whole text first: only a file that could link reads its HEAD side.
        if _links_whole(reader, c.path, text, route, theirs_defined, theirs_used):
            holding[c.path] = text
    if not holding:
        return {}
    olds = reader.before([by_path[p] for p in holding])
    out: dict[str, tuple[str, str, str]] = {}
    for path, text in holding.items():
        keys = shared_names.is_settings(path)
        old = olds.get(path)
        linked = shared_names.link(
            shared_names.added(old, text),
            theirs_defined,
            theirs_used,
            keys=keys,
            path=path,
            route=served_route(by_path[path]),
            # A name the file defined before is a value changed, not a name the
            # change defines: production's timeout raised is no part of it.
            held=shared_names.defined(old.splitlines(), keys=keys, path=path)
            if old
            else frozenset(),
        )
        if linked is not None:
            how, name = linked
            anchor = _anchor(defines if how == "uses" else uses, name)
            if anchor is not None:
                out[path] = (anchor, how, name)
    return out


def _names_of(
    reader: Reader, changed_seeds: Sequence[ChangedFile], intent_words: frozenset[str]
) -> tuple[dict[str, str], dict[str, str]]:
    """The names the explicit files' changes define, and those they use → the file."""
    now = {c.path: reader.now(c.path) for c in changed_seeds}
    olds = reader.before(changed_seeds)
    defines: dict[str, str] = {}
    uses: dict[str, str] = {}
    for c in changed_seeds:
        text = now[c.path]
        if text is None:
            continue
        lines = shared_names.added(olds.get(c.path), text)
        found = shared_names.defined(
            lines, keys=shared_names.is_settings(c.path), path=c.path, loose=True
        )
        route = served_route(c)
        # A name of the intent's words is looked for as other languages spell it too.
        found = shared_names.spelled_for(found | ({route} if route else set()), intent_words)
        for name in sorted(found):
            defines.setdefault(name, c.path)
        for name in sorted(shared_names.spelled_for(shared_names.used(lines), intent_words)):
            uses.setdefault(name, c.path)
    return defines, uses


def _anchor(files: Mapping[str, str], name: str) -> str | None:
    """The explicit file a linked name is from: the name itself, or a URL it ends
    (a route ``/users/export`` mounted at ``/admin/users/export``)."""
    if name in files:
        return files[name]
    if name.startswith("/"):
        return next((files[u] for u in sorted(files) if u.endswith(name)), None)
    return None


def _links_whole(
    reader: Reader,
    path: str,
    text: str,
    route: str | None,
    theirs_defined: frozenset[str],
    theirs_used: frozenset[str],
) -> bool:
    """Whether any of ``text``'s lines link to the explicit files' change by a name
    (``shared_names.link`` of all its lines). A pure function of its arguments, so
    a long-lived process (``reader.memo``) keeps it under all of them: an unchanged
    file among unchanged explicit files is not read for names again."""
    keys = shared_names.is_settings(path)

    def link() -> bool:
        lines = text.splitlines()
        found = shared_names.link(
            lines, theirs_defined, theirs_used, keys=keys, path=path, route=route
        )
        return found is not None

    memo = reader.memo
    if memo is None:
        return link()
    key = ("shared_names.link", text, theirs_defined, theirs_used, keys, path, route)
    hit, kept = memo.get(key)
    if hit:
        return bool(kept)
    found = link()
    memo.put(key, found, len(text))
    return found


def served_route(c: ChangedFile) -> str | None:
    """The URL a new file serves by where it is (``shared_names.route_of``)."""
    return shared_names.route_of(c.path) if c.status in ("added", "untracked") else None


def tested_stems(seeds: Iterable[str]) -> dict[str, str]:
    """Test stems → the file they test: its stem, and its folder's name when its own
    says nothing (``product_live_test.exs`` tests ``product_live/index.ex``)."""
    out: dict[str, str] = {}
    for seed in seeds:
        out.setdefault(plain_stem(seed), seed)
        folder, _, base = seed.rpartition("/")
        parent = folder.rpartition("/")[2]
        if parent and not words(base.split(".")[0]) and len(words(parent)) >= 1:
            out.setdefault(plain_stem(parent), seed)
    return out
