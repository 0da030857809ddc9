"""Which texts of a payload are known to hold no secret, found without scanning
each one alone — most of the time without building the detectors at all.

Three answers, cheapest first: vibflow's own ids and ISO-8601 times are clean
by shape (:mod:`.shapes`); a text the same detectors already passed is
remembered by digest (:mod:`.verdicts`); the rest are scanned together as
the lines of one document (``secrets._clean_by_scan``). Only that last step
loads the secret detectors (:mod:`.secrets`, :mod:`.patterns` and
detect-secrets), so a command whose texts are all known clean never does.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from vibflow.steps.redaction.shapes import is_clean_shape
from vibflow.steps.redaction.verdicts import KnownClean, digest

# A horizontal whitespace run longer than this is collapsed to one space.
LONG_BLANK = re.compile(r"[ \t]{65,}")


def collapse_whitespace(text: str) -> str:
    if len(text) < 65:  # too short to hold a long blank run (most of a payload)
        return text
    return LONG_BLANK.sub(" ", text)


def clean_texts(texts: Iterable[str], known: KnownClean | None = None) -> frozenset[str]:
    """The single-line ``texts`` that hold no secret, found with one scan of all.

    ``known`` remembers texts the same detectors already passed (by digest):
    those are not scanned again, and the detectors are not even built when
    every text is known.

    The detectors work line by line (blocks of whole lines, windows of long
    lines — the same for a line alone or among others), so the texts are
    scanned as the lines of one document: a text none of whose findings touch
    it would give none alone. Findings reaching across lines only flag more,
    and so does a value found on one line being searched for on all; a
    multi-line text is never judged here. A caller scans whatever is not
    returned one by one, as before.
    """
    singles = [t for t in dict.fromkeys(texts) if t and "\n" not in t]
    if not singles:
        return frozenset()
    # A payload's freshly made ids and times (a preview's plan id, a recap's
    # generated_at) are new to any cache; the detectors pass those shapes by
    # rule, so no scan is needed to know it.
    ids = frozenset(t for t in singles if is_clean_shape(t))
    if ids:
        singles = [t for t in singles if t not in ids]
        if not singles:
            return ids
    already: frozenset[str] = ids
    if known is not None:
        digests = {t: digest(t) for t in singles}
        hits = known.known(digests.values())
        hit = frozenset(t for t in singles if digests[t] in hits)
        already |= hit
        singles = [t for t in singles if t not in hit]
        if not singles:
            return already
    from vibflow.steps.redaction.secrets import _clean_by_scan

    found = _clean_by_scan(singles)
    if known is not None:
        known.remember(digest(t) for t in found)
    return already | found
