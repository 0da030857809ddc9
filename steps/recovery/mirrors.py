"""Mirrors: the same file as one of yours, in a sibling place the intent does not
name. Pure.

Projects keep parallel copies of one thing: an environment per folder
(``envs/prod/main.tf``, ``envs/staging/main.tf``), an overlay per component
(``api-resources-patch.yaml``, ``worker-resources-patch.yaml``), a screen per
role. An agent asked to change the production one often makes the same edit
to its sibling — and that copy then carries every link the real change has
(the same new names, the same history), so references and co-change would
call it in scope. What tells them apart is the one word their paths differ in:
the intent names yours (``prod``, ``api``) and not the sibling's.

A changed file mirrors another changed file of yours when the two paths have
the same shape and differ in exactly one place — one folder, or one word of the file name
(its extensions count as words) —
the intent's text has your file's word there but not the other's, and the two
changes are one edit made twice (``same_edit``: a third of its added lines are
yours too) — two ``schema.yml`` of one project, documenting different
columns, are no copies.
The same edit to a sibling screen of another name counts too — a file next to
yours whose name has none of the intent's words, while yours has one, and
whose change repeats half of yours (``Dashboard.tsx`` getting the export
button meant for ``MonthlyReport.tsx``).

Words are compared whole or by prefix (``prod`` / ``production``), stop words
included: ``api`` or ``web`` says where, even though it says little about what.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

_TOKEN = re.compile(r"[0-9A-Za-z]+")
_SEPARATORS = re.compile(r"[-_ .]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def intent_tokens(text: str) -> frozenset[str]:
    """Every word of the intent, lower-cased (stop words kept: see the docstring)."""
    out: set[str] = set()
    for chunk in _TOKEN.findall(text):
        for part in _CAMEL.split(chunk):
            if len(part) >= 2:
                out.add(part.casefold())
    return frozenset(out)


@lru_cache(maxsize=16384)  # folder names repeat across a plan's files
def _said(word: str, said: frozenset[str]) -> bool:
    if word in said:
        return True
    if len(word) < 3:
        return False
    return any(
        len(w) >= 3 and (w.startswith(word) or word.startswith(w)) and min(len(w), len(word)) >= 4
        for w in said
    )


@lru_cache(maxsize=8192)
def _words(name: str) -> tuple[str, ...]:
    """A file name's words, its extensions included (``.env.production`` is
    ``env``, ``production``; ``api-resources-patch.yaml`` four words)."""
    out: list[str] = []
    for part in _SEPARATORS.split(name):
        out += [p.casefold() for p in _CAMEL.split(part) if p]
    return tuple(out)


def names_said(path: str, said: frozenset[str]) -> bool:
    """Whether a word of ``path`` (a folder, or a word of its name) is one the intent
    says: only such a file can be the original a mirror copies."""
    folder, _, name = path.rpartition("/")
    words = [*(d.casefold() for d in folder.split("/") if d), *_words(name)]
    return any(_said(w, said) for w in words)


def _one_difference(a: Sequence[str], b: Sequence[str]) -> tuple[str, str] | None:
    if len(a) != len(b):
        return None
    diff = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
    return diff[0] if len(diff) == 1 else None


class Siblings:
    """Files a mirror could copy, by name and by folder: a changed file is compared
    only with those sharing its name or its folder."""

    def __init__(self, paths: Iterable[str]) -> None:
        self.by_name: dict[str, list[str]] = {}
        self.by_folder: dict[str, list[str]] = {}
        self._named: dict[tuple[str, frozenset[str]], list[tuple[str, str]]] = {}
        for path in paths:
            folder, _, name = path.rpartition("/")
            self.by_name.setdefault(name, []).append(path)
            self.by_folder.setdefault(folder, []).append(path)

    def mirrors_of(self, path: str, said: frozenset[str]) -> list[tuple[str, str, str]]:
        """Every file ``path`` could be a copy of (see :func:`mirror_of`)."""
        folder, _, name = path.rpartition("/")
        near = [p for p in self.by_name.get(name, []) + self.by_folder.get(folder, []) if p != path]
        out = []
        for anchor in dict.fromkeys(near):
            found = _mirror_of_one(path, anchor, said)
            if found is not None:
                out.append(found)
        return out

    def copies_in_folder(self, path: str, said: frozenset[str]) -> list[tuple[str, str, str]]:
        """Files next to ``path`` named with a word the intent says, when no word of
        ``path``'s own name is one: the screens a sibling's same edit could copy
        (``Dashboard.tsx`` beside ``MonthlyReport.tsx`` for a monthly-report intent)."""
        folder, _, name = path.rpartition("/")
        if folder not in self.by_folder:
            return []
        mine = _words(name.split(".", 1)[0])
        if not mine or any(_said(w, said) for w in mine):
            return []
        named = self._named.get((folder, said))
        if named is None:  # once per folder: which files there are named for the intent
            named = []
            for anchor in self.by_folder[folder]:
                base = anchor.rpartition("/")[2].split(".", 1)[0]
                theirs = [w for w in _words(base) if _said(w, said)]
                if theirs:
                    named.append((anchor, theirs[0]))
            self._named[(folder, said)] = named
        return [(anchor, word, mine[0]) for anchor, word in named if anchor != path]


_NUMBER = re.compile(r"\d+(?:\.\d+)?[A-Za-z]*")


def _meaningful(lines: Iterable[str]) -> set[str]:
    # Numbers (with their units) are the values an edit sets: ``memory: 512Mi`` in
    # the worker's patch is the same edit as ``memory: 1Gi`` in the api's.
    out = set()
    for line in lines:
        text = _NUMBER.sub("0", " ".join(line.split()).replace('"', ""))
        if len(text) >= 6 and any(ch.isalnum() for ch in text):
            out.add(text)
    return out


def same_edit(mine: Iterable[str], theirs: Iterable[str], *, strict: bool = False) -> bool:
    """Whether two changes' added lines are one edit made twice: a third or more of
    this change's lines (blanks and bare brackets aside, numbers as placeholders)
    are lines the other added too (``strict``, for files named differently: half,
    and two lines at least). Two files of one shape changed for different reasons
    (two ``schema.yml`` documenting different columns) are no copies."""
    a, b = _meaningful(mine), _meaningful(theirs)
    common = len(a & b)
    if strict:  # two files of different names: half its lines, two at least
        return common >= 2 and common * 2 >= len(a)
    return common >= 1 and common * 3 >= len(a)


@lru_cache(maxsize=65_536)
def _mirror_of_one(path: str, anchor: str, said: frozenset[str]) -> tuple[str, str, str] | None:
    # A pure function of three strings' worth: a long-lived process asks again for
    # the same pairs every preview (~1,000 at 20,000 files).
    return mirror_of(path, (anchor,), said)


def mirror_of(
    path: str, anchors: Iterable[str], said: frozenset[str]
) -> tuple[str, str, str] | None:
    """``(file of yours, its word the intent names, this file's word)`` when ``path``
    is a sibling copy of one of ``anchors``; None otherwise."""
    folder, _, name = path.rpartition("/")
    dirs = folder.split("/") if folder else []
    for anchor in anchors:
        a_folder, _, a_name = anchor.rpartition("/")
        a_dirs = a_folder.split("/") if a_folder else []
        if a_name == name:
            found = _one_difference(a_dirs, dirs)
        elif a_dirs == dirs and len(_words(a_name)) >= 2:
            # ``production.rb`` / ``staging.rb``; ``list.go`` and ``root.go`` have
            # this shape too, and only the same edit (``same_edit``) makes a copy.
            found = _one_difference(_words(a_name), _words(name))
        else:
            found = None
        if found is None:
            continue
        theirs, mine = (w.casefold() for w in found)
        if theirs in mine or mine in theirs:
            continue  # ``IInvoiceService`` is the interface of ``InvoiceService``
        if _said(theirs, said) and not _said(mine, said):
            return anchor, theirs, mine
    return None
