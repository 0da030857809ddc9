"""The named safety rules a user-supplied path can break, and the error that says so.

Every rejection carries one :class:`PathRule`, a stable identifier that a
caller can branch on and an MCP client can show. The message explains the
rule in plain language and never repeats the path a user typed: an absolute
path would leak the home folder, the username or the project's location, and
even a relative one may. At most it quotes the one offending *name* (``CON``,
``node_modules``) when that name is short, printable and not part of an
absolute input; :func:`reject` decides that, so no caller can get it wrong.
"""

from __future__ import annotations

import enum
import unicodedata
from collections.abc import Iterable

from vibflow.engine.errors import ErrorCode, VibflowError


class PathRule(enum.StrEnum):
    """Why a path was refused. Values are stable identifiers (never reused).

    No value contains the word a username or temp folder is likely to
    contain (the values are echoed in every message), hence
    ``outside_project`` rather than ``out_of_root``.
    """

    EMPTY = "empty"
    NUL_BYTE = "nul_byte"
    CONTROL_CHAR = "control_char"
    INVALID_ENCODING = "invalid_encoding"
    TOO_LONG = "too_long"
    URL = "url"
    HOME_RELATIVE = "home_relative"
    TRAVERSAL = "traversal"
    ABSOLUTE_NOT_ALLOWED = "absolute_not_allowed"
    PROJECT_ITSELF = "project_itself"
    OUT_OF_ROOT = "outside_project"
    SYMLINK_ESCAPE = "symlink_escape"
    SYMLINK_LOOP = "symlink_loop"
    WINDOWS_DRIVE = "windows_drive"
    UNC = "unc"
    DEVICE_NAMESPACE = "device_namespace"
    WSL_FOREIGN = "wsl_foreign"
    RESERVED_NAME = "reserved_name"
    TRAILING_DOT_OR_SPACE = "trailing_dot_or_space"
    ALTERNATE_DATA_STREAM = "alternate_data_stream"
    INVALID_CHARACTER = "invalid_character"
    INVISIBLE_CHARACTER = "invisible_character"
    VCS_DIR = "vcs_dir"
    VIBFLOW_DIR = "vibflow_dir"
    GENERATED = "generated"
    DECOMPOSED_FORM = "decomposed_form"
    BACKSLASH = "backslash"


#: Rules only a restore's paths are held to (:func:`~vibflow.steps.paths.contract.restore_refusal`),
#: never :func:`~vibflow.steps.paths.contract.canonicalize`.
RESTORE_ONLY = frozenset({PathRule.DECOMPOSED_FORM, PathRule.BACKSLASH})

_RELATIVE_HINT = "Give the path relative to the project folder, for example src/app.py."

# rule -> (what is wrong, what to do next). {name} is the quoted offending
# name when it is safe to show, else a generic noun phrase.
_TEXT: dict[PathRule, tuple[str, str]] = {
    PathRule.EMPTY: ("the path, or a name in it, is empty or blank", _RELATIVE_HINT),
    PathRule.NUL_BYTE: ("the path contains a NUL byte", _RELATIVE_HINT),
    PathRule.CONTROL_CHAR: (
        "the path contains a control character or an invisible text-direction mark",
        "Type the name again without invisible characters.",
    ),
    PathRule.INVALID_ENCODING: (
        "the path is not valid Unicode text",
        "Pass the name as UTF-8 text.",
    ),
    PathRule.TOO_LONG: (
        "the path or one of its names is too long to be stored safely on every platform",
        "Use a shorter path (each name at most 255 bytes).",
    ),
    PathRule.URL: ("a URL is not a file path", _RELATIVE_HINT),
    PathRule.HOME_RELATIVE: (
        "a path starting with ~ means a home folder, which is outside the project",
        _RELATIVE_HINT,
    ),
    PathRule.TRAVERSAL: (
        "'..' (the parent folder) is not allowed in a project path",
        "Name the file by its path inside the project, without '..'.",
    ),
    PathRule.ABSOLUTE_NOT_ALLOWED: ("absolute paths are not accepted here", _RELATIVE_HINT),
    PathRule.PROJECT_ITSELF: (
        "the path names the whole project, not a file or folder in it",
        "Name the files or folders you mean.",
    ),
    PathRule.OUT_OF_ROOT: ("the path is outside the project", "Only files inside it qualify."),
    PathRule.SYMLINK_ESCAPE: (
        "the path goes through a symbolic link that leads outside the project",
        "vibflow only reads and writes files that really live inside the project.",
    ),
    PathRule.SYMLINK_LOOP: (
        "the path goes through a symbolic link loop",
        "Fix or remove the looping link first.",
    ),
    PathRule.WINDOWS_DRIVE: (
        "a Windows drive path that does not map into this project",
        _RELATIVE_HINT,
    ),
    PathRule.UNC: ("a Windows network (UNC) path is never a project file", _RELATIVE_HINT),
    PathRule.DEVICE_NAMESPACE: (
        "a Windows device-namespace path (\\\\?\\ or \\\\.\\) is never accepted",
        _RELATIVE_HINT,
    ),
    PathRule.WSL_FOREIGN: (
        "a WSL or mounted Windows-drive path that does not lead into this project",
        _RELATIVE_HINT,
    ),
    PathRule.RESERVED_NAME: (
        "{name} uses a name Windows reserves for a device (CON, NUL, COM1, ...)",
        "Rename it; Windows cannot create or restore it.",
    ),
    PathRule.TRAILING_DOT_OR_SPACE: (
        "{name} ends with a dot or a space, which Windows silently drops",
        "Remove the trailing dot or space.",
    ),
    PathRule.ALTERNATE_DATA_STREAM: (
        "{name} contains ':', which addresses an NTFS alternate data stream",
        "Name the file itself, without ':'.",
    ),
    PathRule.INVALID_CHARACTER: (
        '{name} contains a character Windows cannot store (< > " | ? *)',
        "Name one file; wildcards are not expanded.",
    ),
    PathRule.INVISIBLE_CHARACTER: (
        "{name} contains an invisible character (a zero-width space or joiner, a "
        "filler, a variation selector ...), so it looks the same as a different name",
        "Type the name again without invisible characters.",
    ),
    PathRule.VCS_DIR: (
        "paths inside git's own .git folder are never touched",
        "Name a file of your project instead.",
    ),
    PathRule.VIBFLOW_DIR: (
        "paths inside .vibflow (vibflow's own state) are never touched",
        "Name a file of your project instead.",
    ),
    PathRule.GENERATED: (
        "{name} is a generated, cache or build output (policy paths.generated)",
        "Restore or record its sources instead, or list it under paths.allow in "
        ".vibflow/policy.yaml.",
    ),
    PathRule.DECOMPOSED_FORM: (
        "a name in the path is in decomposed Unicode form (NFD, as macOS writes names); "
        "vibflow keeps names composed (NFC), so it would restore a different file here",
        "Restore that file with git (git restore --source=COMMIT -- PATH).",
    ),
    PathRule.BACKSLASH: (
        "the path has a backslash, which is a folder separator on Windows and a letter "
        "of a name here, so vibflow cannot tell which file to restore",
        "Write folders with '/' (src/app.py); restore a name holding a backslash with git "
        "(git restore --source=COMMIT -- PATH).",
    ),
}

_MAX_SHOWN = 40


class PathRejected(VibflowError):
    """A user-supplied path broke :attr:`rule`; the message never shows the path."""

    def __init__(self, rule: PathRule, message: str, hint: str) -> None:
        self.rule = rule
        super().__init__(ErrorCode.BAD_INPUT, message, hint=hint)

    def to_json(self) -> dict[str, object]:
        data = super().to_json()
        data["rule"] = self.rule.value
        return data


def reject(rule: PathRule, name: str | None = None, *, private: Iterable[str] = ()) -> PathRejected:
    """Build the error for ``rule``, quoting ``name`` only when that is safe.

    ``name`` must be one path segment of a *relative* input; it is still left
    out when it is long, not printable, or contains any of ``private`` (the
    username, the home folder's name).
    """
    what, hint = _TEXT[rule]
    shown = _quotable(name, private)
    what = what.format(name=f"'{shown}'" if shown is not None else "a name in the path")
    return PathRejected(rule, f"path rejected ({rule.value}): {what}", hint)


def _quotable(name: str | None, private: Iterable[str]) -> str | None:
    if not name or len(name) > _MAX_SHOWN or "/" in name or "\\" in name:
        return None
    if any(unicodedata.category(ch)[0] in "CZ" and ch != " " for ch in name):
        return None
    folded = name.casefold()
    if any(word and word.casefold() in folded for word in private):
        return None
    return name
