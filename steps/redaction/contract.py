"""The redaction contract: one gate for everything that leaves the process.

Spec §7 / DESIGN §4.7. MCP responses, recaps, handoff documents, export
bundles and quarantine files all pass through :func:`redact_text` or
:func:`redact_payload`, which

1. mask secrets (detect-secrets plus our own patterns, :mod:`.secrets`),
2. mask private paths, names, hosts and addresses (:mod:`.privacy`),
3. summarize what is still too long (:mod:`.summarize`),
4. mark each touched field ``redacted`` / ``summarized`` / ``omitted`` and
5. return count-only :class:`~vibflow.engine.audit.RedactionCounts` for the audit.

Secrets are masked before summarizing so a cut can never leave half a key
behind. The three passes are repeated until the output is a fixed point
(almost always after one repeat), which is what makes redaction idempotent:
redacting already-redacted output changes nothing and counts nothing.

The fail-closed check the spec requires after it (Appendix C) is
:func:`~.failclosed.assert_no_absolute_paths`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from vibflow.engine.audit import RedactionCounts
from vibflow.steps.redaction.clean import clean_texts, collapse_whitespace
from vibflow.steps.redaction.privacy import (
    PrivacyContext,
    filter_privacy,
    quiet_texts,
)
from vibflow.steps.redaction.summarize import summarize
from vibflow.steps.redaction.texts import join_key, plain_value, texts_of
from vibflow.steps.redaction.verdicts import KnownClean

if TYPE_CHECKING:
    from vibflow.steps.redaction.objects import KnownObjects
    from vibflow.steps.redaction.scans import ScanMemo

Mark = Literal["redacted", "summarized", "omitted"]
# Passes after which a text that still changes is withheld instead (never hit
# in practice; it bounds the work and keeps the output a fixed point).
MAX_PASSES = 4
_WITHHELD = "[... {n} chars withheld: redaction did not settle ...]"


@dataclass(frozen=True)
class Redacted:
    """A redacted copy, what was done to it (counts) and where (marks by field path)."""

    value: Any
    counts: RedactionCounts
    marks: dict[str, Mark] = field(default_factory=dict)


class _Tally:
    # Plain classes and named tuples below, not dataclasses: every command that
    # sends something out imports this module, and a dataclass costs about a
    # millisecond to build.
    __slots__ = ("marks", "omitted", "privacy_hits", "secret_hits", "summarized")

    def __init__(self) -> None:
        self.secret_hits = 0
        self.privacy_hits = 0
        self.summarized = 0
        self.omitted = 0
        self.marks: dict[str, Mark] = {}

    def counts(self) -> RedactionCounts:
        return RedactionCounts(
            secret_hits=self.secret_hits,
            privacy_hits=self.privacy_hits,
            summarized_fields=self.summarized,
            omitted_fields=self.omitted,
        )


class _Scan(NamedTuple):
    text: str
    secret_hits: int
    privacy_hits: int
    summarized: bool

    @property
    def untouched(self) -> bool:
        return not (self.secret_hits or self.privacy_hits or self.summarized)


def _redact_string(
    text: str,
    ctx: PrivacyContext,
    max_chars: int,
    path: str,
    tally: _Tally,
    memo: dict[tuple[str, int], _Scan] | None = None,
    clean: AbstractSet[str] = frozenset(),
    quiet: AbstractSet[str] = frozenset(),
    objects: KnownObjects | None = None,
) -> str:
    # A payload repeats its strings (the same path in several lists): scan each
    # distinct string once, but count and mark every occurrence as before.
    key = (text, max_chars)
    scan = memo.get(key) if memo is not None else None
    if scan is None:
        scan = _scan(text, ctx, max_chars, clean, quiet, objects)
        if memo is not None:
            memo[key] = scan
    _count(scan, path, tally)
    return scan.text


def _count(scan: _Scan, path: str, tally: _Tally) -> None:
    tally.secret_hits += scan.secret_hits
    tally.privacy_hits += scan.privacy_hits
    if scan.secret_hits or scan.privacy_hits:
        # A field both masked and shortened is marked "redacted": that is the
        # safety fact a reader must not miss; the summary marker is in the text.
        tally.marks[path] = "redacted"
    elif scan.summarized:
        tally.marks[path] = "summarized"
    if scan.summarized:
        tally.summarized += 1


def _scan(
    text: str,
    ctx: PrivacyContext,
    max_chars: int,
    clean: AbstractSet[str] = frozenset(),
    quiet: AbstractSet[str] = frozenset(),
    objects: KnownObjects | None = None,
) -> _Scan:
    """``clean``: texts known to hold no secret; ``quiet``: texts (whitespace
    collapsed) known to need no privacy mask — both found for a whole payload;
    ``objects``: this repository's object ids, which are names, not secrets."""
    current = text
    secret_hits = privacy_hits = 0
    summarized = False
    for _ in range(MAX_PASSES):
        if not current or current in clean:  # nothing, or scanned with the payload
            masked, s_hits = collapse_whitespace(current), 0
        else:
            # The detectors load only for a text not known clean (most commands: none).
            from vibflow.steps.redaction.secrets import mask_secrets

            masked, s_hits = mask_secrets(current, objects)
        if masked in quiet:
            p_hits = 0
        else:
            masked, p_hits = filter_privacy(masked, ctx)
        summary = summarize(masked, max_chars)
        if summary.text == current:
            break
        secret_hits += s_hits
        privacy_hits += p_hits
        summarized = summarized or summary.summarized
        current = summary.text
    else:
        current = _WITHHELD.format(n=len(text))[: max(0, max_chars)]
        summarized = True
    return _Scan(current, secret_hits, privacy_hits, summarized)


def redact_text(
    text: str,
    *,
    root: Path | None = None,
    max_chars: int = 4000,
    field: str = "",
    objects: KnownObjects | None = None,
) -> Redacted:
    """Redact one string bound for outside the process (``field`` names it in the marks).

    ``objects`` (the repository's :class:`~.objects.KnownObjects`) leaves full-length
    ids of objects in the repository unmasked: they are names, not secrets."""
    tally = _Tally()
    ctx = PrivacyContext.for_root(root)
    value = _redact_string(text, ctx, max_chars, field, tally, objects=objects)
    return Redacted(value, tally.counts(), tally.marks)


def redact_payload(
    data: Any,
    *,
    root: Path | None = None,
    omit: Collection[str] = (),
    max_field_chars: int = 4000,
    known: KnownClean | None = None,
    memo: ScanMemo | None = None,
    objects: KnownObjects | None = None,
) -> Redacted:
    """Redact a JSON-like value: every string in it, dict keys included.

    ``known`` (a :class:`~.verdicts.KnownClean`) skips the secret scan of texts
    the same detectors already passed; the privacy filter still sees them.
    ``memo`` (a long-lived process's :class:`~.scans.ScanMemo`) keeps each text's
    verdicts under this privacy context, so a text sent again is looked up, not
    judged again — with the same result, counts and marks.
    ``objects`` (the repository's :class:`~.objects.KnownObjects`) leaves
    full-length ids of objects in the repository unmasked (names, not secrets);
    the candidates of all the texts that need a scan are looked up at once.

    Keys listed in ``omit`` (a key name, or a dotted path such as
    ``"verification.0.output"``) are dropped and marked ``omitted``. Mark keys
    are dotted paths built from the *redacted* keys, so they leak nothing.
    Tuples and sets become lists; paths, bytes and other objects become
    redacted strings (pydantic models and dataclasses are dumped first).
    """
    ctx = PrivacyContext.for_root(root)
    if memo is not None:
        return _redact_with_memo(data, ctx, memo, frozenset(omit), max_field_chars, known, objects)
    tally = _Tally()
    # A payload is mostly short clean strings (paths, ids): one scan of all of
    # them settles most, instead of one scan each.
    texts = texts_of(data)
    clean = clean_texts(texts, known)
    if objects is not None:
        objects.prefetch(t for t in texts if t not in clean)
    quiet = quiet_texts((collapse_whitespace(t) for t in clean), ctx)
    walker = _Walker(
        ctx, frozenset(omit), max_field_chars, tally, clean=clean, quiet=quiet, objects=objects
    )
    value = walker.walk(data, None, None)
    return Redacted(value, tally.counts(), tally.marks)


#: Texts a warm walk may judge one by one before it judges them all in one batch.
_ALONE_MAX = 32


class _ManyUnjudged(Exception):
    """More texts new to the memo than are worth judging one by one."""


def _redact_with_memo(
    data: Any,
    ctx: PrivacyContext,
    memo: ScanMemo,
    omit: frozenset[str],
    max_chars: int,
    known: KnownClean | None,
    objects: KnownObjects | None = None,
) -> Redacted:
    """:func:`redact_payload` with a long-lived process's verdicts.

    Each verdict (clean, quiet) is the text's own, whether it was judged alone or
    among others: the batch judgement only saves work, and at worst leaves a
    text to be scanned alone (see :func:`~.clean.clean_texts`). So a warm
    request walks at once and judges the few texts new to the memo (a fresh
    plan id, an edited line) one by one; when there are many (the first
    request, a large new change), it starts again and judges them all together.
    """
    judged = memo.under(ctx)
    unjudged = 0

    def judge(text: str) -> None:
        nonlocal unjudged
        unjudged += 1
        if unjudged > _ALONE_MAX:
            raise _ManyUnjudged
        found = clean_texts([text], known)
        if objects is not None and text not in found:
            objects.prefetch([text])
        judged.add([text], found, quiet_texts((collapse_whitespace(t) for t in found), ctx))

    for batch in (False, True):
        if batch:
            seen = judged.seen
            new = [t for t in dict.fromkeys(texts_of(data)) if t not in seen]
            found = clean_texts(new, known)
            if objects is not None:
                objects.prefetch(t for t in new if t not in found)
            judged.add(new, found, quiet_texts((collapse_whitespace(t) for t in found), ctx))
        tally = _Tally()
        walker = _Walker(
            ctx,
            omit,
            max_chars,
            tally,
            clean=judged.clean,
            quiet=judged.quiet,
            memo=judged.scans,
            plain=judged.plain_for(max_chars),
            seen=judged.seen,
            judge=None if batch else judge,
            objects=objects,
        )
        try:
            value = walker.walk(data, None, None)
        except _ManyUnjudged:
            continue
        return Redacted(value, tally.counts(), tally.marks)
    raise AssertionError("unreachable: the batch walk judges every text first")


# Where a walk stands: (parent trail, key or index), spelled out as a dotted
# path only when a mark needs it (most strings of a payload get none).
Trail = tuple[Any, str | int] | None


def _dotted(trail: Trail) -> str:
    keys: list[str] = []
    while trail is not None:
        trail, key = trail
        keys.append(str(key))
    path = ""
    for key in reversed(keys):
        path = join_key(path, key)
    return path


class _Walker:
    __slots__ = (
        "clean",
        "ctx",
        "judge",
        "keys",
        "max_chars",
        "memo",
        "objects",
        "omit",
        "plain",
        "plain_keys",
        "quiet",
        "seen",
        "tally",
    )

    def __init__(
        self,
        ctx: PrivacyContext,
        omit: frozenset[str],
        max_chars: int,
        tally: _Tally,
        *,
        clean: AbstractSet[str] = frozenset(),
        quiet: AbstractSet[str] = frozenset(),
        memo: dict[tuple[str, int], _Scan] | None = None,
        plain: dict[str, str] | None = None,
        seen: AbstractSet[str] = frozenset(),
        judge: Callable[[str], None] | None = None,
        objects: KnownObjects | None = None,
    ) -> None:
        self.ctx = ctx
        self.objects = objects
        self.omit = omit
        self.max_chars = max_chars
        self.tally = tally
        self.clean = clean
        self.quiet = quiet
        self.memo: dict[tuple[str, int], _Scan] = memo if memo is not None else {}
        # Text → its redacted form, for texts nothing is counted or marked for
        # (most strings of a payload): one lookup, no trail spelled out.
        self.plain: dict[str, str] = plain if plain is not None else {}
        self.keys: dict[str, tuple[str, int, int]] = {}
        self.plain_keys: dict[str, str] = {}  # keys with no hits: their redacted form
        # With a memo: a text not yet in ``seen`` is judged (clean, quiet) first.
        self.seen = seen
        self.judge = judge

    def walk(self, node: Any, trail: Trail, raw: Trail) -> Any:
        """``trail`` leads to ``node`` by redacted keys (for marks), ``raw`` by the
        keys as given (for ``omit``)."""
        # Exact types first (a payload is plain JSON): the checks below decide
        # the same for them, only slower.
        kind = type(node)
        if kind is dict:
            return self._walk_mapping(node, trail, raw)
        if kind is list:
            return self._walk_list(node, trail, raw)
        if node is None or isinstance(node, bool | int | float):
            return node
        if isinstance(node, str):
            return self._string(node, trail)
        if isinstance(node, Mapping):
            return self._walk_mapping(node, trail, raw)
        if isinstance(node, list | tuple):
            return self._walk_list(node, trail, raw)
        if isinstance(node, set | frozenset):
            return self._walk_list(sorted(node, key=repr), trail, raw)
        return self.walk(plain_value(node), trail, raw)

    def _string(self, node: str, trail: Trail) -> str:
        done = self.plain.get(node)
        if done is not None:
            return done
        key = (node, self.max_chars)
        scan = self.memo.get(key)
        if scan is None:
            if self.judge is not None and node not in self.seen:
                self.judge(node)
            scan = _scan(node, self.ctx, self.max_chars, self.clean, self.quiet, self.objects)
            self.memo[key] = scan
        if scan.untouched:
            self.plain[node] = scan.text  # nothing to count or mark, now or next time
            return scan.text
        _count(scan, _dotted(trail), self.tally)
        return scan.text

    def _walk_list(self, node: Any, trail: Trail, raw: Trail) -> list[Any]:
        out: list[Any] = []
        plain = self.plain
        for i, v in enumerate(node):
            kind = type(v)
            if kind is str:
                done = plain.get(v)
                if done is not None:
                    out.append(done)
                    continue
            elif v is None or kind is int or kind is bool or kind is float:
                out.append(v)  # as walk returns them
                continue
            out.append(self.walk(v, (trail, i), (raw, i)))
        return out

    def _walk_mapping(self, node: Mapping[Any, Any], trail: Trail, raw: Trail) -> dict[str, Any]:
        out: dict[str, Any] = {}
        plain = self.plain
        plain_keys = self.plain_keys
        for raw_key, value in node.items():
            key = str(raw_key)
            # A payload repeats its keys in every item: most are known, with no hits.
            safe_key = plain_keys.get(key)
            if safe_key is None:
                safe_key = self._redact_key(key)
            if self.omit and (key in self.omit or _dotted((raw, key)) in self.omit):
                self.tally.marks[_dotted((trail, safe_key))] = "omitted"
                self.tally.omitted += 1
                continue
            if safe_key in out:  # two keys that redact alike must both survive
                n = 2
                while f"{safe_key}#{n}" in out:
                    n += 1
                safe_key = f"{safe_key}#{n}"
            if safe_key != key:
                self.tally.marks[_dotted((trail, safe_key))] = "redacted"
            kind = type(value)
            if kind is str:
                done = plain.get(value)
                if done is not None:
                    out[safe_key] = done
                    continue
            elif value is None or kind is int or kind is bool or kind is float:
                out[safe_key] = value  # as walk returns them
                continue
            out[safe_key] = self.walk(value, (trail, safe_key), (raw, key))
        return out

    def _redact_key(self, key: str) -> str:
        known = self.keys.get(key)
        if known is not None:  # a payload repeats its keys in every item
            safe, secret_hits, privacy_hits = known
            if secret_hits or privacy_hits:
                self.tally.secret_hits += secret_hits
                self.tally.privacy_hits += privacy_hits
            return safe
        if self.judge is not None and key not in self.seen:
            self.judge(key)
        sub = _Tally()
        # Keys are never summarized (a key is a name, not output).
        safe = _redact_string(
            key,
            self.ctx,
            max(len(key) * 4, 4096),
            "",
            sub,
            self.memo,
            self.clean,
            self.quiet,
            self.objects,
        )
        self.tally.secret_hits += sub.secret_hits
        self.tally.privacy_hits += sub.privacy_hits
        self.keys[key] = (safe, sub.secret_hits, sub.privacy_hits)
        if not (sub.secret_hits or sub.privacy_hits):
            self.plain_keys[key] = safe
        return safe
