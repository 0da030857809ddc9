"""What a restore leaves beside the files it writes, and how the next one sweeps it.

Two kinds of names, both vibflow's own: each batch's temp files, tagged with
the restore's lease generation (``temp_for``), so two restores of one file —
one that lost its lease without noticing yet, and the one that took over —
never touch each other's; and second names (hard links) for the old content of
replaced files (:class:`Retired`), so freeing those blocks happens off the
lease-checked path. A killed restore leaves some of either; the next restore,
with a higher generation, sweeps what older ones left. Removing these names
never touches a user's file: only an extra link or a temp file goes.

A restore also keeps a ledger entry while it runs (its generation, the run it
belongs to, the paths it writes), so aborting that run removes exactly the temp
files it made — :func:`sweep_ledger` — and nothing named like them.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from collections.abc import Iterable, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any

from vibflow.engine.atomicfile import atomic_write

#: The longest file name most filesystems store (ext4, APFS, NTFS: 255 bytes).
_NAME_MAX = 255


def temp_for(target: Path, tag: int) -> Path:
    # The tag (the lease generation) keeps two restores of the same file — one
    # that lost its lease without noticing yet, and the one that took over —
    # from ever writing, renaming or deleting each other's temp file.
    name = f".{target.name}.vibflow-restore-{tag}.tmp"
    if len(os.fsencode(name)) <= _NAME_MAX:
        return target.with_name(name)
    # A name near the limit leaves no room for the suffix: one derived from its
    # bytes instead, the same for the same file, still a temp name the sweep knows.
    digest = hashlib.sha256(os.fsencode(target.name)).hexdigest()[:32]
    return target.with_name(f".{digest}.vibflow-restore-{tag}.tmp")


_TEMP = re.compile(r"\..+\.vibflow-restore(?:-(\d+))?\.tmp\Z", re.DOTALL)
_RETIRED = re.compile(r"replaced-(\d+)-")
_RETIRED_NAME = re.compile(r"\d+\Z")


def is_restore_temp(path: str) -> bool:
    """Is ``path`` (project-relative) a temp file a restore writes (a killed one
    leaves them)? Such files are vibflow's, never the user's: no checkpoint holds
    them and no plan counts them as changed."""
    return _TEMP.match(path.rpartition("/")[2]) is not None


def sweep_temps(root: Path, paths: Iterable[str], below: int) -> int:
    """Delete temp files older restores (tag < ``below``) left next to ``paths`` —
    a killed restore leaves its current batch's; returns how many went."""
    gone = 0
    for folder in sorted({(root / p).parent for p in paths}):
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            found = _TEMP.match(entry.name)
            if found is None or int(found.group(1) or -1) >= below:
                continue
            try:
                if entry.is_file(follow_symlinks=False) or entry.is_symlink():
                    Path(entry.path).unlink()
                    gone += 1
            except OSError:
                continue
    return gone


class Retired:
    """Second names for the old content of replaced files, dropped off the hot path.

    Every name here is one vibflow made (``link`` refuses to overwrite), in a
    folder it just created, so removing them never touches a user's file.
    """

    def __init__(self, scratch: Path | None, tag: int) -> None:
        self.folder: Path | None = None
        self.count = 0
        if scratch is None:
            return
        try:
            scratch.mkdir(parents=True, exist_ok=True)
            _sweep_retired(scratch, below=tag)
            import tempfile  # only a restore sets files aside; the turn hook never does

            self.folder = Path(tempfile.mkdtemp(prefix=f"replaced-{tag}-", dir=scratch))
        except OSError:
            self.folder = None  # the renames free the old blocks themselves

    def keep(self, target: Path) -> str | None:
        """Give ``target``'s current inode a second name; None when it cannot."""
        if self.folder is None:
            return None
        name = str(self.count)
        try:
            os.link(target, self.folder / name, follow_symlinks=False)
        except OSError:
            # Missing (a new file), a folder, another filesystem, no hard links.
            return None
        self.count += 1
        return name

    def drop(self, folder: Path, names: Sequence[str]) -> None:
        for name in names:
            with suppress(FileNotFoundError):
                (folder / name).unlink()

    def close(self) -> None:
        if self.folder is not None:
            _remove_retired(self.folder)
            self.folder = None


def _remove_retired(folder: Path) -> None:
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if _RETIRED_NAME.match(entry.name):
            with suppress(OSError):
                Path(entry.path).unlink()
    with suppress(OSError):
        folder.rmdir()


def _sweep_retired(scratch: Path, below: int) -> None:
    """Remove what restores older than ``below`` (killed ones) left in ``scratch``."""
    for entry in os.scandir(scratch):
        found = _RETIRED.match(entry.name)
        if found and int(found.group(1)) < below and entry.is_dir(follow_symlinks=False):
            _remove_retired(Path(entry.path))


# -- the restore ledger: which temp files a restore may have left, by whom -------------
#
# Sweeping by name pattern alone is only right for a restore that takes over the
# same paths. Aborting a run whose restore was killed has to remove exactly that
# restore's temp files, wherever they are, and nothing a user named alike. So a
# restore first writes down (durably) its generation, its owner (the run) and the
# paths it will write; the entry goes when it ends, and after a kill it names
# exactly what to remove: ``temp_for(path, generation)`` for each path.

_LEDGER = "restores"
_LEDGER_NAME = re.compile(r"(\d+)\.json\Z")


def ledger_open(
    scratch: Path | None, tag: int, owner: str | None, paths: Sequence[str]
) -> Path | None:
    """Record that restore ``tag`` (run by ``owner``) may leave temp files next to
    ``paths``; returns the entry (to close once the restore ends), or None when
    there is nowhere to record it."""
    if scratch is None or not paths:
        return None
    entry = scratch / _LEDGER / f"{tag}.json"
    record = {"generation": tag, "owner": owner, "paths": list(paths)}
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(entry, json.dumps(record), durable=True)
    except OSError:
        return None  # no ledger: a later restore of the same paths still sweeps them
    return entry


def ledger_close(entry: Path | None) -> None:
    if entry is not None:
        with suppress(OSError):
            entry.unlink()
        with suppress(OSError):
            entry.parent.rmdir()  # only when no other entry is left


def sweep_ledger(
    root: Path, scratch: Path | None, *, below: int | None = None, owner: str | None = None
) -> int:
    """Remove exactly the temp files recorded restores left, and their entries: those
    with a generation under ``below`` (older restores, now superseded), or those run
    by ``owner`` (a run being aborted). Returns how many temp files went."""
    if scratch is None:
        return 0
    folder = scratch / _LEDGER
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return 0
    gone = 0
    for entry in entries:
        found = _LEDGER_NAME.match(entry.name)
        if found is None:
            continue
        tag = int(found.group(1))
        if below is not None and tag >= below:
            continue
        record = _read_entry(Path(entry.path))
        if record is None:
            continue
        if owner is not None and record.get("owner") != owner:
            continue
        gone += _remove_temps(root, record.get("paths", []), tag)
        _sweep_retired_tag(scratch, tag)
        ledger_close(Path(entry.path))
    return gone


def _read_entry(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("paths"), list) else None


def _remove_temps(root: Path, paths: Iterable[Any], tag: int) -> int:
    gone = 0
    real_root = os.path.realpath(root)
    for rel in paths:
        if not isinstance(rel, str):
            continue
        tmp = temp_for(root / rel, tag)
        # Never through a folder that became a link leading out of the project.
        if os.path.commonpath([real_root, os.path.realpath(tmp.parent)]) != real_root:
            continue
        try:
            st = tmp.lstat()
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode):
            with suppress(OSError):
                tmp.unlink()
                gone += 1
    return gone


def _sweep_retired_tag(scratch: Path, tag: int) -> None:
    with suppress(OSError):
        for entry in os.scandir(scratch):
            found = _RETIRED.match(entry.name)
            if found and int(found.group(1)) == tag and entry.is_dir(follow_symlinks=False):
                _remove_retired(Path(entry.path))
