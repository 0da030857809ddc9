"""What a restore leaves beside the files it writes, and how the next one sweeps it.

Two kinds of names, both vibflow's own: each batch's temp files, tagged with
the restore's lease generation (``temp_for``), so two restores of one file —
one that lost its lease without noticing yet, and the one that took over —
never touch each other's; and second names (hard links) for the old content of
replaced files (:class:`Retired`), so freeing those blocks happens off the
lease-checked path. A killed restore leaves some of either; the next restore,
with a higher generation, sweeps what older ones left. Removing these names
never touches a user's file: only an extra link or a temp file goes.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterable, Sequence
from contextlib import suppress
from pathlib import Path


def temp_for(target: Path, tag: int) -> Path:
    # The tag (the lease generation) keeps two restores of the same file — one
    # that lost its lease without noticing yet, and the one that took over —
    # from ever writing, renaming or deleting each other's temp file.
    return target.with_name(f".{target.name}.vibflow-restore-{tag}.tmp")


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
