"""Choosing some of a numbered list of files from one typed answer.

The guided recover flow lists an option's files by number and lets the user
keep a subset: ``1-5,8`` (numbers and ranges), ``src/**`` or ``*.py`` (globs),
``all``, and ``!PATTERN`` or ``!3`` to leave something out. This module is the
pure part — text in, chosen paths (in list order) or a plain-language error
out — so the prompt can re-ask on a typo and the rules are tested without a
terminal.

Globs follow ``.gitignore`` habits: ``*`` and ``?`` stay inside one folder,
``**`` crosses folders, and a pattern without a ``/`` matches a file's name
at any depth (``*.py`` picks ``src/a.py`` too).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from vibflow.steps.paths.globs import glob_regex

_RANGE = re.compile(r"^(\d+)(?:-(\d+))?$")


class PickError(ValueError):
    """An answer that does not select files; the message says why, for a re-ask."""


@dataclass(frozen=True)
class Pick:
    """The chosen paths, in the order they were listed."""

    paths: tuple[str, ...]
    every: bool  # all of the listed files are chosen


def _tokens(answer: str) -> list[str]:
    """Comma- or space-separated parts; ``3 - 5`` is one range."""
    joined = re.sub(r"(?<=\d)\s*-\s*(?=\d)", "-", answer)
    return [t for t in re.split(r"[,\s]+", joined) if t]


def matches(pattern: str, path: str) -> bool:
    """Whether ``path`` matches the glob ``pattern`` (see the module docstring);
    ``src`` or ``src/`` also picks everything under that folder."""
    bare = pattern.rstrip("/")
    if path == bare or path.startswith(bare + "/"):
        return True
    if "/" not in pattern:
        return bool(glob_regex(pattern).match(path.rsplit("/", 1)[-1]))
    return bool(glob_regex(pattern.lstrip("/")).match(path))


def _select(token: str, paths: Sequence[str]) -> set[int]:
    if token.lower() in ("all", "*", "**"):
        return set(range(len(paths)))
    number = _RANGE.match(token)
    if number:
        first = int(number.group(1))
        last = int(number.group(2) or first)
        if first > last:
            first, last = last, first
        if first < 1 or last > len(paths):
            raise PickError(f"'{token}' is out of range: the files are numbered 1-{len(paths)}")
        return set(range(first - 1, last))
    hit = {i for i, p in enumerate(paths) if matches(token, p)}
    if not hit:
        raise PickError(f"'{token}' is not a number, a range or a glob matching any of these files")
    return hit


def pick(answer: str, paths: Sequence[str]) -> Pick:
    """The files ``answer`` selects from ``paths``; an empty answer means all.

    Raises :class:`PickError` when a part of the answer selects nothing or
    the whole answer leaves no file chosen.
    """
    tokens = _tokens(answer)
    keep: set[int] = set()
    drop: set[int] = set()
    for token in tokens:
        if token.startswith("!") and len(token) > 1:
            drop |= _select(token[1:], paths)
        else:
            keep |= _select(token, paths)
    if not any(not t.startswith("!") for t in tokens):
        keep = set(range(len(paths)))  # nothing but exclusions: start from all
    chosen = sorted(keep - drop)
    if not chosen:
        raise PickError("that leaves no file to restore")
    return Pick(tuple(paths[i] for i in chosen), every=len(chosen) == len(paths))
