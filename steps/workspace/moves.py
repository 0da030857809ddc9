"""A file moved without git and edited (``mv a b`` then a change to ``b``): paired
with the deletion it came from by content, the way git's rename detection pairs a
``git mv`` whose file was also edited.

Unpaired, such a move is a deletion plus an unrelated new file, and the two halves
are judged apart: the new file flagged as drift and deleted by a restore while the
deletion, judged in scope, stays — the module is then gone under both names.
``diffs.pair_moves`` pairs exact copies for every listing; this pairs what is left
when it is little (a few deletions, a few dozen new files of a like size and the
same extension, none large or binary), so a drift of thousands of new files never
has them read. Similarity: four lines in five in common (``difflib``) — stricter
than git's default of half, because two small files that share a test's or a
module's boilerplate (imports, a client fixture) often have half their lines in
common without one being the other moved; a move the agent edited keeps most.
"""

from __future__ import annotations

import difflib
import posixpath
import stat
from collections.abc import Sequence
from pathlib import Path

from vibflow.steps.workspace.git import Git, GitError

#: Deletions left after exact pairing past which none is paired by content.
DELETIONS_MAX = 16
#: New files (like size, same extension) past which none is read.
CANDIDATES_MAX = 64
#: Larger files are not compared (a line diff grows with both sizes).
BYTES_MAX = 256 * 1024
#: The share of lines in common that makes a pair (git's ``-M`` defaults to 50 %).
SIMILAR = 0.8


def edited_moves(
    git: Git, root: Path, deleted: Sequence[tuple[str, str]], untracked: Sequence[str]
) -> dict[str, str]:
    """Deleted path → the untracked path it was moved to and edited, for the pairs
    whose contents share at least ``SIMILAR`` of their lines. ``deleted``: (path,
    blob id)."""
    if not deleted or not untracked or len(deleted) > DELETIONS_MAX:
        return {}
    sizes = _sizes(git, [sha for _, sha in deleted])
    olds = [(p, sha, sizes[sha]) for p, sha in deleted if 0 < sizes.get(sha, 0) <= BYTES_MAX]
    news = _candidates(root, untracked, olds)
    if not news or len(news) > CANDIDATES_MAX:
        return {}
    blobs = _blobs(git, [sha for _, sha, _ in olds])
    texts = {p: _lines((root / p).read_bytes()) for p in news if (root / p).is_file()}
    scored: list[tuple[float, str, str]] = []
    for path, sha, size in olds:
        before = _lines(blobs.get(sha, b""))
        if before is None:
            continue
        for new, lines in texts.items():
            if lines is not None and _ext(new) == _ext(path) and _alike(news[new], size):
                ratio = _similarity(before, lines)
                if ratio >= SIMILAR:
                    scored.append((ratio, path, new))
    pairs: dict[str, str] = {}
    taken: set[str] = set()
    for _, old, new in sorted(scored, reverse=True):  # the most alike first, once each
        if old not in pairs and new not in taken:
            pairs[old] = new
            taken.add(new)
    return pairs


def _candidates(
    root: Path, untracked: Sequence[str], olds: Sequence[tuple[str, str, int]]
) -> dict[str, int]:
    """The untracked regular files a deletion could have moved to (same extension, a
    like size, not large): path → size."""
    wanted = {_ext(p) for p, _, _ in olds}
    news: dict[str, int] = {}
    for path in untracked:
        if _ext(path) not in wanted or path.endswith("/") or "\n" in path:
            continue
        try:
            st = (root / path).lstat()
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode) or not 0 < st.st_size <= BYTES_MAX:
            continue
        if any(_alike(st.st_size, size) for _, _, size in olds):
            news[path] = st.st_size
    return news


def _similarity(before: list[bytes], after: list[bytes]) -> float:
    """The share of lines the two have in common (``difflib``'s ratio; its cheap upper
    bounds first)."""
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    if matcher.real_quick_ratio() < SIMILAR or matcher.quick_ratio() < SIMILAR:
        return 0.0
    return matcher.ratio()


def _ext(path: str) -> str:
    return posixpath.splitext(path)[1].lower()


def _alike(a: int, b: int) -> bool:
    return b <= 2 * a and a <= 2 * b


def _lines(data: bytes) -> list[bytes] | None:
    """The lines of a text file; None for a binary one (a NUL in its first 8 KB)."""
    if b"\0" in data[:8192]:
        return None
    return data.splitlines()


def _sizes(git: Git, shas: list[str]) -> dict[str, int]:
    try:
        out = git.run("cat-file", "--batch-check", stdin=("\n".join(shas) + "\n").encode())
    except GitError:
        return {}
    sizes: dict[str, int] = {}
    for line in out.decode("ascii", "replace").splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] == "blob" and parts[2].isdigit():
            sizes[parts[0]] = int(parts[2])
    return sizes


def _blobs(git: Git, shas: list[str]) -> dict[str, bytes]:
    """Each blob's bytes, from one ``cat-file --batch`` (``<id> blob <size>`` then the
    bytes and a newline, per object)."""
    try:
        out = git.run("cat-file", "--batch", stdin=("\n".join(shas) + "\n").encode())
    except GitError:
        return {}
    found: dict[str, bytes] = {}
    at = 0
    while at < len(out):
        eol = out.find(b"\n", at)
        if eol < 0:
            break
        head = out[at:eol].split()
        if len(head) != 3 or head[1] != b"blob" or not head[2].isdigit():
            at = eol + 1  # "<id> missing": no bytes follow
            continue
        size = int(head[2])
        found[head[0].decode("ascii")] = out[eol + 1 : eol + 1 + size]
        at = eol + 1 + size + 1
    return found
