"""Our own secret patterns and near-miss rules, next to detect-secrets' detectors.

Two kinds of knowledge live here, all plain data and pure functions, each
expensive pattern searched through a gate (:mod:`.gates`):

* **Shapes detect-secrets has no detector for** (or only matches a prefix
  of): fine-grained GitHub PATs, Google keys, ``sk-proj-`` / ``sk-ant-``
  keys, npm tokens, ``--password x``, ``TOKEN=...``, Authorization
  headers, URL passwords with sub-delimiters, and whole PEM / PuTTY blocks.
* **Near misses** — identifiers made of words, hashes in git or checksum
  context, UUID groups, stop-word "passwords": what a scanner flags and a
  reader knows is not a secret (vibflow's own ids and times: :mod:`.shapes`).

Only the detectors import this module: a command whose texts are all known
clean never compiles these patterns.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from vibflow.steps.redaction.gates import Gate, lines_at, literals
from vibflow.steps.redaction.shapes import (
    _ID_PREFIXES,
    in_vibflow_id,
    is_clean_shape,
    is_vibflow_id,
)

__all__ = [
    "ALNUM",
    "EXTRAS",
    "WORD",
    "_ID_PREFIXES",
    "Gate",
    "in_hash_context",
    "in_uuid",
    "in_vibflow_id",
    "is_clean_shape",
    "is_reference",
    "is_vibflow_id",
    "keyword_value",
    "lines_at",
    "literals",
    "looks_like_words",
    "private_key_spans",
    "widen",
]

TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
TOKEN_TAIL = TOKEN_CHARS | frozenset("+/=")
ALNUM = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
WORD = ALNUM | {"_"}


# --- shapes detect-secrets has no detector for ---------------------------------------

_REFERENCE_WORD = re.compile(r"(?i)pass|pwd|secret|key|token|cred|auth")
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")


def _has_digit(value: str) -> bool:
    return any(c.isdigit() for c in value)


_CALL = re.compile(r"[\w.$-]*[\[(]")


def is_reference(value: str) -> bool:
    """A name or expression that points at a secret, not one.

    ``settings.db_password``, ``api_key``, ``get_token(42)``, ``os.environ[``:
    detect-secrets' indirect-reference filter, applied to the value instead of
    the whole line (so ``x = f(y); password=hunter2`` is still caught).
    """
    return bool(
        (IDENTIFIER.fullmatch(value) and _REFERENCE_WORD.search(value)) or _CALL.match(value)
    )


def _plausible_assigned(value: str) -> bool:
    """A value assigned to a token-ish name: letters *and* digits, not a reference."""
    bare = value.strip("\"'")
    if len(bare) < 8 or not _has_digit(bare) or not any(c.isalpha() for c in bare):
        return False
    return not is_reference(bare)


@dataclass(frozen=True)
class Extra:
    kind: str
    pattern: re.Pattern[str]
    group: int = 0
    gate: Gate | None = None  # without one, the pattern must start with a literal
    check: Callable[[str], bool] | None = None  # plausibility of the matched value
    word_start: bool = False  # the match must not continue a word on its left
    generic: bool = False  # drop references and placeholder shapes (${X}, <x>, ***)


EXTRAS: tuple[Extra, ...] = (
    Extra("github_token", re.compile(r"github_pat_[A-Za-z0-9_]{22,}"), word_start=True),
    Extra("github_token", re.compile(r"gh[pousr]_[A-Za-z0-9]{30,}"), word_start=True),
    Extra("slack_token", re.compile(r"xox[abeopsr]-[A-Za-z0-9-]{8,}"), word_start=True),
    Extra("slack_token", re.compile(r"xapp-[0-9]-[A-Za-z0-9-]{10,}"), word_start=True),
    Extra("slack_webhook", re.compile(r"https://hooks\.slack\.com/services/[A-Za-z0-9/_-]{8,}")),
    Extra("stripe_key", re.compile(r"[rs]k_(?:live|test)_[0-9A-Za-z]{16,}"), word_start=True),
    Extra("stripe_key", re.compile(r"whsec_[0-9A-Za-z]{16,}"), word_start=True),
    Extra("google_key", re.compile(r"AIza[0-9A-Za-z_-]{35}"), word_start=True),
    Extra("anthropic_token", re.compile(r"sk-ant-[A-Za-z0-9_-]{20,}"), word_start=True),
    Extra(
        "openai_token",
        re.compile(r"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}"),
        word_start=True,
    ),
    Extra("npm_token", re.compile(r"npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])"), word_start=True),
    Extra(
        "url_credentials",
        re.compile(r"[A-Za-z][A-Za-z0-9+.-]{0,20}://[^\s/:@\[\]]{1,256}:([^\s/@]{1,256})@"),
        1,
        gate=literals("://", lowered=False),
        word_start=True,
    ),
    Extra(
        "bearer_token",
        re.compile(
            r"(?i)authorization[\"']?[ \t]*[:=][ \t]*[\"']?(?:bearer|basic|token|digest)[ \t]+"
            r"([A-Za-z0-9._~+/=-]{8,})"
        ),
        1,
        gate=literals("authorization"),
        check=_has_digit,
        word_start=True,
        generic=True,
    ),
    Extra(
        "bearer_token",
        re.compile(r"Bearer[ \t]+([A-Za-z0-9._~+/-]{16,}=*)"),
        1,
        check=_has_digit,
        word_start=True,
        generic=True,
    ),
    Extra(
        "credential",
        re.compile(
            r"(?i)--(?:password|passwd|pass|token|secret|api-key|apikey|access-token|auth-token)"
            r"(?:=|[ \t]+)(\"[^\"\n]{1,200}\"|'[^'\n]{1,200}'|[^\s\"']+)"
        ),
        1,
        gate=literals("--pass", "--token", "--secret", "--api", "--access", "--auth"),
        check=lambda v: len(v.strip("\"'")) >= 3,
        generic=True,
    ),
    Extra(
        "credential",
        re.compile(
            r"(?i)(?<![A-Za-z0-9_])((?:[A-Za-z0-9]+[_.-])*"
            r"(?:(?:access|auth|refresh|api|bearer|session|id)[_-]?token|token|credentials?"
            r"|client[_-]?secret|access[_-]?key(?:[_-]?id)?|secret[_-]?access[_-]?key))"
            r"[\"']?[ \t]*[:=][ \t]*([\"']?)([^\s\"',;@]{8,})\2"
        ),
        3,
        gate=literals("token", "credential", "secret", "access"),
        check=_plausible_assigned,
        generic=True,
    ),
)


# --- PEM / PuTTY private-key blocks ------------------------------------------------------

_PEM_BEGIN = re.compile(r"-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----")
_BARE_HEADER = re.compile(
    r"BEGIN (?:DSA |EC |OPENSSH |PGP |RSA |SSH2 ENCRYPTED |ENCRYPTED )?PRIVATE KEY(?: BLOCK)?"
    r"|PuTTY-User-Key-File-\d"
)
# What follows a header inside a key: base64 lines (short ones only when padded),
# "Name: value" headers, or the same with literal "\n" escapes (a key in JSON).
_KEY_BODY = re.compile(
    r"(?:(?:\r?\n|\\r?\\n|[ \t]+)"
    r"(?:[A-Za-z0-9+/]{16,}={0,2}|[A-Za-z0-9+/]{1,15}={1,2}|(?:Proc-Type|DEK-Info|Comment"
    r"|Version|Encryption|Public-Lines|Private-Lines|Private-MAC|Private-Hash|Key-Derivation"
    r"|Argon2-[A-Za-z]+):[^\n\\]{0,200}))+"
)
_MAX_BLOCK = 64 * 1024


def private_key_spans(text: str) -> list[tuple[int, int]]:
    """Whole private-key blocks: BEGIN..END, or BEGIN plus its body when cut off."""
    out: list[tuple[int, int]] = []
    covered_to = -1
    for m in _PEM_BEGIN.finditer(text):
        if m.start() < covered_to:
            continue
        end_marker = f"-----END {m.group(1)}-----"
        end = text.find(end_marker, m.end(), m.end() + _MAX_BLOCK)
        if end != -1:
            stop = end + len(end_marker)
        else:  # cut off (a summary, a truncated log): mask what looks like key body
            body = _KEY_BODY.match(text, m.end())
            stop = body.end() if body else m.end()
        out.append((m.start(), stop))
        covered_to = stop
    for m in _BARE_HEADER.finditer(text):
        if any(s <= m.start() < e for s, e in out):
            continue
        putty = m.group().startswith("PuTTY")
        line_end = text.find("\n", m.end())
        line_end = len(text) if line_end == -1 else line_end
        body = _KEY_BODY.match(text, line_end if putty else m.end())
        if body is None and not putty:
            continue  # a prose mention of a key header, not a key
        out.append((m.start(), max(body.end() if body else m.end(), line_end)))
    return out


# --- near misses -----------------------------------------------------------------------

_CAMEL = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_ALPHA = re.compile(r"[A-Za-z]+")
_VOWELS = frozenset("aeiouyAEIOUY")


def looks_like_words(token: str) -> bool:
    """True for identifiers and paths made of words (detect-secrets issue #693).

    ``callFunctionCheckIfDataAlreadyExists`` has the entropy of a key; what it
    does not have is a key's fragmentation: nearly all of its letters sit in
    pronounceable segments of three or more letters. (Of 16,775 random base64
    strings above the entropy limit, one passed as words.)
    """
    letters = 0
    wordy = 0
    for run in _ALPHA.finditer(token):
        text = run.group()
        letters += len(text)
        bounded = (run.start() == 0 or token[run.start() - 1] not in ALNUM) and (
            run.end() == len(token) or token[run.end()] not in ALNUM
        )
        if text.isupper() and bounded and len(text) >= 3 and not _VOWELS.isdisjoint(text):
            wordy += len(text)  # a CONSTANT_CASE word
            continue
        for seg in _CAMEL.findall(text):
            if len(seg) >= 3 and not seg.isupper() and not _VOWELS.isdisjoint(seg):
                wordy += len(seg)
    return letters > 0 and wordy >= 0.75 * letters


_HASH_CONTEXT = re.compile(
    r"(?i)(?:\b(?:commit|commits|merge|merged|revert|reverts|parent|tree|object|blob|index"
    r"|head is now at|fixup!|squash!|sha(?:1|224|256|384|512)?|md5|digest|hash|checksum"
    r"|integrity|etag|rev|revision|ref|build|version|cherry picked from commit)"
    r"[\"' \t:=#@(\[-]{0,4}|\.\.\.?|@|\[[\w./-]{1,40} )$"
)
_HEX_CHAIN = re.compile(r"\b[0-9a-f]{7,64}[ \t]+$")  # "Merge: 3f9a2c1 8b0e4d2"
_ONELINE_LOG = re.compile(r"^[ \t*|/\\]*$")


def in_hash_context(line: str, start: int, end: int, *, hex_token: bool) -> bool:
    """A token that a git or checksum context says is a hash, not a key."""
    before = line[max(0, start - 48) : start]
    if _HASH_CONTEXT.search(before):
        return True
    if not hex_token:
        return False
    if _HEX_CHAIN.search(before):
        return True
    # `git log --oneline`: an abbreviated hash first on the line, then the subject.
    return (
        end - start <= 12
        and start <= 16
        and bool(_ONELINE_LOG.match(line[:start]))
        and line[end : end + 1] == " "
    )


_UUID = re.compile(r"(?i)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def in_uuid(line: str, start: int, end: int) -> bool:
    """A token that is one group of a UUID (detect-secrets only checks the token)."""
    return any(
        m.start() < end and start < m.end()
        for m in _UUID.finditer(line, max(0, start - 36), end + 36)
    )


_STOPWORDS = frozenset(
    {
        *("none", "null", "nil", "true", "false", "yes", "no", "on", "off", "str", "string"),
        *("int", "bool", "bytes", "optional", "required", "undefined", "empty", "unset"),
        *("hidden", "redacted", "masked", "the", "a", "an", "is", "it", "be", "must"),
        *("should", "will", "not", "and", "or", "of", "to", "for", "in", "with", "this"),
        *("that", "your", "from", "see", "here", "below", "above", "field", "value", "type"),
        *("any", "dict", "list", "object", "secretstr"),
    }
)
_CUT = re.compile(r"\s|[;&](?=[A-Za-z_][\w.-]*=)")
_COMPARISON = re.compile(r"[!=]=")


def keyword_value(line: str, raw: str, after: int) -> tuple[int, int] | None:
    """Where the keyword detector's value sits in ``line``, trimmed to the secret.

    An unquoted value ends at whitespace (or at the next ``;key=``/``&key=``),
    loses trailing punctuation, and is dropped when it is a stop word, a
    reference to another name, or the right side of a comparison.
    """
    s = line.find(raw, after)
    if s == -1:
        s = line.find(raw)
    if s == -1:
        return None
    e = s + len(raw)
    quoted = s > 0 and line[s - 1] in "\"'`" and line[e : e + 1] == line[s - 1]
    if not quoted:
        cut = _CUT.search(line, s, e)
        if cut:
            e = cut.start()
        while e > s and line[e - 1] in ",;:)]}>.":
            e -= 1
        while s < e and line[s] in "([{<":
            s += 1
        if is_reference(line[s:e]) or _COMPARISON.search(line, max(0, after - 1), s):
            return None
    value = line[s:e]
    if len(value) < 3 or value.lower() in _STOPWORDS:
        return None
    return s, e


def widen(line: str, s: int, e: int, *, dots: bool) -> tuple[int, int]:
    """Grow a detector's match to the whole token around it.

    With ``dots`` (JWTs) an inner "." joins the token; a final one ends a sentence.
    """
    if s < e and line[s] in TOKEN_CHARS:
        while s > 0 and line[s - 1] in TOKEN_CHARS:
            s -= 1
    if s < e and (line[e - 1] in TOKEN_TAIL or (dots and line[e - 1] == ".")):
        while e < len(line):
            c = line[e]
            if c in TOKEN_TAIL or (
                dots and c == "." and e + 1 < len(line) and line[e + 1] in TOKEN_CHARS
            ):
                e += 1
            else:
                break
    return s, e
