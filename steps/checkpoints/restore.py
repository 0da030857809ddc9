"""Restore selected files from a checkpoint, written by vibflow itself.

``ls-tree`` says what the checkpoint holds for each chosen path and one
``cat-file --batch`` reads the contents; vibflow then writes each file itself,
atomically: a temp file in the same folder, its mode set and fsync'd, then a
rename. Files go in batches: every temp file of a batch is written, the
batch's fsyncs run concurrently (the filesystem folds them into a few journal
commits — one fsync after another costs ~0.35 ms each here), then all of the
batch's renames happen inside one hold of a caller-supplied ``commit``
context (the lease's mutex), which checks before every file that the right
to write is still held. The folders are fsync'd after the renames.

Replacing a file frees its old blocks, which on this kind of disk (ext4 with
online discard) costs more than the rename itself and would sit on the
sequential, lease-checked path. Given a ``scratch`` folder of vibflow's own
on the same filesystem, each replaced file's old content first gets a second
name there (a hard link), so the rename only swaps names; those names are
removed on worker threads while the restore goes on. They are never a user's
names: deleting them, or sweeping a killed restore's leftovers, only drops an
extra link.

Symlink entries are recreated only when they point inside the project;
submodules are skipped; a path absent from the checkpoint is deleted only
when the caller says the user confirmed that deletion. A file whose content
and mode already match is left alone, which makes a restore safe to repeat
after a crash (the temp files a killed batch left are swept by the repeat: each
restore names its temp files with its lease generation).
"""

from __future__ import annotations

import bisect
import hashlib
import os
import stat
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.steps.checkpoints.durable import Flusher
from vibflow.steps.checkpoints.leftovers import (
    Retired,
    ledger_close,
    ledger_open,
    sweep_ledger,
    sweep_temps,
    temp_for,
)
from vibflow.steps.workspace.git import Git

Action = Literal["write", "delete", "skip"]
# A hold is entered around each batch's renames with what to clean up should it
# find the right to write gone already (called before the hold is let go).
Hold = Callable[[Callable[[], None]], AbstractContextManager[Callable[[], None] | None]]

OUTSIDE = "skipped: a folder on its way is a link leading outside the project"
# A drifted path can change kind; each such path is skipped with its reason
# and the restore goes on with the others.
FOLDER_NOW = "skipped: it is a folder now; move the folder aside to restore the file"
FILE_ON_THE_WAY = "skipped: a folder on its way is a file now; not restored"
BATCH = 128  # files per batch: one mutex hold, one round of concurrent fsyncs
FSYNC_THREADS = 32  # concurrent fsyncs beyond this stopped paying off on a virtio disk
DROP_THREADS = 4  # freeing old blocks waits on the disk: a few at once overlap well


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
    out = git.run("cat-file", "--batch", stdin=("\n".join(wanted) + "\n").encode(), spool=True)
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


@dataclass(frozen=True)
class Current:
    """What is on disk at a path right now (one read)."""

    kind: Literal["missing", "file", "link", "other"]
    data: bytes = b""
    executable: bool = False

    @classmethod
    def read(cls, root: Path, rel: str) -> Current:
        target = root / rel
        try:
            st = target.lstat()
        except (FileNotFoundError, NotADirectoryError):
            return cls("missing")
        if stat.S_ISLNK(st.st_mode):
            return cls("link", os.fsencode(str(target.readlink())))
        if not stat.S_ISREG(st.st_mode):
            return cls("other")
        return cls("file", target.read_bytes(), bool(st.st_mode & stat.S_IXUSR))

    def is_object(self, item: Item) -> bool:
        """Is this already what ``item`` would leave at its path (content, mode,
        link)? Judged by git object id: no blob is read out of git to compare."""
        if item.action == "delete":
            return self.kind == "missing"
        if item.sha is None:
            return False
        if item.mode == "120000":
            return self.kind == "link" and self._object_id(len(item.sha)) == item.sha
        return (
            self.kind == "file"
            and self.executable == (item.mode == "100755")
            and self._object_id(len(item.sha)) == item.sha
        )

    def _object_id(self, hex_length: int) -> str:
        # git's blob id: the hash of "blob <size>\0" and the bytes (SHA-256 repos
        # have 64-character ids).
        algo = hashlib.sha256 if hex_length == 64 else hashlib.sha1
        digest = algo(b"blob %d\0" % len(self.data), usedforsecurity=False)
        digest.update(self.data)
        return digest.hexdigest()


def _contains(real_root: Path, path: Path) -> bool:
    """Is ``path``, with every link on its way followed, ``real_root`` or under it?
    (A part that does not exist yet is taken as written.)"""
    real = Path(os.path.realpath(path))
    return real == real_root or real_root in real.parents


def _link_inside(real_root: Path, link_dir: Path, target: bytes) -> bool:
    return _contains(real_root, Path(os.path.normpath(link_dir / os.fsdecode(target))))


@dataclass
class _Staged:
    item: Item
    what: str  # the outcome once committed
    tmp: Path | None = None
    fd: int | None = None


@dataclass
class _Batch:
    root: Path
    tag: int
    staged: list[_Staged] = field(default_factory=list)
    existing: set[Path] = field(default_factory=set)  # folders known to exist: one mkdir each
    made: set[Path] = field(default_factory=set)  # folders holding a folder this batch made
    inside: dict[Path, bool] = field(default_factory=dict)  # folder -> stays in the project
    real_root: Path = field(init=False)  # the project with its links resolved

    def __post_init__(self) -> None:
        self.real_root = Path(os.path.realpath(self.root))

    def stage(self, item: Item, blob: bytes | None, *, known_stale: bool) -> None:
        """Prepare one path: decide, and write its temp file (not yet fsync'd)."""
        if item.action == "skip":
            self.staged.append(_Staged(item, f"skipped: {item.reason or 'not restorable'}"))
            return
        target = self.root / item.path
        if not self._inside(target.parent, self.inside):
            # A folder on the way was replaced by a link leading elsewhere: writing
            # or deleting through it would touch a file outside the project.
            self.staged.append(_Staged(item, OUTSIDE))
            return
        if not known_stale and Current.read(self.root, item.path).is_object(item):
            self.staged.append(_Staged(item, "unchanged"))
            return
        if item.action == "delete":
            if target.is_dir() and not target.is_symlink():
                self.staged.append(_Staged(item, "skipped: it is a folder now; not deleted"))
            else:
                self.staged.append(_Staged(item, "deleted"))
            return
        if blob is None:
            # Found equal to the checkpoint earlier (so its content was not read
            # out of git), and changed since: someone is still editing it.
            self.staged.append(_Staged(item, "skipped: it changed while the restore ran"))
            return
        if target.parent not in self.existing:
            try:
                self._make_folders(target.parent)
            except (FileExistsError, NotADirectoryError):
                self.staged.append(_Staged(item, FILE_ON_THE_WAY))
                return
        tmp = temp_for(target, self.tag)
        if item.mode == "120000":
            if not _link_inside(self.real_root, target.parent, blob):
                self.staged.append(_Staged(item, "skipped: the symlink points outside the project"))
                return
            tmp.unlink(missing_ok=True)
            tmp.symlink_to(os.fsdecode(blob))
            self.staged.append(_Staged(item, "restored", tmp))
            return
        mode = 0o755 if item.mode == "100755" else 0o644
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, mode)
        entry = _Staged(item, "restored", tmp, fd)
        self.staged.append(entry)  # listed before writing: cleanup finds it on error
        view = memoryview(blob)
        while view:
            view = view[os.write(fd, view) :]
        os.fchmod(fd, mode)  # the umask may have narrowed the create mode

    def commit(
        self,
        hold: Hold,
        on_file: Callable[[Item, str], None] | None,
        on_error: Callable[[], None],
        retired: Retired,
    ) -> list[str]:
        """Make the batch visible: every rename (or deletion) inside one ``hold``.

        If it stops part way (the lease is gone), ``on_error`` runs while the
        hold is still held, so every temp file in flight is gone before anyone
        else can take the lease. Returns the second names ``retired`` gave the
        replaced files (to drop once the batch is done).
        """
        kept: list[str] = []
        checked: dict[Path, bool] = {}  # the folders' paths, resolved again right now
        with hold(on_error) as still_ours:
            try:
                for entry in self.staged:
                    if still_ours is not None:
                        still_ours()
                    target = self.root / entry.item.path
                    touches = entry.tmp is not None or entry.what == "deleted"
                    if touches and not self._inside(target.parent, checked):
                        # Swapped for a link since it was staged: touch nothing
                        # through it (the temp file stays where it was made).
                        entry.tmp = None
                        entry.what = OUTSIDE
                    elif entry.tmp is not None:
                        name = retired.keep(target)
                        if name is not None:
                            kept.append(name)
                        try:
                            entry.tmp.replace(target)
                        except IsADirectoryError:
                            # Found by the rename itself: no extra look at every
                            # target for what is rare.
                            entry.tmp.unlink(missing_ok=True)
                            entry.what = FOLDER_NOW
                        entry.tmp = None
                    elif entry.what == "deleted":
                        try:
                            target.unlink(missing_ok=True)
                        except IsADirectoryError:  # became a folder since it was staged
                            entry.what = "skipped: it is a folder now; not deleted"
                    if on_file is not None:
                        on_file(entry.item, entry.what)
            except BaseException:
                on_error()
                raise
        return kept

    def _inside(self, folder: Path, answers: dict[Path, bool]) -> bool:
        """Does ``folder`` resolve inside the project once every link on its way is
        followed? Asked once per folder per ``answers`` (a restore's, or a batch's)."""
        known = answers.get(folder)
        if known is None:
            known = answers[folder] = _contains(self.real_root, folder)
        return known

    def _make_folders(self, folder: Path) -> None:
        # A new folder's own entry lives in its parent: that parent is flushed
        # with the batch too, or a crash could lose the folder after its files
        # were counted as restored.
        missing = []
        at = folder
        while at not in (self.root, at.parent) and at not in self.existing and not at.is_dir():
            missing.append(at)
            at = at.parent
        folder.mkdir(parents=True, exist_ok=True)
        self.made.update(m.parent for m in missing)
        self.existing.update(missing)
        self.existing.add(folder)

    def folders(self) -> list[Path]:
        changed = ("restored", "deleted")
        touched = {(self.root / e.item.path).parent for e in self.staged if e.what in changed}
        return sorted(touched | self.made)

    def close_all(self) -> None:
        for entry in self.staged:
            if entry.fd is not None:
                os.close(entry.fd)
                entry.fd = None

    def discard_temps(self) -> None:
        self.close_all()
        for entry in self.staged:
            if entry.tmp is not None:
                # Another restore's sweep may have taken it first.
                entry.tmp.unlink(missing_ok=True)
                entry.tmp = None


def _fsync_dirs(flusher: Flusher, dirs: Iterable[Path]) -> None:
    fds: list[int] = []
    try:
        fds.extend(os.open(d, os.O_RDONLY | os.O_DIRECTORY) for d in dirs)
        flushing = flusher.submit(fds)
        wait(flushing)  # every flush done before any descriptor is closed
        for done in flushing:
            done.result()
    finally:
        for fd in fds:
            os.close(fd)


class _Pipeline:
    """Batches in flight: staged, their fsyncs running on the pool, not yet renamed."""

    def __init__(self, root: Path, pool: ThreadPoolExecutor) -> None:
        self.root = root
        self.pool = pool
        self.flusher = Flusher(pool)
        self.flying: list[tuple[_Batch, list[Future[None]]]] = []

    def launch(self, chunk: _Batch) -> None:
        fds = [e.fd for e in chunk.staged if e.fd is not None]
        self.flying.append((chunk, self.flusher.submit(fds)))

    def land(self) -> _Batch:
        """The oldest batch, once every one of its files is on disk."""
        chunk, syncing = self.flying[0]
        for waiting in syncing:
            waiting.result()
        chunk.close_all()
        self.flying.pop(0)
        return chunk

    def abandon(self) -> None:
        for chunk, syncing in self.flying:
            wait(syncing)  # an fd is closed only once no thread uses it
            chunk.discard_temps()
        self.flying.clear()


def restore_items(
    root: Path,
    work: Sequence[tuple[Item, bytes | None]],
    hold: Hold,
    *,
    on_file: Callable[[Item, str], None] | None = None,
    on_batch: Callable[[], None] | None = None,
    known_stale: Iterable[str] = (),
    batch: int = BATCH,
    tag: int = 0,
    scratch: Path | None = None,
    owner: str | None = None,
) -> list[tuple[Item, str]]:
    """Bring each path to its checkpoint state, batch by batch; returns what was done.

    ``hold`` is entered once per batch around its renames and may yield a check
    that raises to stop before the next file (the lease). ``on_file`` runs right
    after each path is final, ``on_batch`` after each batch is durable (its
    folders fsync'd too). While one batch's fsyncs run, the next one is staged.
    ``known_stale`` names paths the caller already compared and found different.
    ``tag`` (the lease generation) names this restore's temp files; those of
    older restores next to the paths are swept first. ``scratch`` is a folder of
    vibflow's own on the same filesystem where replaced files' old content is
    held under a second name until worker threads drop it (see the module doc);
    without it each rename frees the old blocks itself. There, too, the restore
    keeps a ledger entry naming ``owner`` (the run) and the paths it writes
    while it runs: should it be killed, aborting ``owner`` removes exactly its
    temp files (``leftovers.sweep_ledger``).
    """
    sweep_temps(root, (item.path for item, _ in work), below=tag)
    sweep_ledger(root, scratch, below=tag)
    entry = ledger_open(scratch, tag, owner, [i.path for i, _ in work if i.action == "write"])
    retired = Retired(scratch, tag)
    stale = set(known_stale)
    done: list[tuple[Item, str]] = []
    try:
        _restore_batches(root, work, hold, on_file, on_batch, stale, batch, tag, retired, done)
    finally:
        retired.close()
        # Every way out but a kill discards the temp files in flight first.
        ledger_close(entry)
    return done


def _restore_batches(
    root: Path,
    work: Sequence[tuple[Item, bytes | None]],
    hold: Hold,
    on_file: Callable[[Item, str], None] | None,
    on_batch: Callable[[], None] | None,
    stale: set[str],
    batch: int,
    tag: int,
    retired: Retired,
    done: list[tuple[Item, str]],
) -> None:
    starts = list(range(0, len(work), batch))
    made: set[Path] = set()
    inside: dict[Path, bool] = {}
    with ThreadPoolExecutor(min(FSYNC_THREADS, max(1, len(work))), "vibflow-fsync") as pool:
        pipe = _Pipeline(root, pool)
        try:
            for n, start in enumerate([*starts, None]):
                if start is not None:
                    chunk = _Batch(root, tag, existing=made, inside=inside)
                    try:
                        for item, blob in work[start : start + batch]:
                            chunk.stage(item, blob, known_stale=item.path in stale)
                    except BaseException:
                        chunk.discard_temps()
                        raise
                    pipe.launch(chunk)
                if n == 0:
                    continue  # keep one batch staged ahead of the renames
                ready = pipe.land()

                def in_flight_gone(ready: _Batch = ready) -> None:
                    ready.discard_temps()
                    pipe.abandon()

                try:
                    kept = ready.commit(hold, on_file, in_flight_gone, retired)
                finally:
                    ready.discard_temps()
                if retired.folder is not None:
                    for part in range(DROP_THREADS):
                        if kept[part::DROP_THREADS]:
                            pool.submit(retired.drop, retired.folder, kept[part::DROP_THREADS])
                _fsync_dirs(pipe.flusher, ready.folders())
                if on_batch is not None:
                    on_batch()
                done.extend((e.item, e.what) for e in ready.staged)
        finally:
            pipe.abandon()


def write(root: Path, item: Item, blob: bytes | None, commit: Hold, *, tag: int = 0) -> str:
    """Bring one path to the checkpoint's state; returns what was done."""
    ((_, what),) = restore_items(root, [(item, blob)], commit, tag=tag)
    return what
