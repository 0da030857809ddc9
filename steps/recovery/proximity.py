"""Names and folders: is a changed file *next to* a file of the intent and *named
like* it or like the intent? Pure.

Proximity alone is no evidence — the dashboard sits in the same folder as the
report screen — and a shared generic word is none either (every screen's name
ends in ``Screen``). So a file counts only when it is in the same folder as an
explicit file *and* its name shares a distinctive word with the intent text or
with that file's name (``InvoiceRow.tsx`` next to ``Invoice.tsx``;
``cancel.go`` for "add order cancellation").

Words: a name is split at case changes, digits and punctuation, lower-cased;
words under 3 letters and common code and English words are dropped; a word
most files of the folder share is not distinctive there. Two words match when
equal or when one (4+ letters) starts the other (``install`` / ``installer``,
``cancel`` / ``cancellation``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

#: Words that say nothing about what a file is about.
_STOP_WORDS = """
    a an and are as at be by for from in into is it of on or the to with without
    add adds added adding make makes fix fixes fixed update updates updated change
    changes new old use using via all any can should must not now our your this
    that these those when then than also more less some each per only just
    after before while which where there their them they what about other every
    because through over under between instead within until been being does done
    have having here just like most much very will would could into onto upon
    src lib libs pkg app apps main index mod init test tests spec specs testing
    util utils helper helpers common shared core base misc tmp temp file files
    page pages screen screens view views component components widget widgets
    form forms button buttons module modules service services model models
    controller controllers handler handlers repository repositories provider
    providers manager managers factory factories adapter adapters middleware
    interface interfaces dto dtos entity entities command commands cmd
    type types types config conf settings default defaults readme docs doc
    get set run runs run impl internal public private api js ts tsx jsx py go rs
    java kt md txt vue
"""
STOP = frozenset(_STOP_WORDS.split())

#: What separates a name's words: anything but ASCII digits and letters and the
#: characters U+00C0 to U+FFFF. Spelled as the ranges it matches, not as the
#: negation of a range 65,000 wide: re builds a bitmap of such a range one
#: character at a time, 2.5 ms of every command that loads the zone.
_SPLIT = re.compile(r"[\x00-/:-@\[-`{-\u00bf\U00010000-\U0010ffff]+")
_CAMEL = re.compile(r"(?<=[a-z0-9\u00df-\u00ff])(?=[A-Z\u00c0-\u00de])|(?<=[A-Z])(?=[A-Z][a-z])")


def words(text: str) -> list[str]:
    """The words of a name or a sentence, lower-cased, stop words dropped."""
    text = unicodedata.normalize("NFC", text)
    out = []
    for chunk in _SPLIT.split(text):
        for part in _CAMEL.split(chunk):
            word = re.sub(r"\d+", "", part).casefold()
            if len(word) >= 3 and word not in STOP:
                out.append(word)
    return out


@lru_cache(maxsize=16384)
def name_tokens(path: str) -> frozenset[str]:
    """The words of a path's file name (without extensions)."""
    base = path.rpartition("/")[2]
    stem = base.split(".")[0] or base
    return frozenset(words(stem))


def _match(a: str, b: str) -> bool:
    if a == b:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) >= 4 and long_.startswith(short)


def overlap(a: Iterable[str], b: Iterable[str]) -> list[str]:
    """The words of ``a`` that match a word of ``b``, sorted (reasons read the same
    on every run)."""
    bs = list(b)
    return sorted(x for x in a if any(_match(x, y) for y in bs))


def matched_apart(wanted: Iterable[str], present: Iterable[str]) -> list[str]:
    """Words of ``wanted`` matched by different words of ``present``, one per word
    of ``present`` (its first match not taken, in order), sorted: ``player`` is one word of a
    name however many of the intent's words (``play``, ``player``) it matches."""
    want = sorted(wanted)
    found: list[str] = []
    for x in sorted(present):
        w = next((w for w in want if w not in found and _match(w, x)), None)
        if w is not None:
            found.append(w)
    return sorted(found)


def matched(wanted: Iterable[str], present: Iterable[str]) -> list[str]:
    """The words of ``wanted`` that one of ``present`` matches, sorted."""
    have = list(present)
    return sorted(w for w in wanted if any(_match(w, x) for x in have))


_TEST_SUFFIX = re.compile(r"(?:[_-]?(?:tests?|spec|it))$", re.IGNORECASE)
_TEST_PREFIX = re.compile(r"^tests?[_-]", re.IGNORECASE)
_CAMEL_TEST = re.compile(r"(?<=[a-z0-9])(?:Tests?|Spec|IT)$")


def plain_stem(path: str) -> str:
    """A file's stem as names are compared across conventions: ``invoices_controller``,
    ``InvoicesController`` and ``invoices-controller`` are one."""
    base = path.rpartition("/")[2]
    stem = base.split(".")[0] or base
    return re.sub(r"[_\-]", "", stem).casefold()


def stem_under_test(path: str) -> str | None:
    """The stem of the file a test file is named for — ``test_orders.py``,
    ``orders_test.go``, ``Orders.test.ts``, ``OrdersTest.java``,
    ``InvoicesControllerTests.cs``, ``orders_spec.rb`` all test ``orders`` — or None
    when the name does not say it is a test."""
    base = path.rpartition("/")[2]
    parts = base.split(".")
    stem = parts[0]
    if len(parts) >= 3 and parts[1].casefold() in ("test", "spec", "tests"):
        named = stem
    elif _TEST_PREFIX.match(stem):
        named = _TEST_PREFIX.sub("", stem)
    elif _CAMEL_TEST.search(stem):
        named = _CAMEL_TEST.sub("", stem)
    elif re.search(r"[_-](?:tests?|spec)$", stem, re.IGNORECASE):
        named = _TEST_SUFFIX.sub("", stem)
    else:
        return None
    found = re.sub(r"[_\-]", "", named).casefold()
    return found if len(found) >= 3 else None


@lru_cache(maxsize=256)
def common_words(siblings: tuple[str, ...]) -> frozenset[str]:
    """Words most names of a folder share (``screen`` in ``*Screen.tsx``): in more
    than half of them (files sharing a stem count once), with at least 3 to judge by."""
    stems = {name.split(".")[0] for name in siblings}  # Table.tsx and Table.css: one
    if len(stems) < 3:
        return frozenset()
    counts: dict[str, int] = {}
    for stem in stems:
        for word in name_tokens(stem):
            counts[word] = counts.get(word, 0) + 1
    return frozenset(w for w, n in counts.items() if n * 2 > len(stems))
