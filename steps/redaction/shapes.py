"""Shapes with no room for a secret: vibflow's own ids and ISO-8601 times.

A command's payload is full of freshly made ids (``rcp_…``, ``run_…`` with 32
hex digits, generated locally from uuid4) and timestamps (``generated_at``):
new to any cache of verdicts, yet the detectors pass them by rule
(:func:`in_vibflow_id` is that rule; tests scan thousands of each to pin it).
Knowing them by shape lets a command skip building the detectors for them.
Kept apart from the secret patterns so recognizing them compiles two small
expressions, not the detectors' two hundred.
"""

from __future__ import annotations

import re

# ``op``: a restore's operation id (the lease's, named in a busy answer); ``pln``: a
# plan's digest (``plans.plan_digest``), like ``sel`` a one-way digest of paths.
_ID_PREFIXES = "rec|opt|ckpt|run|rcp|dec|ver|risk|grt|sel|ses|trn|op|pln"
# The prefix is a word of its own: ``shop_<hex>`` is not an operation id.
_VIBFLOW_ID = re.compile(rf"(?<![A-Za-z0-9])(?:{_ID_PREFIXES})_$")
_WHOLE_VIBFLOW_ID = re.compile(rf"(?:{_ID_PREFIXES})_[0-9a-f]{{32}}")


_TIMESTAMP = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,6})?(?:Z|[+-][0-9]{2}:[0-9]{2})?"
)


def is_vibflow_id(text: str) -> bool:
    """``text`` is exactly one of vibflow's own ids and nothing else — a text
    the detectors pass by :func:`in_vibflow_id` (tests pin that they do)."""
    return len(text) <= 37 and _WHOLE_VIBFLOW_ID.fullmatch(text) is not None


def is_clean_shape(text: str) -> bool:
    """``text`` is exactly one of vibflow's ids or an ISO-8601 time (``generated_at``,
    ``created_at``): shapes with no room for a secret, which the detectors pass
    (tests scan thousands of each to pin that they do). A command's fresh ids and
    times are known clean without building the detectors."""
    if len(text) > 37:
        return False
    return is_vibflow_id(text) or _TIMESTAMP.fullmatch(text) is not None


def in_vibflow_id(line: str, start: int, end: int) -> bool:
    """The 32-hex body of one of vibflow's own ids (``run_<hex>``, ``ckpt_<hex>``, ...),
    which are generated locally from uuid4 and never carry user data (``sel_<hex>``,
    a file selection, is a one-way digest of project-relative paths)."""
    token = line[start:end]
    return (
        len(token) == 32
        and all(c in "0123456789abcdef" for c in token)
        and bool(_VIBFLOW_ID.search(line[max(0, start - 6) : start]))
        and (end == len(line) or not line[end].isalnum())
    )
