"""Restore selected files from a checkpoint, written by vibflow itself.

``ls-tree`` says what the checkpoint holds for each chosen path and one
``cat-file --batch`` reads the contents; vibflow then writes each file itself
— temp file in the same folder, fsync, mode set, and the final rename done
through a caller-supplied ``commit`` context (the lease's mutex) — so the
path rules and the lease apply per file. Symlink entries are recreated only
when they point inside the project; submodules are skipped; a path absent
from the checkpoint is deleted only when the caller says the user confirmed
that deletion. A file whose content and mode already match is left alone,
which makes a restore safe to repeat after a crash.
"""

from __future__ import annotations

import bisect
import os
import stat
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.steps.workspace.git import Git

Action = Literal["write", "delete", "skip"]


@dataclass(frozen=True)
class Item:
    path: str
    action: Action
    mode: str | None = None
    sha: str | None = None
    reason: str | None = None


def plan(git: Git, commit: str, paths: Sequence[str]) -> list[Item]:
    """What restoring ``paths`` from ``commit`` would do, path by path."""
    if not paths:
        return []
    listed = git.run(
        "--literal-pathspecs", "ls-tree", "-r", "-z", "--full-tree", commit, "--", *paths
    )
    found: dict[str, tuple[str, str, str]] = {}
    for record in listed.split(b"\0"):
        if not record:
            continue
        meta, _, name = record.partition(b"\t")
        mode, kind, sha = meta.decode().split()
        found[name.decode("utf-8", "surrogateescape")] = (mode, kind, sha)
    names = sorted(found)
    items: list[Item] = []
    for path in paths:
        # The path itself, or everything under it (a folder): a sorted slice.
        start = bisect.bisect_left(names, path)
        under = {}
        for entry in names[start:]:
            if entry != path and not entry.startswith(path + "/"):
                if not entry.startswith(path):
                    break
                continue  # "a.txt" sorts between "a" and "a/": not under it
            under[entry] = found[entry]
        if not under:
            items.append(Item(path, "delete", reason="absent from the checkpoint"))
            continue
        for p, (mode, kind, sha) in sorted(under.items()):
            if kind == "commit":
                items.append(Item(p, "skip", mode, sha, "a submodule: not restored"))
            else:
                items.append(Item(p, "write", mode, sha))
    return items


def read_blobs(git: Git, shas: Iterable[str]) -> dict[str, bytes]:
    wanted = list(dict.fromkeys(shas))
    if not wanted:
        return {}
    out = git.run("cat-file", "--batch", stdin=("\n".join(wanted) + "\n").encode())
    blobs: dict[str, bytes] = {}
    pos = 0
    for sha in wanted:
        end = out.index(b"\n", pos)
        header = out[pos:end].split()
        if len(header) < 3 or header[1] != b"blob":
            raise VibflowError(ErrorCode.STORE_ERROR, "a checkpoint object is missing or damaged")
        size = int(header[2])
        blobs[sha] = out[end + 1 : end + 1 + size]
        pos = end + 1 + size + 1
    return blobs


def current_matches(root: Path, item: Item, blob: bytes | None) -> bool:
    """Is the file already what the checkpoint holds (content, mode, link)?"""
    target = root / item.path
    if item.action == "delete":
        return not target.exists() and not target.is_symlink()
    if item.mode == "120000":
        return target.is_symlink() and os.fsencode(str(target.readlink())) == blob
    try:
        st = target.lstat()
    except FileNotFoundError:
        return False
    if not stat.S_ISREG(st.st_mode):
        return False
    executable = bool(st.st_mode & stat.S_IXUSR)
    if executable != (item.mode == "100755"):
        return False
    return target.read_bytes() == blob


def _inside(root: Path, link_dir: Path, target: bytes) -> bool:
    dest = Path(os.path.normpath(link_dir / os.fsdecode(target)))
    try:
        dest.resolve(strict=False).relative_to(root.resolve())
    except ValueError:
        return False
    return True


def write(
    root: Path,
    item: Item,
    blob: bytes | None,
    commit: Callable[[], AbstractContextManager[None]],
) -> str:
    """Bring one path to the checkpoint's state; returns what was done."""
    target = root / item.path
    if item.action == "skip":
        return "skipped"
    if current_matches(root, item, blob):
        return "unchanged"
    if item.action == "delete":
        with commit():
            target.unlink(missing_ok=True)
        return "deleted"
    assert blob is not None  # noqa: S101 - every write item has its blob
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.vibflow-restore.tmp")
    if item.mode == "120000":
        if not _inside(root, target.parent, blob):
            return "skipped: the symlink points outside the project"
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(os.fsdecode(blob))
    else:
        with tmp.open("wb") as fh:
            fh.write(blob)
            fh.flush()
            os.fsync(fh.fileno())
        tmp.chmod(0o755 if item.mode == "100755" else 0o644)
    try:
        with commit():
            tmp.replace(target)
    finally:
        if tmp.exists() or tmp.is_symlink():
            tmp.unlink()
    return "restored"
