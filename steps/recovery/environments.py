"""Deployment environments an intent names, and files that belong to another. Pure.

An intent scoped to one environment ("add a read replica to the staging
database, staging only") excludes the others: an agent that also edits
``envs/prod/rds.tf`` or ``values-production.yaml`` changed a place the user did
not ask about, whatever links the file to the work — the agent having patched
it included. So a file whose path names an environment (a folder, or a word of
its file name) is kept out of the zone's inferred sources when the intent names
some environment and not that one. Only the user's own word keeps it in: an
explicit file, a correction, an edit of the user's.

Environments are compared by what they mean, not how they are spelled:
``prod`` and ``production`` are one. ``test`` is no environment here:
``tests/`` is where tests live, not a place to deploy to.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

#: Spelling → the environment it names.
_NAMES: dict[str, str] = {
    "prod": "production",
    "production": "production",
    "staging": "staging",
    "stage": "staging",
    "stg": "staging",
    "dev": "development",
    "development": "development",
    "qa": "qa",
    "uat": "uat",
    "preprod": "preproduction",
    "preproduction": "preproduction",
    "sandbox": "sandbox",
}
_WORD = re.compile(r"[0-9A-Za-z]+")


def environments_in(words: Iterable[str]) -> frozenset[str]:
    """The environments among ``words`` (an intent's words, lower-cased)."""
    return frozenset(_NAMES[w] for w in words if w in _NAMES)


@lru_cache(maxsize=16384)  # a plan's paths share their folders
def path_environments(path: str) -> frozenset[str]:
    """The environments ``path`` names: a folder of it, or a word of its file name
    (``envs/prod/rds.tf``, ``values-staging.yaml``, ``.env.production``)."""
    return environments_in(w.casefold() for w in _WORD.findall(path))


def elsewhere(path: str, named: frozenset[str]) -> frozenset[str]:
    """The environments ``path`` belongs to when the intent names others only
    (``named``: the intent's environments); empty when it may be in scope."""
    if not named:
        return frozenset()
    found = path_environments(path)
    return found if found and not found & named else frozenset()
