"""What Windows, NTFS, WSL and HFS+ make of a path, as pure functions on strings.

A project is restored onto whatever filesystem the user has, and the same
project is reached from cmd, PowerShell, WSL and a GUI. So a name is judged the
way the *least forgiving* of them reads it: Windows drops trailing dots and
spaces, maps ``COM¹`` to a device, treats ``a:b`` as a stream and ``GIT~1`` as
an 8.3 alias of ``.git``; HFS+ ignores zero-width code points (git's
CVE-2014-9390). :func:`fold` applies all of that once, so every comparison
below is one string test.

Nothing here touches the filesystem.
"""

from __future__ import annotations

import enum
import re
import unicodedata
from dataclasses import dataclass
from urllib.parse import unquote

# Code points HFS+ ignores when comparing names (the list git checks in
# is_hfs_dotgit), so ".g\u200cit" opens ".git" on a Mac.
_IGNORABLE = frozenset(
    [0x200C, 0x200D, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x206A, 0x2070), 0xFEFF]
)
_IGNORABLE_TABLE: dict[int, None] = dict.fromkeys(_IGNORABLE)

# Invisible marks that reorder or hide text: a name containing one displays
# as something else (Trojan Source). Rejected outright, never just ignored.
_INVISIBLE = frozenset(
    [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A), 0xFEFF]
)

# Unicode's Default_Ignorable_Code_Point set (DerivedCoreProperties.txt): code
# points that render as nothing — zero-width spaces and joiners, word joiner,
# invisible operators, variation selectors, tag characters, Hangul fillers,
# the soft hyphen — plus the interlinear annotation controls, which hide text.
# A name holding one looks exactly like a different name ("a\u200b.py" and
# "a.py"), so it is refused rather than stored (UTS #39 excludes them from
# identifiers for the same reason).
_ZERO_WIDTH = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f"
    "\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)

# Windows device names (Microsoft's "Naming Files" list, plus the console
# aliases). Superscript digits (COM¹) arrive as plain digits through NFKC.
RESERVED_STEMS = frozenset(
    [
        "con",
        "prn",
        "aux",
        "nul",
        "conin$",
        "conout$",
        *(f"com{d}" for d in "0123456789"),
        *(f"lpt{d}" for d in "0123456789"),
    ]
)

# Characters NTFS cannot store in a name ("/" and "\" are separators and ":"
# has its own rule). "*" and "?" would also be read as wildcards.
WINDOWS_INVALID = frozenset('<>"|?*')

_GIT_SHORT = re.compile(r"git~[0-9]+")
_VIBFLOW_SHORT = re.compile(r"vibflo~[0-9]+")
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+://")
_DRIVE = re.compile(r"[A-Za-z]:")
_WSL_HOSTS = frozenset(["wsl$", "wsl.localhost"])
_MNT = re.compile(r"/mnt/([a-z])(?:/|$)")


def fold(name: str) -> str:
    """``name`` as the most forgiving filesystem compares it: NFKC, zero-width
    code points dropped, case folded."""
    return unicodedata.normalize("NFKC", name).translate(_IGNORABLE_TABLE).casefold()


def windows_base(name: str) -> str:
    """The name Windows actually opens: folded, stream suffix cut, trailing
    dots and spaces dropped."""
    return fold(name).split(":", 1)[0].rstrip(" .")


def is_dot_run(name: str) -> bool:
    """``..`` in any disguise: ``...``, ``.. ``, fullwidth dots (U+FF0E), the
    two-dot leader (U+2025), ``%2e%2e``. Windows reads each as the parent folder."""
    for candidate in (name, unquote(name)):
        folded = fold(candidate)
        if folded.count(".") >= 2 and not folded.strip(". "):
            return True
    return False


def is_reserved(name: str) -> bool:
    """``CON``, ``nul.txt``, ``COM¹``, ``aux .c``, ``LPT1.tar.gz`` ..."""
    stem = windows_base(name).split(".", 1)[0].rstrip(" ")
    return stem in RESERVED_STEMS


def is_git_dir(name: str) -> bool:
    """``.git`` in any case, with Windows' trailing dots/spaces or a stream
    suffix, through HFS+ ignorables, or as the 8.3 alias ``GIT~1``."""
    base = windows_base(name)
    return base == ".git" or _GIT_SHORT.fullmatch(base) is not None


def is_vibflow_dir(name: str) -> bool:
    """``.vibflow`` the same way (8.3 alias ``VIBFLO~1``)."""
    base = windows_base(name)
    return base == ".vibflow" or _VIBFLOW_SHORT.fullmatch(base) is not None


def has_trailing_dot_or_space(name: str) -> bool:
    return name.endswith((".", " "))


def has_invisible(name: str) -> bool:
    """A zero-width, filler or other default-ignorable code point (see ``_ZERO_WIDTH``)."""
    return _ZERO_WIDTH.search(name) is not None


def has_stream(name: str) -> bool:
    return ":" in name


def has_invalid_char(name: str) -> bool:
    return any(ch in WINDOWS_INVALID for ch in name)


def first_invisible(text: str) -> str | None:
    """The first control character or invisible direction mark in ``text``."""
    for ch in text:
        if ord(ch) in _INVISIBLE or unicodedata.category(ch) in {"Cc", "Zl", "Zp"}:
            return ch
    return None


def has_surrogate(text: str) -> bool:
    """Lone surrogates: undecodable bytes smuggled through ``surrogateescape``."""
    return any(0xD800 <= ord(ch) <= 0xDFFF for ch in text)


class Form(enum.Enum):
    """How a path string is anchored, before any filesystem is consulted."""

    RELATIVE = "relative"
    POSIX_ABSOLUTE = "posix_absolute"  # /home/x/proj/a.py, /mnt/c/proj/a.py
    DRIVE_ABSOLUTE = "drive_absolute"  # C:\proj\a.py, d:/proj/a.py
    DRIVE_RELATIVE = "drive_relative"  # C:a.py (relative to drive C's own cwd)
    UNC = "unc"  # \\server\share\a.py
    DEVICE = "device"  # \\?\C:\a.py, \\.\COM1, \??\C:\a.py
    WSL = "wsl"  # \\wsl$\Ubuntu\home\x\a.py, \\wsl.localhost\Ubuntu\...
    URL = "url"  # file:///etc/passwd, https://...
    HOME = "home"  # ~/a.py


@dataclass(frozen=True)
class Parsed:
    """A path split into its anchor and the raw segments after it.

    ``parts`` keep empty and ``.`` segments; the caller drops them after the
    traversal check has seen every segment as typed.
    """

    form: Form
    parts: tuple[str, ...]
    drive: str = ""
    distro: str = ""


def parse(text: str) -> Parsed:
    """Classify ``text`` (separators already ``/``) by its anchor."""
    if text.startswith(("//?/", "//./", "/??/")) or text in {"//?", "//."}:
        return Parsed(Form.DEVICE, ())
    if text.startswith("//") and not text.startswith("///"):
        host, _, rest = text[2:].partition("/")
        if host.casefold() in _WSL_HOSTS:
            distro, _, tail = rest.partition("/")
            return Parsed(Form.WSL, tuple(tail.split("/")), distro=distro)
        return Parsed(Form.UNC, ())
    if _DRIVE.match(text):
        if len(text) > 2 and text[2] == "/":
            return Parsed(Form.DRIVE_ABSOLUTE, tuple(text[3:].split("/")), drive=text[0].lower())
        return Parsed(Form.DRIVE_RELATIVE, (), drive=text[0].lower())
    if text.startswith("/"):
        return Parsed(Form.POSIX_ABSOLUTE, tuple(text.lstrip("/").split("/")))
    if _URL.match(text):
        return Parsed(Form.URL, ())
    parts = tuple(text.split("/"))
    if parts[0] == "~":
        return Parsed(Form.HOME, ())
    return Parsed(Form.RELATIVE, parts)


def drive_as_wsl(drive: str, parts: tuple[str, ...]) -> str:
    """``C:\\proj\\a`` as WSL mounts it: ``/mnt/c/proj/a``."""
    return "/".join(("", "mnt", drive, *parts))


def mounted_drive(posix: str) -> str | None:
    """The drive letter of a WSL ``/mnt/<x>/...`` path, else ``None``."""
    match = _MNT.match(posix)
    return match.group(1) if match else None
