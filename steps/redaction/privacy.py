"""The privacy filter: what identifies the user's machine is masked before it leaves.

Spec §7 item 3: local paths, usernames, internal hosts and private IPs. A path
under the project root becomes project-relative (``<root>/src/a.py`` ->
``src/a.py``), the home directory becomes ``~``, any other absolute local path
becomes ``[PATH]``; internal host names become ``[INTERNAL_HOST]``, RFC 1918,
loopback, link-local and CGNAT IPv4 and IPv6 ULA / link-local / loopback
addresses become ``[PRIVATE_IP]``, e-mail addresses ``[EMAIL]`` and the user's
own name ``[USER]``.

What counts as private here (the root, the home folder, names, hosts, the
folders at ``/``) is :class:`~.machine.PrivacyContext`; this module holds the
rules. "Local" is decided, not guessed from shape alone: an absolute POSIX path is
masked when its first segment is a well-known system or user root
(``/Users``, ``/home``, ``/tmp``, ``/var``, ``/mnt``, ...) or a directory that
really exists at ``/`` on this machine — so ``/api/v1/users`` in a log line
stays, while ``/work/build/out.log`` on a machine with ``/work`` does not.
Windows drive (``C:\\...``) and UNC (``\\\\server\\share``) paths are always local.

Every rule reports spans over the original text (merged and applied once, as
the secret pass does), and runs only on the lines a cheap literal gate finds
(:class:`~vibflow.steps.redaction.gates.Gate`), so the filter costs a few
tens of milliseconds per megabyte. The rules' expressions are compiled on
first use: a command whose texts hit no gate never compiles them.

:func:`contains_absolute_path` runs the same path rules without rewriting;
the contract's fail-closed check is built on it, so "the filter would mask it"
and "the check refuses it" can never disagree.
"""

from __future__ import annotations

import bisect
import functools
import ipaddress
import re
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from vibflow.steps.redaction.gates import Gate, lazy, lines_at, literals
from vibflow.steps.redaction.machine import GENERIC_NAMES, KNOWN_TOP_DIRS, PrivacyContext
from vibflow.steps.redaction.spans import Span, apply

__all__ = [
    "GENERIC_NAMES",
    "KNOWN_TOP_DIRS",
    "PUBLIC_PATHS",
    "PrivacyContext",
    "contains_absolute_path",
    "filter_privacy",
    "quiet_texts",
]

# Absolute paths that say nothing about the user or the project.
PUBLIC_PATHS = frozenset(
    {
        "/dev/null",
        "/dev/zero",
        "/dev/random",
        "/dev/urandom",
        "/dev/stdin",
        "/dev/stdout",
        "/dev/stderr",
        "/dev/tty",
        "/bin/sh",
        "/bin/bash",
        "/bin/zsh",
        "/bin/dash",
        "/usr/bin/env",
        "/usr/bin/python",
        "/usr/bin/python3",
        "/usr/bin/bash",
        "/usr/bin/sh",
        "/usr/bin/git",
        "/usr/bin",
        "/usr/local/bin",
        "/bin",
        "/usr/local",
        "/usr",
        "/tmp",  # noqa: S108 -- a path we leave unmasked, not one we use
        "/etc/hosts",
    }
)
INTERNAL_SUFFIXES = ("internal", "local", "localdomain", "corp", "lan", "intranet", "intra")
# `threading.local()` and friends: a code receiver in front of ".local".
_CODE_RECEIVERS = frozenset(
    {
        "self",
        "this",
        "cls",
        "threading",
        "ctx",
        "context",
        "request",
        "req",
        "app",
        "g",
        "settings",
        "config",
        "env",
        "os",
        "window",
        "document",
        "process",
        "module",
        "exports",
        "super",
    }
)
_SEG_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._@+~%-$#!=&")

# Where a path may start: not inside a word, a relative path or a URL.
_PATH_START = r"(?:(?<=file://)|(?<![\w.~/\\-]))"
_SEG = r"[^\s\"'`<>|:;,()\[\]{}*?\\/]"
_POSIX_PATH = lazy(_PATH_START + r"/(" + _SEG + r"+)(?:/" + _SEG + r"*)*")
_WINDOWS_PATH = lazy(r"(?<![A-Za-z0-9])[A-Za-z]:(?:\\\\|\\|/)[^\s\"'`<>|*?]*")
_UNC_PATH = lazy(r"(?<![\w\\])\\\\[A-Za-z0-9._$-]+\\[^\s\"'`<>|*?]+")
_EMAIL = lazy(
    r"(?<![\w.+%-])([A-Za-z0-9._%+-]{1,64})@"
    r"([A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*\.[A-Za-z]{2,})(?![\w-])"
)
_URL_BARE_HOST = lazy(
    r"(?i)\b((?:https?|wss?|ftps?|sftp|ssh|git|postgres(?:ql)?|mysql|mariadb|rediss?|amqps?"
    r"|mongodb(?:\+srv)?|ldaps?|smb|nfs)://(?:[^\s/@]{1,256}@|(?![^\s/@]{0,256}@)))"
    r"([A-Za-z][A-Za-z0-9_-]{0,62})(?=[:/?#\"'`<>)\],;\s]|$)"
)
_INTERNAL_HOST = lazy(
    r"(?i)(?<![\w.-])((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+"
    r"(?:" + "|".join(INTERNAL_SUFFIXES) + r"|home\.arpa))(?![\w-]|\.[a-z0-9]|\(|\[)"
)
_IPV4 = lazy(r"(?<![\w.])(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?!\w|\.\d)")
_VERSION_BEFORE = lazy(r"(?i)(?:version|release|build|v)[\s:=]*$")
_IPV6 = lazy(
    r"(?i)(?<![\w:.])(?:(?:f[cd][0-9a-f]{2}|fe[89ab][0-9a-f])(?::[0-9a-f]{0,4}){1,7}"
    r"(?:%[\w.-]+)?|::1)(?![\w:.])"
)

PATH = "[PATH]"
PRIVATE_IP = "[PRIVATE_IP]"
INTERNAL_HOST = "[INTERNAL_HOST]"
EMAIL = "[EMAIL]"
USER = "[USER]"


# --- compiled per context --------------------------------------------------------


class _Compiled(NamedTuple):
    prefixes: re.Pattern[str] | None  # root and home spellings, literal-first
    root_forms: frozenset[str]
    posix_gate: Gate
    words: re.Pattern[str] | None  # user names and machine host names


@functools.lru_cache(maxsize=32)
def _compiled(ctx: PrivacyContext) -> _Compiled:
    forms = sorted(set(ctx.roots) | set(ctx.homes), key=lambda f: (-len(f), f))
    windows = any(":" in f[:3] for f in forms)
    prefixes = None
    if forms:
        alternatives = "|".join(re.escape(f) for f in forms)
        prefixes = re.compile(
            r"(?:" + alternatives + r")(?P<sep>\\\\|[/\\])?", re.IGNORECASE if windows else 0
        )
    words = sorted(set(ctx.names) | set(ctx.hosts), key=lambda w: (-len(w), w))
    dirs = "|".join(re.escape(d) for d in sorted(ctx.top_dirs, key=lambda d: (-len(d), d)))
    return _Compiled(
        prefixes=prefixes,
        root_forms=frozenset(f.lower() if windows else f for f in ctx.roots),
        posix_gate=Gate(r"/(?:" + dirs + r")"),
        words=re.compile(r"(?:" + "|".join(re.escape(w) for w in words) + r")(?![\w-])")
        if words
        else None,
    )


# --- the filter ----------------------------------------------------------------------

_PATH_BEFORE = frozenset("._~/\\-")
_WINDOWS_GATE = Gate(r"[A-Za-z]:[\\/]")
_UNC_GATE = Gate(r"\\\\")
_EMAIL_GATE = Gate("@")
_URL_GATE = Gate("://")
_INTERNAL_GATE = literals(*(f".{s}" for s in INTERNAL_SUFFIXES), ".home.arpa")
_IPV4_GATE = Gate(r"(?:10|127|172|192|169|100)\.\d")
_IPV6_GATE = Gate(r"::|[fF][cCdDeE][0-9a-fA-F]{1,2}:")
_RANK_PREFIX, _RANK_PATH, _RANK_OTHER = 0, 1, 2


def _path_may_start(text: str, pos: int) -> bool:
    """Not inside a word, a relative path or a URL (``file://`` excepted)."""
    if pos == 0:
        return True
    before = text[pos - 1]
    return not (before.isalnum() or before in _PATH_BEFORE) or text.endswith("file://", 0, pos)


def _gated(
    text: str, low: str | None, gate: Gate, pattern: Callable[[], re.Pattern[str]]
) -> Iterator[tuple[int, re.Match[str]]]:
    """(line offset, match) for ``pattern`` on the lines ``gate`` finds (compiled
    only when there is such a line)."""
    lines: dict[int, str] = {}
    lines_at(text, gate.starts(text, low), lines)
    for base, line in lines.items():
        for m in pattern().finditer(line):
            yield base, m


def _prefix_spans(text: str, compiled: _Compiled) -> list[Span]:
    """The project root becomes relative ("" / "."), the home directory "~"."""
    if compiled.prefixes is None:
        return []
    out = []
    windows = compiled.prefixes.flags & re.IGNORECASE
    for m in compiled.prefixes.finditer(text):
        if not _path_may_start(text, m.start()):
            continue
        body = m.group(0)[: len(m.group(0)) - len(m.group("sep") or "")]
        is_root = (body.lower() if windows else body) in compiled.root_forms
        sep = m.group("sep")
        if sep:
            replacement = "" if is_root else "~" + sep
        else:
            nxt = text[m.end() : m.end() + 1]
            if nxt and nxt in _SEG_CHARS:
                continue  # "/work/main2" is not under the root "/work/main"
            replacement = "." if is_root else "~"
        out.append(Span(m.start(), m.end(), replacement, _RANK_PREFIX))
    return out


def _path_spans(text: str, low: str | None, ctx: PrivacyContext) -> list[Span]:
    compiled = _compiled(ctx)
    out = _prefix_spans(text, compiled)
    taken = {sp.start for sp in out}
    for gate, pattern in ((_WINDOWS_GATE, _WINDOWS_PATH), (_UNC_GATE, _UNC_PATH)):
        for base, m in _gated(text, low, gate, pattern):
            if base + m.start() not in taken:
                out.append(Span(base + m.start(), base + m.end(), PATH, _RANK_PATH))
    for base, m in _gated(text, low, compiled.posix_gate, _POSIX_PATH):
        start = base + m.start()
        if start in taken or m.group(1) not in ctx.top_dirs:
            continue
        path = m.group(0)
        core = path.rstrip(".")
        if core.rstrip("/") in PUBLIC_PATHS or core in PUBLIC_PATHS:
            continue
        out.append(Span(start, start + len(core), PATH, _RANK_PATH))
    return out


def _address_spans(text: str, low: str | None) -> Iterator[Span]:
    for base, m in _gated(text, low, _EMAIL_GATE, _EMAIL):
        if m.group(1).lower() != "git":
            yield Span(base + m.start(), base + m.end(), EMAIL, _RANK_OTHER)
    for base, m in _gated(text, low, _URL_GATE, _URL_BARE_HOST):
        if m.group(2).lower() != "localhost":
            yield Span(base + m.start(2), base + m.end(2), INTERNAL_HOST, _RANK_OTHER)
    for base, m in _gated(text, low, _INTERNAL_GATE, _INTERNAL_HOST):
        if m.group(1).split(".", 1)[0] not in _CODE_RECEIVERS:
            yield Span(base + m.start(), base + m.end(), INTERNAL_HOST, _RANK_OTHER)
    for base, m in _gated(text, low, _IPV4_GATE, _IPV4):
        if _private_ipv4(m):
            yield Span(base + m.start(), base + m.end(), PRIVATE_IP, _RANK_OTHER)
    for base, m in _gated(text, low, _IPV6_GATE, _IPV6):
        if _private_ipv6(m.group(0)):
            yield Span(base + m.start(), base + m.end(), PRIVATE_IP, _RANK_OTHER)


def _word_spans(text: str, ctx: PrivacyContext) -> Iterator[Span]:
    """The user's name and the machine's host name, as whole words."""
    words = _compiled(ctx).words
    if words is not None:
        names = set(ctx.names)
        for m in words.finditer(text):
            before = text[m.start() - 1] if m.start() else ""
            if before and (before.isalnum() or before in "_.-"):
                continue
            replacement = USER if m.group(0) in names else INTERNAL_HOST
            yield Span(m.start(), m.end(), replacement, _RANK_OTHER)


def _private_ipv4(m: re.Match[str]) -> bool:
    o = [int(g) for g in m.groups()]
    if any(x > 255 for x in o):
        return False
    private = (
        o[0] in (10, 127)
        or (o[0] == 172 and 16 <= o[1] <= 31)
        or (o[0] == 192 and o[1] == 168)
        or (o[0] == 169 and o[1] == 254)
        or (o[0] == 100 and 64 <= o[1] <= 127)
    )
    return private and not _VERSION_BEFORE().search(m.string, max(0, m.start() - 16), m.start())


_ULA = ipaddress.IPv6Network("fc00::/7")


def _private_ipv6(text: str) -> bool:
    try:
        addr = ipaddress.IPv6Address(text.split("%", 1)[0])
    except ValueError:
        return False
    return addr.is_loopback or addr.is_link_local or addr in _ULA


def _lowered(text: str) -> str | None:
    return text.lower() if text.isascii() else None


def filter_privacy(text: str, ctx: PrivacyContext) -> tuple[str, int]:
    """``text`` with private paths, names, hosts and addresses masked, and the mask count."""
    low = _lowered(text)
    spans = _path_spans(text, low, ctx)
    spans.extend(_address_spans(text, low))
    spans.extend(_word_spans(text, ctx))
    return apply(text, spans)


def quiet_texts(texts: Iterable[str], ctx: PrivacyContext) -> frozenset[str]:
    """The single-line ``texts`` :func:`filter_privacy` would return unchanged, found
    with one search of all of them as the lines of one document.

    Every rule either searches for a spelling that holds no line break (the
    project root, the home folder, user and host names) or looks only at the
    lines its gate finds, so a text without a single such hit on its line has
    none alone. A text with any hit is left to be filtered by itself.
    """
    lines = [t for t in dict.fromkeys(texts) if t and "\n" not in t]
    spellings = (*ctx.roots, *ctx.homes, *ctx.names, *ctx.hosts)
    if not lines or any("\n" in s for s in spellings):
        return frozenset()
    compiled = _compiled(ctx)
    doc = "\n".join(lines)
    low = _lowered(doc)
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    searches: list[Iterable[int]] = [
        gate.starts(doc, low)
        for gate in (
            _WINDOWS_GATE,
            _UNC_GATE,
            compiled.posix_gate,
            _EMAIL_GATE,
            _URL_GATE,
            _INTERNAL_GATE,
            _IPV4_GATE,
            _IPV6_GATE,
        )
    ]
    for pattern in (compiled.prefixes, compiled.words):
        if pattern is not None:
            searches.append(m.start() for m in pattern.finditer(doc))
    touched = {bisect.bisect_right(starts, pos) - 1 for search in searches for pos in search}
    return frozenset(line for i, line in enumerate(lines) if i not in touched)


def contains_absolute_path(text: str, ctx: PrivacyContext) -> bool:
    """True when ``text`` holds an absolute local path the filter would rewrite."""
    return bool(_path_spans(text, _lowered(text), ctx))
