"""Matching a project path against the generated-file policy's names: globs of a
file name, folder patterns at any depth (``vendor/``) or anchored (``public/assets/``).

The same few patterns are asked of every changed path, thousands per preview, so
each list is compiled once into one regex (the first pattern to match wins, as
the policy orders them) and folder patterns are split once into plain names (a set
lookup), anchored paths and bare globs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from fnmatch import fnmatchcase, translate
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vibflow.steps.recovery.generated_policy import Companion, TypeStub


_GLOB_CHARS = frozenset("*?[")


def is_glob(pattern: str) -> bool:
    """Whether ``pattern`` holds a glob's special characters (else it is a plain name)."""
    return not _GLOB_CHARS.isdisjoint(pattern)


@lru_cache(maxsize=64)
def glob_matcher(pattern: str) -> Callable[[str], bool]:
    return lambda name: fnmatchcase(name, pattern)


@lru_cache(maxsize=64)
def first_match(patterns: tuple[str, ...]) -> Callable[[str], str | None]:
    """The first of ``patterns`` (globs) a name matches, in one regex search."""
    if not patterns:
        return lambda _name: None
    combined = re.compile("|".join(f"(?P<g{i}>{translate(p)})" for i, p in enumerate(patterns)))

    def first(name: str) -> str | None:
        found = combined.match(name)
        return patterns[int(found.lastgroup[1:])] if found and found.lastgroup else None

    return first


def folder_hit(parts: Sequence[str], folders: tuple[str, ...]) -> tuple[int, str] | None:
    """The first folder segment of ``parts`` (never the file name) a pattern names,
    with its index."""
    if len(parts) < 2 or not folders:
        return None
    anchored, literal, globs = _split(folders)
    dirs = parts[:-1]
    for pattern, segs in anchored:
        if len(dirs) >= len(segs) and all(fnmatchcase(dirs[i], s) for i, s in enumerate(segs)):
            return len(segs) - 1, pattern
    first = first_match(globs) if globs else None
    for i, name in enumerate(dirs):
        if name in literal:
            return i, name + "/"
        hit = first(name) if first is not None else None
        if hit is not None:
            return i, hit + "/"
    return None


@lru_cache(maxsize=64)
def _split(
    folders: tuple[str, ...],
) -> tuple[tuple[tuple[str, list[str]], ...], frozenset[str], tuple[str, ...]]:
    """Folder patterns: the anchored ones with their segments, the plain names (a set
    lookup), and the bare globs."""
    anchored = tuple((p, p.rstrip("/").split("/")) for p in folders if "/" in p.rstrip("/"))
    bare = [p.rstrip("/") for p in folders if "/" not in p.rstrip("/")]
    literal = frozenset(b for b in bare if not is_glob(b))
    return anchored, literal, tuple(b for b in bare if b not in literal)


def stubs_of(paths: Sequence[str], stubs: Sequence[TypeStub]) -> dict[str, str]:
    """Each of ``paths`` that is a type stub whose module (same name, the module's
    ending) is among ``paths`` too → that module."""
    if not stubs:
        return {}
    present = set(paths)
    out: dict[str, str] = {}
    for path in paths:
        for pair in stubs:
            if path.endswith(pair.stub) and len(path) > len(pair.stub):
                module = path[: -len(pair.stub)] + pair.module
                if module in present:
                    out[path] = module
                    break
    return out


def companion_sources(
    paths: Sequence[str], companions: Sequence[Companion]
) -> dict[str, list[tuple[str, Companion]]]:
    """Each of ``paths`` whose name ends as a companion's output → the sources it may
    be written from (the same folder, the name with the source's ending instead)."""
    out: dict[str, list[tuple[str, Companion]]] = {}
    if not companions:
        return out
    endings = tuple(c.output for c in companions)
    for path in paths:
        if not path.endswith(endings):
            continue
        folder, _, name = path.rpartition("/")
        where = f"{folder}/" if folder else ""
        for c in companions:
            if name.endswith(c.output) and len(name) > len(c.output):
                out.setdefault(path, []).append((where + name[: -len(c.output)] + c.source, c))
    return out
