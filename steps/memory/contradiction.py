"""Does a new decision contradict one already recorded? Rule-based and
explainable (seed 002: contradictions must not pile up, and an old decision
must not be silently dropped either — mem0's failure modes).

Two decisions contradict when they speak about the same subject and
disagree:

* **opposite polarity**: one says do ("always use tabs"), the other don't
  ("never use tabs"), and what they are about is the same (the content words
  left after the polarity words go, compared as sets);
* **reversed preference**: "A over B" (or "instead of", "rather than")
  against "B over A";
* **exclusive alternatives**: the same claim with one of a pair of exclusive
  choices swapped ("use tabs" / "use spaces", "sync" / "async", "enable" /
  "disable"), the rest of the subject the same.

Every verdict carries the rule and the words it read, so a user can check it.
Pure: text in, verdict out; nothing here reads or writes memory.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

_WORD = re.compile(r"[a-z0-9][a-z0-9_+#.-]*")

#: Words (and two-word phrases, joined by "_") that make a statement negative.
NEGATIVE = frozenset(
    [
        "never",
        "not",
        "no",
        "dont",
        "don't",
        "do_not",
        "avoid",
        "stop",
        "without",
        "forbid",
        "forbidden",
        "ban",
        "banned",
        "disallow",
        "mustn't",
        "must_not",
        "shouldn't",
        "should_not",
        "cannot",
        "can't",
        "nobody",
        "none",
        "drop",
        "remove",
        "deprecate",
        "deprecated",
        "prohibit",
        "prohibited",
        "against",
    ]
)
#: Words that only say "do this": dropped from the subject, like the negatives.
POSITIVE = frozenset(
    [
        "always",
        "use",
        "uses",
        "using",
        "prefer",
        "must",
        "should",
        "do",
        "keep",
        "require",
        "required",
        "allow",
        "allowed",
        "adopt",
        "stick",
        "go",
        "we",
        "our",
        "all",
        "every",
        "only",
        "please",
        "make",
        "set",
        "be",
    ]
)
STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "to",
        "for",
        "in",
        "on",
        "of",
        "and",
        "or",
        "with",
        "by",
        "as",
        "at",
        "is",
        "are",
        "be",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "from",
        "when",
        "into",
        "over",
        "under",
        "any",
        "so",
        "per",
        "via",
        "instead",
        "than",
        "more",
        "here",
        "there",
        "will",
        "shall",
        "can",
        "may",
        "also",
        "just",
        "code",
    ]
)
#: Pairs of exclusive choices: saying one of them is saying "not the other".
EXCLUSIVE = (
    ("tabs", "spaces"),
    ("tab", "space"),
    ("sync", "async"),
    ("synchronous", "asynchronous"),
    ("enable", "disable"),
    ("enabled", "disabled"),
    ("single", "double"),
    ("camelcase", "snake_case"),
    ("mutable", "immutable"),
    ("class", "function"),
    ("classes", "functions"),
    ("sql", "nosql"),
    ("rebase", "merge"),
    ("monorepo", "polyrepo"),
    ("on", "off"),
    ("true", "false"),
    ("yes", "no"),
    ("inline", "external"),
    ("optional", "mandatory"),
    ("public", "private"),
    ("server", "client"),
    ("npm", "yarn"),
    ("pip", "poetry"),
    ("rest", "graphql"),
    ("light", "dark"),
)
_OTHER = dict(EXCLUSIVE) | {b: a for a, b in EXCLUSIVE}
_PHRASES = (("do", "not"), ("must", "not"), ("should", "not"), ("no", "longer"))

#: How much of the smaller subject must be shared (content words).
SAME_SUBJECT = 0.75


@dataclass(frozen=True)
class Reading:
    """One decision as the rules see it."""

    negative: bool
    subject: frozenset[str]


@dataclass(frozen=True)
class Contradiction:
    rule: str  # "opposite_polarity" | "reversed_preference" | "exclusive_choice"
    reason: str


def _stem(word: str) -> str:
    # Plural and tense endings only: enough for "tab"/"tabs", "used"/"use".
    for suffix in ("ies", "es", "s", "ed", "ing"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and word not in _OTHER:
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


def read(text: str) -> Reading:
    words = _WORD.findall(text.lower().replace("\u2019", "'"))
    joined: list[str] = []
    i = 0
    while i < len(words):
        pair = tuple(words[i : i + 2])
        if pair in _PHRASES:
            joined.append("_".join(pair))
            i += 2
            continue
        joined.append(words[i])
        i += 1
    negatives = sum(1 for w in joined if w in NEGATIVE or w == "no_longer")
    subject = frozenset(
        w if w in _OTHER else _stem(w)
        for w in joined
        if w not in NEGATIVE and w not in POSITIVE and w not in STOP and w != "no_longer"
    )
    return Reading(negative=negatives % 2 == 1, subject=subject)


def _overlap(a: frozenset[str], b: frozenset[str]) -> float:
    """Shared content words over the smaller subject: "avoid global state" and
    "use global state for the cache" speak about the same thing."""
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))


_PREFER = re.compile(r"\b([a-z0-9_+#.-]+) (?:over|instead of|rather than) ([a-z0-9_+#.-]+)")


def _preferences(text: str) -> set[tuple[str, str]]:
    return {(_stem(a), _stem(b)) for a, b in _PREFER.findall(text.lower())}


def contradicts(new: str, old: str) -> Contradiction | None:
    """Whether ``new`` contradicts ``old``, with the rule and the words read."""
    a, b = read(new), read(old)
    reversed_pref = {(y, x) for x, y in _preferences(new)} & _preferences(old)
    if reversed_pref:
        x, y = sorted(reversed_pref)[0]
        return Contradiction(
            "reversed_preference", f"one prefers “{y}” over “{x}”, the other the reverse"
        )
    if a.negative != b.negative and _overlap(a.subject, b.subject) >= SAME_SUBJECT:
        shared = ", ".join(sorted(a.subject & b.subject))
        return Contradiction(
            "opposite_polarity",
            f"one says do and the other says don't, about the same thing ({shared})",
        )
    swapped = [(w, _OTHER[w]) for w in a.subject if w in _OTHER and _OTHER[w] in b.subject]
    if swapped:
        w, other = sorted(swapped)[0]
        rest_a = a.subject - {w}
        rest_b = b.subject - {other}
        same_rest = rest_a == rest_b or _overlap(rest_a, rest_b) >= SAME_SUBJECT
        if same_rest and a.negative == b.negative:
            return Contradiction(
                "exclusive_choice", f"“{w}” and “{other}” exclude each other; the rest is the same"
            )
    return None


@dataclass(frozen=True)
class Clash:
    """A recorded decision the new text contradicts."""

    decision_id: str
    text: str
    contradiction: Contradiction


def clashes(new: str, existing: Iterable[tuple[str, str]]) -> list[Clash]:
    """Every ``(id, text)`` in ``existing`` that ``new`` contradicts."""
    out = []
    for decision_id, text in existing:
        found = contradicts(new, text)
        if found is not None:
            out.append(Clash(decision_id, text, found))
    return out


def pairs(decisions: Sequence[tuple[str, str]]) -> list[tuple[str, str, Contradiction]]:
    """Every contradicting pair among recorded decisions (older first in each pair)."""
    out = []
    for i, (id_a, text_a) in enumerate(decisions):
        for id_b, text_b in decisions[i + 1 :]:
            found = contradicts(text_b, text_a)
            if found is not None:
                out.append((id_a, id_b, found))
    return out
