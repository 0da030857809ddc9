"""Secret masking: every secret in a text becomes ``[REDACTED:<kind>]``.

The detectors (:mod:`.detectors`, detect-secrets' plugins plus our own
patterns in :mod:`.patterns`) report findings; this module feeds them the
text in pieces they handle well and turns findings into masks:

* horizontal whitespace runs longer than 64 characters are collapsed first
  and lines longer than ``WINDOW`` are scanned in overlapping windows, so no
  regex ever crawls over a huge line (a documented detect-secrets pitfall);
* PEM and PuTTY private keys are masked as whole blocks;
* a value found once is masked everywhere it stands alone in the text
  (``password=hunter2`` on one line, ``hunter2`` typed on another);
* nothing inside an earlier placeholder is masked again, so a second pass
  over redacted text changes nothing.

The detectors are built once per process and every scan holds one lock:
detect-secrets' plugin objects are not meant for concurrent use. Nothing is
ever written to disk here (the optional :mod:`.verdicts` cache keeps only
digests of texts found clean) and the verification filter is never enabled.
"""

from __future__ import annotations

import bisect
import re
import threading
from collections import Counter
from collections.abc import Iterator

from vibflow.steps.redaction.clean import LONG_BLANK, clean_texts, collapse_whitespace
from vibflow.steps.redaction.detectors import (
    DETECT_SECRETS_PLUGINS,
    EXCLUDED_PLUGINS,
    KINDS,
    RANK,
    Detectors,
    Finding,
)
from vibflow.steps.redaction.objects import KnownObjects, is_object_id
from vibflow.steps.redaction.patterns import ALNUM, looks_like_words, private_key_spans
from vibflow.steps.redaction.spans import Placeholders, Span, apply, secret_placeholder

__all__ = [
    "DETECT_SECRETS_PLUGINS",
    "EXCLUDED_PLUGINS",
    "KINDS",
    "LONG_BLANK",
    "clean_texts",
    "collapse_whitespace",
    "find_secrets",
    "looks_like_words",
    "mask_secrets",
]

# Lines longer than WINDOW are scanned in windows overlapping by OVERLAP, so no
# regex ever sees more than WINDOW characters of one line.
WINDOW = 4096
OVERLAP = 512
# Normal lines are grouped into blocks of about this size.
BLOCK = 256 * 1024
_ALNUM_RUN = re.compile(r"[A-Za-z0-9]+")


def _scan(detectors: Detectors, text: str) -> list[Span]:
    holes = Placeholders(text)
    found: list[Finding] = [(s, e, "pem_key") for s, e in private_key_spans(text)]
    everywhere: dict[str, str] = {}
    for offset, segment, is_window in _segments(text):
        seg_found, seg_values = detectors.scan(segment, offset, is_window=is_window)
        found.extend(seg_found)
        for value, kind in seg_values.items():
            everywhere.setdefault(value, kind)
    found.extend(_occurrences(text, everywhere))
    return [
        Span(s, e, secret_placeholder(kind), RANK.get(kind, 0))
        for s, e, kind in found
        if e > s and not holes.contain(s, e)
    ]


_LONG_LINE = re.compile(r"^[^\n]{%d,}" % (WINDOW + 1), re.MULTILINE)  # noqa: UP031


def _segments(text: str) -> Iterator[tuple[int, str, bool]]:
    """(offset, text, is_window): blocks of whole lines, and windows of long lines."""
    pos = 0
    for m in _LONG_LINE.finditer(text):
        yield from _blocks(text, pos, m.start())
        w = m.start()
        while True:
            yield w, text[w : min(w + WINDOW, m.end())], True
            if w + WINDOW >= m.end():
                break
            w += WINDOW - OVERLAP
        pos = m.end() + 1
    yield from _blocks(text, pos, len(text))


def _blocks(text: str, start: int, end: int) -> Iterator[tuple[int, str, bool]]:
    """Whole lines of ``text[start:end]`` in blocks of about BLOCK characters."""
    while start < end:
        stop = end
        if end - start > BLOCK:
            nl = text.rfind("\n", start, start + BLOCK)
            stop = nl if nl > start else end
        yield start, text[start:stop], False
        start = stop + 1


def _occurrences(text: str, values: dict[str, str]) -> Iterator[Finding]:
    """Every standalone occurrence of each found value (not inside a longer word).

    A standalone occurrence contains the value's first alphanumeric run as a
    whole run of the text, and the occurrence that was found is one. So a value
    whose first run occurs only once in the text has no other occurrence, and
    only the rest (usually none) need a search.
    """
    if not values:
        return
    runs = Counter(_ALNUM_RUN.findall(text))
    for value, kind in values.items():
        anchor = _ALNUM_RUN.search(value)
        if anchor is None or runs[anchor.group()] <= 1:
            continue
        i = text.find(value)
        while i != -1:
            if _standalone(text, i, i + len(value)):
                yield i, i + len(value), kind
            i = text.find(value, i + len(value))


def _standalone(text: str, s: int, e: int) -> bool:
    return (s == 0 or text[s - 1] not in ALNUM or text[s] not in ALNUM) and (
        e == len(text) or text[e] not in ALNUM or text[e - 1] not in ALNUM
    )


_LOCK = threading.Lock()
_DETECTORS: Detectors | None = None


def detectors() -> Detectors:
    """The process's one configured set of detectors (built on first use)."""
    global _DETECTORS  # noqa: PLW0603 -- one per process, like detect-secrets' own state
    with _LOCK:
        if _DETECTORS is None:
            _DETECTORS = Detectors()
        return _DETECTORS


def find_secrets(text: str) -> list[Span]:
    """Spans of ``text`` that hold secrets (``text`` should be whitespace-collapsed)."""
    built = detectors()
    with _LOCK:
        return _scan(built, text)


def _clean_by_scan(singles: list[str]) -> frozenset[str]:
    lines = [collapse_whitespace(t) for t in singles]
    starts: list[int] = []
    pos = 0
    for line in lines:
        starts.append(pos)
        pos += len(line) + 1
    flagged: set[int] = set()
    for span in find_secrets("\n".join(lines)):
        first = bisect.bisect_right(starts, span.start) - 1
        last = bisect.bisect_right(starts, max(span.start, span.end - 1)) - 1
        flagged.update(range(max(0, first), last + 1))
    return frozenset(t for i, t in enumerate(singles) if i not in flagged)


_HEX_MASK = secret_placeholder("high_entropy_hex")


def mask_secrets(text: str, objects: KnownObjects | None = None) -> tuple[str, int]:
    """``text`` with every secret replaced by ``[REDACTED:<kind>]``, and the mask count.

    With ``objects``, a hex finding that is a full-length id of an object in the
    repository is left as it is (:mod:`.objects`); every other finding is masked.
    """
    text = collapse_whitespace(text)
    spans = find_secrets(text)
    if objects is not None:
        spans = _without_object_ids(text, spans, objects)
    return apply(text, spans)


def _without_object_ids(text: str, spans: list[Span], objects: KnownObjects) -> list[Span]:
    hex_ids = {
        text[sp.start : sp.end]
        for sp in spans
        if sp.replacement == _HEX_MASK and is_object_id(text[sp.start : sp.end])
    }
    if not hex_ids:
        return spans
    named = objects.named(hex_ids)
    return [
        sp for sp in spans if not (sp.replacement == _HEX_MASK and text[sp.start : sp.end] in named)
    ]
