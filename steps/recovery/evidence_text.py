"""The changed files' text, now and at HEAD, for the zone's evidence — bounded,
read-only.

Every rule that reads a changed file reads its first ``reference_bytes`` (binary
files skipped) through one :class:`Reader` per plan, so a file is read once
however many rules and closure hops ask; HEAD's side of the files a rule needs
comes from one ``git cat-file --batch`` per batch of files not read yet.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from vibflow.engine.errors import VibflowError
from vibflow.steps.recovery import shared_names
from vibflow.steps.recovery.git_memo import Pinned
from vibflow.steps.recovery.models import ChangedFile
from vibflow.steps.workspace.git import Git

#: Explicit (or in-scope) files read as sources of references.
SEEDS_MAX = 200
#: A file with a NUL byte in this many first bytes is binary, not text.
_BINARY_PROBE = 1024
_DOC_EXT = (".md", ".mdx", ".markdown", ".rst", ".adoc", ".asciidoc")


def is_doc_page(path: str) -> bool:
    """Prose for readers: Markdown, reST, AsciiDoc anywhere; plain text in a docs
    folder (a ``.txt`` elsewhere is as likely a template or data)."""
    lower = path.lower()
    if lower.endswith(_DOC_EXT):
        return True
    return lower.endswith(".txt") and any(d in ("docs", "doc") for d in lower.split("/")[:-1])


def read_text(path: Path | str, limit: int, known: bytes | None = None) -> str | None:
    """The first ``limit`` bytes of a regular file as text (``known``: the file's
    bytes, already read whole); None for binary or unreadable."""
    if known is not None:
        data = known[:limit]
    else:
        try:
            with open(path, "rb") as fh:  # noqa: PTH123 - a bounded read
                data = fh.read(limit)
        except OSError:
            return None
    if b"\0" in data[:_BINARY_PROBE]:
        return None
    return data.decode("utf-8", "replace")


def at_head(git: Git, paths: Sequence[str], limit: int, commit: str = "HEAD") -> dict[str, str]:
    """HEAD's (or ``commit``'s) text of ``paths`` (:func:`head_blobs`); absent ones,
    binary ones and folders are left out, and a git that cannot answer gives none."""
    try:
        held = head_blobs(git, paths, max(limit, _BINARY_PROBE), None, commit)
    except VibflowError:
        return {}
    return {
        path: data[:limit].decode("utf-8", "replace")
        for path, data in held.items()
        if data is not None and b"\0" not in data[:_BINARY_PROBE]
    }


def _batch_answers(raw: bytes, asked: Sequence[str]) -> list[tuple[str, bytes, bytes]]:
    """``cat-file --batch``'s answers, one per asked name in order: (name, object
    type, body). A name git does not find answers ``<name> missing`` (a name may hold
    spaces, so only the last word says it) and has no body; every object found, a
    folder's tree too, has one to step over."""
    out: list[tuple[str, bytes, bytes]] = []
    pos = 0
    for name in asked:
        end = raw.find(b"\n", pos)
        if end < 0:
            break
        line = raw[pos:end]
        pos = end + 1
        if line.endswith((b" missing", b" ambiguous")):
            continue
        fields = line.rsplit(b" ", 2)
        if len(fields) != 3 or not fields[2].isdigit():
            break  # not an answer git gives: nothing after it can be placed
        size = int(fields[2])
        out.append((name, fields[1], raw[pos : pos + size]))
        pos += size + 1
    return out


#: Paths per ``ls-tree`` call (each is one argument).
_PATHS_PER_CALL = 1000


def head_blobs(
    git: Git, paths: Sequence[str], limit: int, largest: int | None, commit: str = "HEAD"
) -> dict[str, bytes | None]:
    """What ``commit`` holds at each of ``paths``: the first ``limit`` bytes of a file
    of at most ``largest`` bytes (``None``: any size), ``None`` for anything else there
    (a larger file, a folder, a submodule); a path it does not hold is absent. ``ls-tree`` gives the
    objects and sizes (one tree walk, where ``cat-file`` would walk it once per
    path), then one ``cat-file --batch`` by object id reads the small files, so no
    file larger than ``largest`` is ever read."""
    asked = set(paths)
    out: dict[str, bytes | None] = {}
    small: dict[str, str] = {}
    ordered = list(dict.fromkeys(paths))
    for start in range(0, len(ordered), _PATHS_PER_CALL):
        chunk = ordered[start : start + _PATHS_PER_CALL]
        raw = git.run(
            "--literal-pathspecs", "ls-tree", "-r", "-t", "-l", "-z", commit, "--", *chunk
        )
        for entry in raw.split(b"\0"):
            meta, tab, name_bytes = entry.partition(b"\t")
            name = name_bytes.decode("utf-8", "surrogateescape")
            if not tab or name not in asked:
                continue
            fields = meta.split()
            out[name] = None
            if (
                len(fields) == 4
                and fields[1] == b"blob"
                and fields[3].isdigit()
                and (largest is None or int(fields[3]) <= largest)
            ):
                small[name] = fields[2].decode("ascii", "replace")
    if small:
        names = list(small)
        body = git.run(
            "cat-file", "--batch", stdin="".join(f"{small[n]}\n" for n in names).encode()
        )
        for name, kind, data in _batch_answers(body, names):
            if kind == b"blob":
                out[name] = data[:limit]
    return out


class Reader:
    """The changed files' text now and at HEAD, each read once however many rules
    (and closure hops) ask: the first ``limit`` bytes, one ``cat-file`` per batch of
    HEAD sides not read yet."""

    def __init__(
        self,
        root: Path,
        git: Git,
        limit: int,
        whole: Mapping[str, bytes],
        memo: Pinned | None = None,
        head: str | None = None,
    ) -> None:
        self.root, self.git, self.limit, self.whole = root, git, limit, whole
        #: A long-lived process's answers, each kept under its whole input.
        self.memo = memo
        #: HEAD's commit id when the caller read it: a file's text at a commit id is
        #: fixed for good, so a long-lived process keeps it (``memo``).
        self.head = head
        self._top = str(root)  # joined as text: a Path per file cost more
        self._now: dict[str, str | None] = {}
        self._head: dict[str, str | None] = {}

    def now(self, path: str) -> str | None:
        if path not in self._now:
            known = self.whole.get(path)
            where = self._top if known is not None else os.path.join(self._top, path)  # noqa: PTH118
            self._now[path] = read_text(where, self.limit, known)
        return self._now[path]

    def before(self, changes: Sequence[ChangedFile]) -> dict[str, str]:
        """Each modified or renamed file's text at HEAD, by its path now."""
        old_names = {
            c.path: c.old_path or c.path
            for c in changes
            if c.status in ("modified", "renamed", "type_changed")
        }
        missing = sorted({old for old in old_names.values() if old not in self._head})
        kept = self.memo if self.head is not None else None
        if kept is not None:
            for old in missing:
                hit, text = kept.get(("at_head", self.head, self.limit, old))
                if hit:
                    self._head[old] = text
            missing = [old for old in missing if old not in self._head]
        if missing:
            found = at_head(self.git, missing, self.limit, self.head or "HEAD")
            for old in missing:
                text = self._head[old] = found.get(old)
                if kept is not None:
                    kept.put(("at_head", self.head, self.limit, old), text, len(text or ""))
        out: dict[str, str] = {}
        for path, old in old_names.items():
            text = self._head.get(old)
            if text is not None:
                out[path] = text
        return out

    def added(self, change: ChangedFile) -> list[str]:
        """The lines the change to ``change`` added (every line of a new file)."""
        now = self.now(change.path)
        if now is None:
            return []
        return shared_names.added(self.before([change]).get(change.path), now)
