"""A changed path's category (``ui``, ``config``, ``test`` …) under the policy's
globs: the first category, in policy order, with a glob matching the path.

The zone uses a category only as a tie-breaker, never as evidence (zone.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache

from vibflow.steps.paths.globs import glob_source


def category_of(path: str, categories: Mapping[str, Sequence[str]]) -> str | None:
    """The first category (in policy order) with a glob matching ``path``."""
    return categorizer(categories)(path)


def categorizer(categories: Mapping[str, Sequence[str]]) -> Callable[[str], str | None]:
    """:func:`category_of` for many paths under one policy (its key built once)."""
    return _categorizer(tuple((name, tuple(patterns)) for name, patterns in categories.items()))


#: Paths whose category one policy's categorizer keeps (the least recent go first).
_CATEGORIES_KEPT = 200_000


@lru_cache(maxsize=8)  # one per policy a process has seen
def _categorizer(
    categories: tuple[tuple[str, tuple[str, ...]], ...],
) -> Callable[[str], str | None]:
    # One alternation of every glob, in policy order: the first alternative
    # that matches is the first category's, as a loop over them would find
    # (a 100,000-file plan asks ~4,000 times, each against ~27 globs).
    names: list[str] = []
    branches: list[str] = []
    for name, patterns in categories:
        for pattern in patterns:
            names.append(name)
            branches.append(f"(?P<g{len(branches)}>{glob_source(pattern)})")
    if not branches:
        return lambda _path: None
    combined = re.compile("|".join(branches), re.DOTALL)

    # Kept per path: a path's category is a function of the path and this policy
    # alone, and a long-lived process asks again for the same paths every preview.
    @lru_cache(maxsize=_CATEGORIES_KEPT)
    def categorize(path: str) -> str | None:
        found = combined.match(path)
        return names[int(found.lastgroup[1:])] if found and found.lastgroup else None

    return categorize
