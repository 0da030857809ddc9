"""The path contract: the one function every user-supplied path goes through.

Recovery overwrites files and memory records them, so a path from a user, an
agent or an MCP client is never used until :func:`canonicalize` has turned it
into a :class:`ProjectPath` or refused it with a :class:`PathRejected` naming
the rule (spec Appendix C, DESIGN §4.4). The stages run cheapest and most
certain first, and every stage before the last is pure:

1. *text*: empty, too long, undecodable, NUL, control characters and
   text-direction marks;
2. *anchor*: relative, POSIX or Windows absolute, UNC, device, WSL, URL, ``~``;
   absolute forms only for the trusted local CLI, converted after containment
   (symlinks in the prefix resolved first);
3. *names*: ``..`` in any disguise, ``.git``/``.vibflow`` (any case, 8.3
   alias, stream suffix), zero-width and other invisible characters (two
   names that look alike), Windows device names, streams, trailing dots and
   spaces, characters Windows cannot store, over-long names;
4. *filesystem* (:mod:`.resolve`): links followed inside the project only;
   the real location is checked by stage 3 again, so a link cannot smuggle a
   path into ``.git`` or ``node_modules``;
5. *policy*: generated/cache/build outputs (``paths.generated``).

Case-only collisions are not errors; :mod:`.review` marks them for the user.
"""

from __future__ import annotations

import contextlib
import functools
import getpass
import os
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vibflow.steps.paths import windows
from vibflow.steps.paths.policy import DEFAULT_POLICY, PathPolicy
from vibflow.steps.paths.resolve import ResolveError, Resolver
from vibflow.steps.paths.review import CaseIndex, join_reasons, selected_reason, tracked_reason
from vibflow.steps.paths.rules import PathRejected, PathRule, reject
from vibflow.steps.paths.windows import Form

if TYPE_CHECKING:
    from vibflow.steps.paths.section import PathsPolicy, path_policy

MAX_INPUT_CHARS = 8192  # refuse before doing any work on absurd input
MAX_NAME_BYTES = 255  # ext4, APFS and NTFS all stop at about 255 per name

DEFAULT = DEFAULT_POLICY

# The policy names are re-exported so callers need one import (the API lives here).
__all__ = [
    "DEFAULT",
    "DEFAULT_POLICY",
    "PathPolicy",
    "PathRejected",
    "PathRule",
    "PathsPolicy",
    "ProjectPath",
    "canonicalize",
    "canonicalize_many",
    "path_policy",
    "refusal",
    "restore_refusal",
]


@dataclass(frozen=True)
class ProjectPath:
    """A path proven to lie inside the project.

    ``absolute`` is for file operations only (the on-disk spelling, parents'
    links resolved); it is left out of ``repr``, ``str`` and :meth:`to_json`
    so it cannot reach an MCP response, the audit log or a message by
    accident. ``relative`` is POSIX and NFC: store it, compare it, show it.
    """

    absolute: Path = field(repr=False)
    relative: str
    display: str
    was_absolute_input: bool
    needs_review: bool = False
    review_reason: str | None = None
    #: A name on the way is decomposed on disk (``relative`` holds it composed, which
    #: on Linux is another file): what a restore must refuse.
    decomposed_on_disk: bool = False

    def __str__(self) -> str:
        return self.display

    def to_json(self) -> dict[str, object]:
        return {
            "relative_path": self.relative,
            "display_path": self.display,
            "was_absolute_input": self.was_absolute_input,
            "needs_review": self.needs_review,
            "review_reason": self.review_reason,
        }


def canonicalize(
    raw: str,
    root: Path,
    *,
    policy: PathPolicy = DEFAULT_POLICY,
    allow_absolute: bool = False,
    allow_generated: bool = False,
    existing: Iterable[str] | None = None,
) -> ProjectPath:
    """Check ``raw`` against every rule and place it inside ``root`` (the git work tree).

    ``allow_absolute`` is for the trusted local CLI only; MCP and agents pass
    project-relative paths. ``existing`` (the tracked paths) turns a
    case-only collision into ``needs_review``. Raises :class:`PathRejected`.
    """
    path = _Project(root).canonicalize(
        raw, policy=policy, allow_absolute=allow_absolute, allow_generated=allow_generated
    )
    if existing is None:
        return path
    return _flag(path, CaseIndex(existing).conflict(path.relative), tracked_reason)


def canonicalize_many(
    raws: Iterable[str],
    root: Path,
    *,
    policy: PathPolicy = DEFAULT_POLICY,
    allow_absolute: bool = False,
    allow_generated: bool = False,
    existing: Iterable[str] | None = None,
) -> list[ProjectPath]:
    """:func:`canonicalize` each of ``raws`` (same order and length), then mark
    case-only collisions among them and against ``existing`` for review.

    The first rejected path raises; nothing is returned for the others.
    """
    project = _Project(root)
    paths = [
        project.canonicalize(
            raw, policy=policy, allow_absolute=allow_absolute, allow_generated=allow_generated
        )
        for raw in raws
    ]
    tracked = CaseIndex(existing) if existing is not None else None
    selected = CaseIndex(p.relative for p in paths)
    out = []
    for path in paths:
        flagged = path
        if tracked is not None:
            flagged = _flag(flagged, tracked.conflict(path.relative), tracked_reason)
        out.append(_flag(flagged, selected.conflict(path.relative), selected_reason))
    return out


def _flag(path: ProjectPath, other: str | None, reason: Callable[[str], str]) -> ProjectPath:
    if other is None:
        return path
    return replace(
        path, needs_review=True, review_reason=join_reasons(path.review_reason, reason(other))
    )


#: Where ``\\`` can be part of a name (every system but Windows), a restore cannot
#: read it as the separator the rest of the contract takes it for.
_BACKSLASH_IS_A_LETTER = os.sep == "/"


def restore_refusal(raw: str) -> PathRejected | None:
    """The rule a name to *restore* breaks beyond :func:`canonicalize`'s: a decomposed
    (NFD) spelling, or a backslash where it is a letter of a name.

    The contract stores names composed, which finds ``café`` typed on Linux in a
    repository committed from a Mac, and reads ``\\`` as a folder separator, which
    finds ``src\\app.py`` an agent wrote Windows-style. A restore must write the
    very name git lists: on Linux ``café`` and ``cafe\u0301`` are two files, and so
    are ``a\\b.py`` and ``a/b.py``."""
    if _BACKSLASH_IS_A_LETTER and "\\" in raw:
        return reject(PathRule.BACKSLASH)
    if raw.isascii() or unicodedata.is_normalized("NFC", raw):
        return None
    return reject(PathRule.DECOMPOSED_FORM)


def refusal(raw: str, *, policy: PathPolicy = DEFAULT_POLICY) -> PathRejected | None:
    """The rule a project-relative path (as git lists a changed file) breaks before the
    filesystem is consulted — the text, name, length and generated rules, as
    :func:`canonicalize` applies them to a relative path — or ``None``.

    For a caller that must know up front which names a restore would refuse (the
    recovery plan leaves them out of its options), without paying the
    filesystem stage for every changed file. ``None`` is not an acceptance:
    :func:`canonicalize` still decides when the path is used.
    """
    if _PLAIN.fullmatch(raw) and not _plain_flagged(raw, policy):
        return None  # nearly every path: no rule can apply, known without the stages
    try:
        text = _screen(raw)
        parsed = windows.parse(text)
        if parsed.form is not Form.RELATIVE:
            return reject(_NEVER.get(parsed.form, PathRule.ABSOLUTE_NOT_ALLOWED))
        _check_names(parsed.parts, echo=True)
        parts = tuple(_nfc(p) for p in parsed.parts if p not in {"", "."})
        if not parts:
            return reject(PathRule.PROJECT_ITSELF)
        if len("/".join(parts).encode("utf-8")) > policy.max_path_bytes:
            return reject(PathRule.TOO_LONG)
        hit = policy.generated_match(parts, final_is_dir=text.endswith("/"))
        if hit is not None:
            return reject(PathRule.GENERATED, hit, private=_private())
    except PathRejected as exc:
        return exc
    return None


#: A path no text or name rule can refuse but for the few :func:`_plain_flagged` checks:
#: ASCII letters, digits and ``_+@-``, inner dots and spaces, an optional leading dot —
#: nothing that encodes, escapes, anchors, streams or hides (no ``%``, ``~``, ``:``, ``\``).
_PLAIN = re.compile(
    r"(?:\.?[A-Za-z0-9_+@-](?:[A-Za-z0-9_+@ .-]*[A-Za-z0-9_+@-])?)"
    r"(?:/\.?[A-Za-z0-9_+@-](?:[A-Za-z0-9_+@ .-]*[A-Za-z0-9_+@-])?)*"
)


#: In a :data:`_PLAIN` path: a device name (``con``, ``aux.c``, ``com1 .txt``) or git's or
#: vibflow's own folder — the name rules :data:`_PLAIN` lets through.
_PLAIN_RISKY = re.compile(
    r"(?:^|/)(?:\.git|\.vibflow|(?:con|prn|aux|nul|com[0-9]|lpt[0-9]) *(?:\.[^/]*)?)(?:/|$)",
    re.IGNORECASE,
)


def _plain_flagged(path: str, policy: PathPolicy) -> bool:
    """Whether a :data:`_PLAIN` path may still break a rule: a device name, git's or
    vibflow's folder, a length limit, a generated name."""
    if len(path) > min(policy.max_path_bytes, MAX_NAME_BYTES) or _PLAIN_RISKY.search(path):
        return True  # (a long path may hold a long name: the stages decide)
    if not policy.generated:
        return False
    return policy.generated_match(path.split("/"), final_is_dir=False) is not None


# --- the stages ---------------------------------------------------------------------------

#: Anchors no project path ever has, whoever gives it.
_NEVER = {
    Form.DEVICE: PathRule.DEVICE_NAMESPACE,
    Form.UNC: PathRule.UNC,
    Form.URL: PathRule.URL,
    Form.HOME: PathRule.HOME_RELATIVE,
    Form.DRIVE_RELATIVE: PathRule.WINDOWS_DRIVE,
}


class _Project:
    """One project folder, resolved once for a batch of paths."""

    def __init__(self, root: Path) -> None:
        given = str(Path(root).absolute())
        self.real = os.path.realpath(given)
        self.spellings = [_parts(self.real), _parts(given)]
        self.resolver = Resolver(self.real, aliases=[given])

    def canonicalize(
        self, raw: str, *, policy: PathPolicy, allow_absolute: bool, allow_generated: bool
    ) -> ProjectPath:
        text = _screen(raw)
        parsed = windows.parse(text)
        was_absolute = parsed.form is not Form.RELATIVE
        typed = parsed.parts if not was_absolute else self._anchor(parsed, allow_absolute)
        # Names of an absolute input are never quoted: they came with the
        # user's folders around them.
        echo = not was_absolute
        _check_names(typed, echo=echo)
        parts = [p for p in typed if p not in {"", "."}]
        if not parts:
            raise reject(PathRule.PROJECT_ITSELF)
        if len("/".join(parts).encode("utf-8")) > policy.max_path_bytes:
            raise reject(PathRule.TOO_LONG)

        try:
            found = self.resolver.resolve(parts)
        except ResolveError as exc:
            raise reject(exc.rule) from None
        on_disk = (*found.parent, found.name)
        relative = tuple(_nfc(p) for p in on_disk)
        target = tuple(_nfc(p) for p in found.target)
        _check_names(relative, echo=echo)
        _check_names(target, echo=False)  # a link's target: a name the user never typed
        if not target:
            raise reject(PathRule.PROJECT_ITSELF)
        if not allow_generated:
            final_is_dir = found.target_is_dir or text.endswith("/")
            for names, shown in ((relative, echo), (target, False)):
                hit = policy.generated_match(names, final_is_dir=final_is_dir)
                if hit is not None:
                    raise reject(PathRule.GENERATED, hit if shown else None, private=_private())
        stored = "/".join(relative)
        # After every normalization, the result still has to be plainly relative.
        if stored.startswith("/") or ".." in relative:
            raise reject(PathRule.TRAVERSAL)
        return ProjectPath(
            absolute=Path(self.real, *found.parent, found.name),
            relative=stored,
            display=stored,
            was_absolute_input=was_absolute,
            needs_review=bool(found.notes),
            review_reason=join_reasons(*found.notes),
            decomposed_on_disk=relative != on_disk,
        )

    def _anchor(self, parsed: windows.Parsed, allow_absolute: bool) -> tuple[str, ...]:
        """The names inside the project of an absolute input, or a rejection."""
        if parsed.form in _NEVER:
            raise reject(_NEVER[parsed.form])
        if not allow_absolute:
            raise reject(PathRule.ABSOLUTE_NOT_ALLOWED)
        if any(windows.is_dot_run(p) for p in parsed.parts):
            raise reject(PathRule.TRAVERSAL)
        names = [p for p in parsed.parts if p not in {"", "."}]
        fold_case = False
        if parsed.form is Form.DRIVE_ABSOLUTE:
            if windows.mounted_drive(self.real) is None:
                raise reject(PathRule.WINDOWS_DRIVE)
            names = ["mnt", parsed.drive, *names]
            fold_case, outside = True, PathRule.OUT_OF_ROOT
        elif parsed.form is Form.WSL:
            here = os.environ.get("WSL_DISTRO_NAME")
            if not parsed.distro or (here and here.casefold() != parsed.distro.casefold()):
                raise reject(PathRule.WSL_FOREIGN)
            outside = PathRule.WSL_FOREIGN
        else:
            mounted = windows.mounted_drive("/" + "/".join(names))
            outside = PathRule.WSL_FOREIGN if mounted else PathRule.OUT_OF_ROOT
        inside = self._strip(names, fold_case)
        if inside is None and names:
            # Resolve symlinks before containment: /work/link-to-project/a.py is inside.
            real_parent = _parts(os.path.realpath("/" + "/".join(names[:-1])))
            inside = self._strip([*real_parent, names[-1]], fold_case)
        if inside is None:
            raise reject(outside)
        return tuple(inside)

    def _strip(self, names: Sequence[str], fold_case: bool) -> list[str] | None:
        key: Callable[[str], str] = (lambda s: _nfc(s).casefold()) if fold_case else _nfc
        for spelling in self.spellings:
            n = len(spelling)
            if len(names) >= n and [key(p) for p in names[:n]] == [key(p) for p in spelling]:
                return list(names[n:])
        return None


def _screen(raw: str) -> str:
    """Text-level rules; returns NFC text with ``/`` separators."""
    text = raw.removeprefix("\ufeff")  # a Windows editor's BOM, not part of the name
    if not text.strip():
        raise reject(PathRule.EMPTY)
    if len(text) > MAX_INPUT_CHARS:
        raise reject(PathRule.TOO_LONG)
    if windows.has_surrogate(text):
        raise reject(PathRule.INVALID_ENCODING)
    if "\x00" in text:
        raise reject(PathRule.NUL_BYTE)
    if windows.first_invisible(text) is not None:
        raise reject(PathRule.CONTROL_CHAR)
    return _nfc(text).replace("\\", "/")


_NAME_RULES: tuple[tuple[PathRule, Callable[[str], bool]], ...] = (
    (PathRule.TRAVERSAL, windows.is_dot_run),
    (PathRule.VCS_DIR, windows.is_git_dir),
    (PathRule.VIBFLOW_DIR, windows.is_vibflow_dir),
    # After the folder rules: ".g\u200cit" is first of all git's own folder.
    (PathRule.INVISIBLE_CHARACTER, windows.has_invisible),
    (PathRule.RESERVED_NAME, windows.is_reserved),
    (PathRule.ALTERNATE_DATA_STREAM, windows.has_stream),
    (PathRule.TRAILING_DOT_OR_SPACE, windows.has_trailing_dot_or_space),
    (PathRule.INVALID_CHARACTER, windows.has_invalid_char),
    (PathRule.TOO_LONG, lambda name: len(name.encode("utf-8")) > MAX_NAME_BYTES),
)


def _check_names(names: Sequence[str], *, echo: bool) -> None:
    """Stage 3: the most serious rule any name breaks wins, wherever it sits."""
    present = [n for n in names if n not in {"", "."}]
    if present[:1] == ["~"]:
        # Reached only from an absolute input or a link: a stored "~/x" would
        # read as the home folder the next time it is canonicalized.
        raise reject(PathRule.HOME_RELATIVE)
    if any(not n.strip() for n in present):
        raise reject(PathRule.EMPTY)  # a blank name (spaces, NBSP) is invisible in a listing
    verdicts = [_name_verdict(name) for name in present]
    if verdicts.count(None) == len(verdicts):
        return  # every name is fine (nearly always)
    for rank, (rule, _) in enumerate(_NAME_RULES):
        for name, worst in zip(present, verdicts, strict=True):
            if worst == rank:
                raise reject(rule, name if echo else None, private=_private())


@functools.lru_cache(maxsize=8192)
def _name_verdict(name: str) -> int | None:
    """The index in ``_NAME_RULES`` of the most serious rule ``name`` breaks (a pure
    function of the name, and folder names repeat across a restore's paths)."""
    return next((i for i, (_, broken) in enumerate(_NAME_RULES) if broken(name)), None)


@functools.cache
def _private() -> tuple[str, ...]:
    """Words a quoted name must not contain: the username and home folder's name."""
    words: list[str] = []
    with contextlib.suppress(OSError, KeyError, ImportError):
        words.append(getpass.getuser())
    with contextlib.suppress(OSError, KeyError, RuntimeError):
        words.append(Path.home().name)
    return tuple(w for w in dict.fromkeys(words) if len(w) >= 3)


def _nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def _parts(path: str) -> list[str]:
    return [_nfc(p) for p in path.replace(os.sep, "/").split("/") if p not in {"", "."}]


def __getattr__(name: str) -> Any:
    # The policy section's pydantic model, imported on first use (see .policy).
    if name in {"PathsPolicy", "path_policy"}:
        from vibflow.steps.paths import section

        return getattr(section, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
