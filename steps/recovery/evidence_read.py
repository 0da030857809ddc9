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
from dataclasses import replace
from pathlib import Path
from typing import Literal

from vibflow.engine.errors import VibflowError
from vibflow.steps.recovery import cochange, dependencies, literals, shared_names
from vibflow.steps.recovery.evidence import Evidence, Judgement, Link, by_reference, judge
from vibflow.steps.recovery.mirrors import Siblings, intent_tokens, names_said, same_edit
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


def read_text(path: Path, limit: int, known: bytes | None = None) -> str | None:
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


class _Reader:
    """The changed files' text now and at HEAD, each read once however many rules
    (and closure hops) ask: the first ``limit`` bytes, one ``cat-file`` per batch of
    HEAD sides not read yet."""

    def __init__(
        self,
        root: Path,
        git: Git,
        limit: int,
        whole: Mapping[str, bytes],
    ) -> None:
        self.root, self.git, self.limit, self.whole = root, git, limit, whole
        self._now: dict[str, str | None] = {}
        self._head: dict[str, str | None] = {}

    def now(self, path: str) -> str | None:
        if path not in self._now:
            self._now[path] = read_text(self.root / path, self.limit, self.whole.get(path))
        return self._now[path]

    def before(self, changes: Sequence[ChangedFile]) -> dict[str, str]:
        """Each modified or renamed file's text at HEAD, by its path now."""
        old_names = {
            c.path: c.old_path or c.path
            for c in changes
            if c.status in ("modified", "renamed", "type_changed")
        }
        missing = sorted({old for old in old_names.values() if old not in self._head})
        if missing:
            found = _at_head(self.git, missing, self.limit)
            for old in missing:
                self._head[old] = found.get(old)
        out: dict[str, str] = {}
        for path, old in old_names.items():
            text = self._head.get(old)
            if text is not None:
                out[path] = text
        return out

    def added(self, change: ChangedFile) -> list[str]:
        """The lines the change to ``change`` added (every line of a new file)."""
        now = self.now(change.path)
        if now is None:
            return []
        return shared_names.added(self.before([change]).get(change.path), now)


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
) -> Evidence:
    """The evidence for the changed files, against ``seeds`` (each explicit file →
    the names it may be referred to by: its path, and its old path if renamed);
    co-change is counted against ``anchors`` (the explicit entries themselves);
    ``whole``: files already read whole (by the generated-file rules);
    ``held_out``: files the user said are drift (never a step of the closure)."""
    by_path = {c.path: c for c in changed}
    reader = _Reader(root, git, policy.reference_bytes, whole or {})
    candidates = [
        c
        for c in changed
        if not c.generated and not c.lockfile and c.path not in seeds and c.status != "deleted"
    ]
    links: dict[str, list[Link]] = {}
    if seeds and policy.reference_files > 0:
        links = _links(reader, by_path, candidates[: policy.reference_files], seeds)
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
    mentions = _mentions(reader, candidates, _worked_on(reader, by_path, seeds, intent_words))
    shared: dict[str, tuple[str, str, str]] = {}
    if seeds and policy.reference_files > 0:
        shared = _shared_names(reader, by_path, candidates[: policy.reference_files], seeds)
    co = cochange.count(
        history,
        anchors,
        [c.path for c in candidates] + [c.old_path for c in candidates if c.old_path],
    )
    said = intent_tokens(intent or "")
    copies = _mirrors(reader, by_path, candidates, said) if policy.mirrors and said else {}
    evidence = Evidence(
        links=links,
        cochange=co,
        folders=folders,
        intent_words=intent_words,
        min_together=policy.cochange_min_together,
        proximity=policy.proximity,
        mentions=mentions,
        tested=_tested(seeds),
        shared=shared,
        mirrors=copies,
    )
    if not seeds or policy.reference_files == 0:
        return evidence
    limited = candidates[: policy.reference_files]
    if policy.literals:
        # When every file you named is documentation, the task is documenting: a
        # literal written in code is what the page documents, not the documenting.
        docs_only = all(is_doc_page(seed) for seed in seeds)
        wanted = [c for c in limited if is_doc_page(c.path)] if docs_only else limited
        evidence = _literals(reader, wanted, intent or "", evidence)
    evidence = _close(reader, by_path, limited, seeds, evidence, policy, held_out)
    if not policy.dependencies:
        return evidence
    return _needs(reader, by_path, limited, seeds, evidence, held_out)


def _mirrors(
    reader: _Reader,
    by_path: Mapping[str, ChangedFile],
    candidates: Sequence[ChangedFile],
    said: frozenset[str],
) -> dict[str, tuple[str, str, str]]:
    """Changed file → (the changed file it copies, that file's word the intent
    names, its own): sibling copies carrying the same edit (``mirrors``). Only
    files whose paths mirror one another are read."""
    # Only a file with a word the intent says can be the original a copy repeats.
    originals = [
        p
        for p, c in by_path.items()
        if not c.generated and not c.lockfile and c.status != "deleted" and names_said(p, said)
    ]
    if not originals:
        return {}
    siblings = Siblings(originals)
    out: dict[str, tuple[str, str, str]] = {}
    for c in candidates:
        for found in siblings.mirrors_of(c.path, said):
            if same_edit(reader.added(c), reader.added(by_path[found[0]])):
                out[c.path] = found
                break
    return out


def _literals(
    reader: _Reader, candidates: Sequence[ChangedFile], intent: str, evidence: Evidence
) -> Evidence:
    """Changed files whose added lines write a literal the intent names
    (``literals``): only files whose text holds one are diffed."""
    pattern = literals.matcher(literals.literals(intent))
    if pattern is None:
        return evidence
    holding = [c for c in candidates if (text := reader.now(c.path)) and pattern.search(text)]
    found: dict[str, str] = {}
    reader.before(holding)  # one read of every HEAD side
    for c in holding:
        hit = literals.first_in(reader.added(c), pattern)
        if hit is not None:
            found[c.path] = hit
    return replace(evidence, literal=found, memo={}) if found else evidence


def _tested(seeds: Iterable[str]) -> dict[str, str]:
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


def _close(
    reader: _Reader,
    by_path: Mapping[str, ChangedFile],
    candidates: Sequence[ChangedFile],
    seeds: Mapping[str, Sequence[str]],
    evidence: Evidence,
    policy: ZonePolicy,
    held_out: frozenset[str],
) -> Evidence:
    """The closure over references: a changed file in scope by a reference (an
    import, a name, a test's name) is a seed of the next hop, ``closure_hops`` deep
    and at most ``closure_files`` files a hop; each link found names its anchor's
    reason, so the chain can be checked."""
    links = {p: list(ls) for p, ls in evidence.links.items()}
    shared = dict(evidence.shared)
    tested = dict(evidence.tested)
    via: dict[str, str] = {}
    scope = set(seeds)
    for _ in range(policy.closure_hops):
        current = replace(evidence, links=links, shared=shared, tested=tested, via=via, memo={})
        new: dict[str, str] = {}
        for c in candidates:
            if c.path in scope or c.path in held_out or c.path in evidence.mirrors:
                continue
            found = by_reference(c, current) or _named_near(c, seeds, current)
            if found is not None:
                new[c.path] = found.reason
                if len(new) >= policy.closure_files:
                    break
        # A documentation page is a leaf: it names everything and nothing depends
        # on it, so what it mentions is not thereby in scope.
        steps = {p: why for p, why in new.items() if not is_doc_page(p)}
        scope.update(new)
        if not steps:
            break
        via.update(steps)
        rest = [c for c in candidates if c.path not in scope]
        hop = {p: [p] + ([by_path[p].old_path or p] if by_path[p].old_path else []) for p in steps}
        for path, found_links in _links(reader, by_path, rest, hop).items():
            # A file named by a step of the chain is not thereby in scope (a mailer
            # preview names the User model it renders); one that refers to a step,
            # or that a step imports, is.
            kept = [k for k in found_links if k.direction == "from" or k.how == "imports"]
            links.setdefault(path, []).extend(kept)
        for path, found_name in _shared_names(reader, by_path, rest, hop).items():
            # Two settings files sharing a key (``version`` in a workflow and in
            # pyproject.toml) share a vocabulary, not a feature.
            if not (shared_names.is_settings(path) and shared_names.is_settings(found_name[0])):
                shared.setdefault(path, found_name)
        for stem, seed in _tested(hop).items():
            tested.setdefault(stem, seed)
    return replace(evidence, links=links, shared=shared, tested=tested, via=via, memo={})


def _named_near(
    c: ChangedFile, seeds: Mapping[str, Sequence[str]], evidence: Evidence
) -> Judgement | None:
    """Proximity as a step of the closure: next to your file and named for the
    intent or for it (``api-hpa.yaml`` beside ``api-resources-patch.yaml``)."""
    folder = c.path.rpartition("/")[0]
    near = [s for s in seeds if s.rpartition("/")[0] == folder]
    if not near:
        return None
    found, _ = judge(c, near, evidence)
    return found if found.source == "name_proximity" else None


def _needs(
    reader: _Reader,
    by_path: Mapping[str, ChangedFile],
    candidates: Sequence[ChangedFile],
    seeds: Mapping[str, Sequence[str]],
    evidence: Evidence,
    held_out: frozenset[str],
) -> Evidence:
    """Manifest and settings files whose change declares a module the in-scope
    files' changes newly import (``dependencies``)."""
    wanted = [
        c
        for c in candidates
        if c.path not in held_out
        and c.path not in evidence.mirrors
        and (dependencies.is_manifest(c.path) or dependencies.is_settings(c.path))
    ]
    if not wanted:
        return evidence
    scope = [
        by_path[p]
        for p in [*seeds, *evidence.via]
        if p in by_path and by_path[p].status != "deleted"
    ][:_SEEDS_MAX]
    imports: dict[str, tuple[str, str]] = {}
    reader.before([*scope, *wanted])  # one read of every HEAD side
    for c in scope:
        had = dependencies.imported((reader.before([c]).get(c.path) or "").splitlines())
        for key, spec in dependencies.imported(reader.added(c)).items():
            if key not in had:
                imports.setdefault(key, (c.path, spec))
    if not imports:
        return evidence
    specs = {key: spec for key, (_, spec) in imports.items()}
    by_spec = {spec: path for path, spec in imports.values()}
    needs: dict[str, tuple[str, str, str]] = {}
    for c in wanted:
        declared = dependencies.needed(
            reader.added(c),
            specs,
            manifest=dependencies.is_manifest(c.path),
            known=dependencies.names_in(reader.before([c]).get(c.path) or ""),
        )
        if declared is not None:
            name, spec = declared
            needs[c.path] = (by_spec[spec], name, spec)
    return replace(evidence, needs=needs, memo={}) if needs else evidence


def _shared_names(
    reader: _Reader,
    by_path: Mapping[str, ChangedFile],
    candidates: Sequence[ChangedFile],
    seeds: Mapping[str, Sequence[str]],
) -> dict[str, tuple[str, str, str]]:
    """Changed file → (explicit file, "uses" | "defines", name): the names the
    explicit files' changes define or use that a candidate's change uses or
    defines (``shared_names``). Only files holding one of those names are diffed."""
    changed_seeds = [
        by_path[s]
        for s in list(seeds)[:_SEEDS_MAX]
        if s in by_path and by_path[s].status != "deleted"
    ]
    if not changed_seeds:
        return {}
    now = {c.path: reader.now(c.path) for c in changed_seeds}
    olds = reader.before(changed_seeds)
    defines: dict[str, str] = {}
    uses: dict[str, str] = {}
    for c in changed_seeds:
        text = now[c.path]
        if text is None:
            continue
        lines = shared_names.added(olds.get(c.path), text)
        found = shared_names.defined(lines, keys=shared_names.is_settings(c.path), path=c.path)
        route = _route(c)
        for name in sorted(found | ({route} if route else set())):
            defines.setdefault(name, c.path)
        for name in sorted(shared_names.used(lines)):
            uses.setdefault(name, c.path)
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
        route = _route(c)
        if text is None or not (needle.search(text) or (route and route in theirs_used)):
            continue
        # The whole text first: only a file that could link reads its HEAD side.
        keys = shared_names.is_settings(c.path)
        lines = text.splitlines()
        if shared_names.link(
            lines, theirs_defined, theirs_used, keys=keys, path=c.path, route=route
        ):
            holding[c.path] = text
    if not holding:
        return {}
    olds = reader.before([by_path[p] for p in holding])
    out: dict[str, tuple[str, str, str]] = {}
    for path, text in holding.items():
        linked = shared_names.link(
            shared_names.added(olds.get(path), text),
            theirs_defined,
            theirs_used,
            keys=shared_names.is_settings(path),
            path=path,
            route=_route(by_path[path]),
        )
        if linked is not None:
            how, name = linked
            out[path] = (defines[name] if how == "uses" else uses[name], how, name)
    return out


def _route(c: ChangedFile) -> str | None:
    """The URL a new file serves by where it is (``shared_names.route_of``)."""
    return shared_names.route_of(c.path) if c.status in ("added", "untracked") else None


def _worked_on(
    reader: _Reader,
    by_path: Mapping[str, ChangedFile],
    seeds: Mapping[str, Sequence[str]],
    intent_words: frozenset[str],
) -> frozenset[str]:
    """The intent's words the change to your files adds too — what is being made
    (``csv`` for "an Export CSV button on the invoices list"), not where (``list``)
    — or all of them when none of your files changed (nothing to tell them by)."""
    changed = [
        by_path[s]
        for s in list(seeds)[:_SEEDS_MAX]
        if s in by_path and by_path[s].status != "deleted"
    ]
    if not changed or not intent_words:
        return intent_words
    reader.before(changed)  # one read of every HEAD side
    added = " ".join(line for c in changed for line in reader.added(c))
    return frozenset(matched(intent_words, words(added)))


def _mentions(
    reader: _Reader,
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


def _links(
    reader: _Reader,
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
    for seed in list(seeds)[:_SEEDS_MAX]:
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
