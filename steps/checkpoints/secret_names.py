"""Which file names mark an untracked file as a likely secret: the shipped
list and the matching rule, in the standard library only.

Apart from :mod:`.secret_files` (which also judges content, and is built from
the pydantic policy) because the agent hook's lean checkpoint
(:mod:`.quick`) applies the same name rule and cannot afford pydantic's
import. One rule, used by both: a pattern without ``/`` matches the file's
name, one with ``/`` its project-relative path; case-insensitive; ``allow``
wins.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fnmatch import fnmatchcase, translate

# Kept equal to policies/recovery.yaml (a test pins it): the code default serves
# callers that have no PolicySet at hand.
DEFAULT_SECRET_NAMES: tuple[str, ...] = (
    # environment files
    ".env",
    ".env.*",
    "*.env",
    ".envrc",
    # keys and certificates with their private half
    "*.pem",
    "*.key",
    "*.p12",
    "*.pfx",
    "*.jks",
    "*.keystore",
    "*.p8",
    "*.ppk",
    "id_rsa*",
    "id_dsa*",
    "id_ecdsa*",
    "id_ed25519*",
    # credential stores of common tools
    ".netrc",
    "_netrc",
    ".npmrc",
    ".pypirc",
    ".git-credentials",
    ".htpasswd",
    ".pgpass",
    "credentials",
    "credentials.json",
    "credentials.yml",
    "credentials.yaml",
    "client_secret*.json",
    "service-account*.json",
    "secrets.json",
    "secrets.yml",
    "secrets.yaml",
    "*.tfvars",
    "*.tfstate",
    "*.tfstate.backup",
)
DEFAULT_SECRET_ALLOW: tuple[str, ...] = (
    ".env.example",
    ".env.sample",
    ".env.template",
    ".env.dist",
)


class NameRules:
    """The secret-file name patterns of one policy (``names``, ``extra_names``; ``allow``)."""

    def __init__(self, names: Sequence[str], allow: Sequence[str]) -> None:
        self._names = [p.lower() for p in names]
        # One search per file for the common answer ("no pattern matches"); the
        # pattern that matched is looked up only for the few files that do.
        self._any_name = _one_regex(self._names)
        self._any_allowed = _one_regex([p.lower() for p in allow])

    def rule(self, rel: str) -> str | None:
        """The secret-file pattern ``rel`` matches (``allow`` excepted), or ``None``."""
        low = rel.lower()
        base = low.rsplit("/", 1)[-1]
        if not _search(self._any_name, low, base) or _search(self._any_allowed, low, base):
            return None
        return next((p for p in self._names if _matches(p, low, base)), None)


def _one_regex(patterns: Sequence[str]) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
    """(name patterns, path patterns) each joined into one regex (``None``: no such
    pattern); ``fnmatch.translate`` makes each one an anchored regex."""
    names = [translate(p) for p in patterns if "/" not in p]
    paths = [translate(p) for p in patterns if "/" in p]
    return (
        re.compile("|".join(names)) if names else None,
        re.compile("|".join(paths)) if paths else None,
    )


def _search(
    joined: tuple[re.Pattern[str] | None, re.Pattern[str] | None], low_path: str, low_base: str
) -> bool:
    by_name, by_path = joined
    return bool(
        (by_name is not None and by_name.match(low_base))
        or (by_path is not None and by_path.match(low_path))
    )


def _matches(pattern: str, low_path: str, low_base: str) -> bool:
    """``pattern`` (lower-cased) against a file: its name, or its whole path when
    the pattern holds a '/' (anchored at the project folder)."""
    if "/" in pattern:
        return fnmatchcase(low_path, pattern)
    return fnmatchcase(low_base, pattern)
