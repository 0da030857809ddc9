"""Literals the intent names: the code-like words a user writes into the task
(a flag, a route, an identifier). Pure.

"add a ``--threads N`` option", "a ``/readyz`` endpoint", "add
``lifetime_value`` to the customers mart", "``secretName``, ``clusterIssuer``":
when the user spells out the name the code will carry, a changed file whose
*added* lines write that very name is doing what was asked — the option parsed
in ``main.cpp``, the probe pointed at ``/readyz``, the column documented in
``schema.yml`` — even when nothing else links it to the user's files.

Only words that cannot be ordinary prose count: flags (``--json``), URL paths
(``/auth/login``, cut before a query or a ``{placeholder}``), identifiers with
an underscore or an inner capital (``created_after``, ``secretName``), dotted
names (``ingress.tls``), and anything in backticks (``cert-manager``; a bare
hyphenated word is as often prose: sign-up, read-only). A file must add the literal as a whole word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_FLAG = re.compile(r"(?<![\w-])--[A-Za-z][\w-]+")
_URL = re.compile(r"(?<![\w./:])/[A-Za-z_][\w.-]*(?:/[A-Za-z_][\w.-]*)*")
_SNAKE = re.compile(r"\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]*[A-Za-z0-9]\b")
#: ``secretName``, ``weeklyDigest`` — not ``iPhone`` or ``macOS`` (brand spellings).
_CAMEL = re.compile(r"\b[a-z]{2,}[A-Z][a-z0-9]+[A-Za-z0-9]*\b")
_DOTTED = re.compile(r"\b[a-z][\w]*(?:\.[a-z][\w]*)+\b")
_TICKED = re.compile(r"`([^`\n]{3,60})`")


def literals(intent: str) -> tuple[str, ...]:
    """The code-like literals of ``intent``, longest first (see the docstring)."""
    found: list[str] = [t.strip() for t in _TICKED.findall(intent)]
    found += _FLAG.findall(intent)
    found += [u.rstrip("./") for u in _URL.findall(intent)]
    # Hyphenated words are prose as often as names (sign-up, read-only): only in
    # backticks.
    for rule in (_SNAKE, _CAMEL, _DOTTED):
        found += rule.findall(intent)
    kept = {f for f in found if len(f) >= (5 if f.startswith("--") else 4)}
    return tuple(sorted(kept, key=lambda f: (-len(f), f)))


def matcher(found: Iterable[str]) -> re.Pattern[str] | None:
    """One pattern for every literal, each as a whole word; None for none."""
    names = list(found)
    if not names:
        return None
    return re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(n) for n in names) + r")(?![\w-])")


def first_in(lines: Iterable[str], pattern: re.Pattern[str]) -> str | None:
    """The first literal ``lines`` hold, or None."""
    for line in lines:
        if len(line) <= 2000:
            hit = pattern.search(line)
            if hit:
                return hit.group(0)
    return None
