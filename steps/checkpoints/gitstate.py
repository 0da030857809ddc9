"""What the checkpoint store reads of git's state without asking git to do work.

The store decides whether a snapshot can be reused from cheap facts: the
index file's identity (``signature``) and entry count (read from its header),
where shared refs live in a linked worktree, and the one ``status`` listing it
asks for (parsed here). Pure reading and parsing; nothing here writes.
"""

from __future__ import annotations

import os
import re
import struct
from pathlib import Path


def common_dir(git_dir: Path) -> Path:
    """Where shared refs live: a linked worktree's git dir names it in ``commondir``."""
    try:
        common = (git_dir / "commondir").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return git_dir
    return (git_dir / common).resolve()


def signature(index: Path) -> list[int] | None:
    try:
        st = index.stat()
    except FileNotFoundError:
        return None
    return [st.st_mtime_ns, st.st_size, st.st_ino]


def parse_status(out: bytes) -> tuple[str | None, bool, list[str]]:
    """HEAD, whether the work tree equals the index, and the untracked names
    from ``status --porcelain=v2 -z --branch`` (one parser: :func:`read_status`)."""
    status = read_status(out)
    return status.head, status.clean, status.untracked


#: The one ``status`` both checkpoint paths ask of the private snapshot index
#: (with ``GIT_INDEX_FILE``); :func:`status_args` puts the untracked cache in front.
STATUS_ARGS = (
    "status",
    "--porcelain=v2",
    "-z",
    "--branch",
    "--no-ahead-behind",  # only HEAD's id is wanted, never an upstream count
    "--untracked-files=all",
    "--no-renames",
    "--ignore-submodules=dirty",
)
#: git's untracked cache, switched on for that one call (``-c``: never the
#: user's config). git keeps it in *our* index as an extension and re-reads
#: only the folders whose mtime moved: ~12 ms of CPU less per turn on a
#: 20,000-file tree. ``status.showUntrackedFiles=all`` must agree with
#: ``--untracked-files=all``, or git 2.39 bypasses a cache built for "normal".
UNTRACKED_CACHE = ("-c", "core.untrackedCache=true", "-c", "status.showUntrackedFiles=all")
_CACHE_OFF = re.compile(rb"(?im)^\s*untrackedcache\s*=\s*(false|no|off|0)\s*(?:[#;].*)?$")


def status_args(git_dir: Path) -> tuple[str, ...]:
    """The status's arguments, with the untracked cache unless the user turned it
    off (``core.untrackedCache=false``: directory mtimes cannot be trusted on their
    file system, e.g. a network mount) in the repository's, their own or the
    system's git config file — read as text, as git's cache trusts exactly that."""
    home = Path(os.environ.get("HOME", "~")).expanduser()
    xdg = Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config")
    places = [
        common_dir(git_dir) / "config",
        git_dir / "config.worktree",
        Path(os.environ.get("GIT_CONFIG_GLOBAL") or home / ".gitconfig"),
        xdg / "git" / "config",
        Path(os.environ.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig"),
    ]
    for place in places:
        try:
            text = place.read_bytes()
        except OSError:
            continue
        if b"ntrackedcache" in text.lower() and _CACHE_OFF.search(text):
            return STATUS_ARGS
    return (*UNTRACKED_CACHE, *STATUS_ARGS)


def nul(paths: list[str]) -> bytes:
    return b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for p in paths)


def index_entries(index: Path) -> int:
    """Entry count from the index header ("DIRC", version, count): no git call."""
    try:
        with index.open("rb") as fh:
            head = fh.read(12)
    except OSError:
        return 0
    if len(head) < 12 or head[:4] != b"DIRC":
        return 0
    return int(struct.unpack(">I", head[8:12])[0])


class TreeStatus:
    """What ``status --porcelain=v2 -z --branch --untracked-files=all --no-renames``
    says of the work tree against an index: the files whose content no longer
    matches it (``changed``: modified, type changed, intent-to-add), the entries
    whose file is gone (``deleted``), the files it does not hold (``untracked``:
    not ignored; a nested repository as ``dir/``) and whether anything needs the
    full snapshot's care (``unusual``: an unmerged entry, a rename or copy, a
    submodule that moved).

    A plain class: building a dataclass costs about a millisecond at import, and
    the agent's turn hook imports this."""

    __slots__ = ("changed", "deleted", "head", "untracked", "unusual")

    def __init__(
        self,
        head: str | None,
        changed: list[str],
        deleted: list[str],
        untracked: list[str],
        unusual: bool,
    ) -> None:
        self.head = head
        self.changed = changed
        self.deleted = deleted
        self.untracked = untracked
        self.unusual = unusual

    @property
    def clean(self) -> bool:
        return not (self.changed or self.deleted or self.unusual)


def read_status(out: bytes) -> TreeStatus:
    head: str | None = None
    changed: list[str] = []
    deleted: list[str] = []
    untracked: list[str] = []
    unusual = False
    for record in out.split(b"\0"):
        if not record:
            continue
        kind = record[:2]
        if record.startswith(b"# branch.oid "):
            oid = record.removeprefix(b"# branch.oid ").decode("ascii", "replace")
            head = None if oid == "(initial)" else oid
        elif kind == b"? ":
            untracked.append(_name(record[2:]))
        elif kind == b"1 ":
            fields = record.split(b" ", 8)
            work = fields[1][1:2]  # the work-tree side of "XY"
            if work == b".":
                continue
            if len(fields) < 9 or not fields[2].startswith(b"N"):
                unusual = True  # a submodule: `add -u` decides what its entry becomes
            elif work == b"D":
                deleted.append(_name(fields[8]))
            elif work in (b"M", b"T", b"A"):
                changed.append(_name(fields[8]))
            else:
                unusual = True
        elif kind in (b"2 ", b"u "):
            unusual = True
    return TreeStatus(head, changed, deleted, untracked, unusual)


def _name(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")
