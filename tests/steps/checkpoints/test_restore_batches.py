"""The batched restore's temp files: named per restore, swept when stale, and gone
before the lease's mutex is let go when a restore stops part way."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from vibflow_testing.git import gtext, run_git
from vibflow_testing.restore import blob_id, free_hold, losing_hold, work_for

from vibflow.steps.checkpoints import leftovers, restore
from vibflow.steps.recovery.lease import LeaseLost


def temps(root: Path) -> list[str]:
    return sorted(p.name for p in root.rglob("*vibflow-restore*"))


def test_a_restore_sweeps_older_restores_temp_files_and_keeps_newer_ones(
    tmp_path: Path,
) -> None:
    work = work_for(tmp_path, 3)
    pkg = tmp_path / "pkg"
    for name in (
        ".f0.py.vibflow-restore.tmp",  # before temp names had a tag
        ".f1.py.vibflow-restore-4.tmp",
        ".f2.py.vibflow-restore-9.tmp",  # a newer owner's: not ours to touch
        ".f2.py.vibflow-restore-x.tmp",  # not a name we make
    ):
        (pkg / name).write_text("half-written\n", encoding="utf-8")
    restore.restore_items(tmp_path, work, free_hold, tag=5)
    assert temps(tmp_path) == [".f2.py.vibflow-restore-9.tmp", ".f2.py.vibflow-restore-x.tmp"]
    assert [(tmp_path / i.path).read_bytes() for i, _ in work] == [b for _, b in work]


def test_a_restore_that_loses_its_lease_leaves_no_temp_file_once_the_mutex_is_free(
    tmp_path: Path,
) -> None:
    """Batches of 2 of 7 files, the lease lost before the 4th: the three restored files
    stay restored, the rest keep the agent's version, and when the hold ends no temp file
    of this restore exists — not of the batch being renamed, nor of the one staged ahead."""
    work = work_for(tmp_path, 7)
    seen_at_release: list[list[str]] = []
    hold = losing_hold(4, on_release=lambda: seen_at_release.append(temps(tmp_path)))

    with pytest.raises(LeaseLost):
        restore.restore_items(tmp_path, work, hold, batch=2, tag=3)
    assert seen_at_release[-1] == []
    assert temps(tmp_path) == []
    texts = [(tmp_path / i.path).read_text(encoding="utf-8") for i, _ in work]
    assert texts == [f"original {i}\n" for i in range(3)] + [f"agent {i}\n" for i in range(3, 7)]


def test_temp_names_differ_between_restores_of_the_same_file(tmp_path: Path) -> None:
    target = tmp_path / "a.py"
    assert leftovers.temp_for(target, 1) != leftovers.temp_for(target, 2)


def test_a_confirmed_delete_of_what_is_now_a_folder_leaves_the_folder(tmp_path: Path) -> None:
    """The checkpoint lacks `out`, which is a folder now: it is reported, never removed,
    and the restore goes on (a bare OSError used to escape with the lease still held)."""
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "keep.txt").write_text("mine\n", encoding="utf-8")
    work = [*work_for(tmp_path, 1), (restore.Item("out", "delete"), None)]
    done = {i.path: what for i, what in restore.restore_items(tmp_path, work, free_hold)}
    assert done["out"].startswith("skipped: it is a folder now")
    assert (tmp_path / "out" / "keep.txt").read_text(encoding="utf-8") == "mine\n"
    assert done["pkg/f0.py"] == "restored"


def test_folders_a_restore_creates_are_flushed_with_their_parents(tmp_path: Path) -> None:
    """A file restored into new nested folders: the batch flushes the file's folder and
    the folders that hold each new folder's entry, up to the one that existed."""
    (tmp_path / "pkg").mkdir()
    data = b"restored\n"
    item = restore.Item("pkg/new/deeper/f.py", "write", "100644", blob_id(data))
    batch = restore._Batch(tmp_path, 0)
    batch.stage(item, data, known_stale=True)
    batch.staged[0].what = "restored"
    assert batch.folders() == sorted(
        [tmp_path / "pkg", tmp_path / "pkg" / "new", tmp_path / "pkg" / "new" / "deeper"]
    )
    batch.discard_temps()


@pytest.mark.cli
def test_blobs_are_still_read_when_no_temp_file_can_be_made(tmp_path: Path) -> None:
    """cat-file's answer goes through a temp file; with the temp folder gone it goes
    through pipes instead, with the same result."""
    import subprocess
    import sys
    import textwrap

    run_git(tmp_path, "init", "-q")
    sha = gtext(tmp_path, "hash-object", "-w", "--stdin", stdin=b"hello\n")
    code = textwrap.dedent(
        f"""
        import tempfile
        from pathlib import Path
        from vibflow.steps.checkpoints import restore
        from vibflow.steps.workspace.git import Git
        tempfile.tempdir = {str(tmp_path / "no-such-folder")!r}
        print(restore.read_blobs(Git(Path({str(tmp_path)!r})), [{sha!r}])[{sha!r}].decode())
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "hello\n\n"


def test_nothing_is_written_or_deleted_through_a_folder_now_linked_outside(
    tmp_path: Path,
) -> None:
    """A folder of the checkpoint that is now a link to a folder outside the project:
    a write under it and a delete under it are both skipped with the reason, and the
    outside folder is left exactly as it was (no new folder, no file, nothing removed)."""
    root = tmp_path / "project"
    outside = tmp_path / "elsewhere"
    (root / "a").mkdir(parents=True)
    outside.mkdir()
    (outside / "keep.txt").write_text("not the project's\n", encoding="utf-8")
    (root / "a" / "ln").symlink_to(outside, target_is_directory=True)
    data = b"restored\n"
    work: list[tuple[restore.Item, bytes | None]] = [
        (restore.Item("a/ln/new/x.txt", "write", "100644", blob_id(data)), data),
        (restore.Item("a/ln/keep.txt", "delete"), None),
        (restore.Item("a/ok.txt", "write", "100644", blob_id(data)), data),
    ]
    done = {i.path: what for i, what in restore.restore_items(root, work, free_hold, tag=1)}
    reason = "skipped: a folder on its way is a link leading outside the project"
    assert done == {"a/ln/new/x.txt": reason, "a/ln/keep.txt": reason, "a/ok.txt": "restored"}
    assert sorted(p.name for p in outside.iterdir()) == ["keep.txt"]
    assert (outside / "keep.txt").read_text(encoding="utf-8") == "not the project's\n"
    assert (root / "a" / "ok.txt").read_bytes() == data


def test_a_folder_swapped_for_an_outside_link_after_staging_is_not_touched(
    tmp_path: Path,
) -> None:
    """The folder is replaced by a link to an outside folder between the staging of the
    batch and its renames (done here when the hold is entered): the write and the delete
    under it are skipped, nothing outside changes, the rest of the batch is restored."""
    root = tmp_path / "project"
    outside = tmp_path / "elsewhere"
    (root / "a" / "sub").mkdir(parents=True)
    (root / "a" / "sub" / "keep.txt").write_text("old\n", encoding="utf-8")
    outside.mkdir()
    (outside / "keep.txt").write_text("not the project's\n", encoding="utf-8")
    data = b"restored\n"
    work: list[tuple[restore.Item, bytes | None]] = [
        (restore.Item("a/sub/x.txt", "write", "100644", blob_id(data)), data),
        (restore.Item("a/sub/keep.txt", "delete"), None),
        (restore.Item("a/ok.txt", "write", "100644", blob_id(data)), data),
    ]

    @contextmanager
    def swapping_hold(on_lost: Callable[[], None]) -> Iterator[None]:
        del on_lost
        (root / "a" / "sub").rename(root / "a" / "moved")
        (root / "a" / "sub").symlink_to(outside, target_is_directory=True)
        yield None

    done = {i.path: what for i, what in restore.restore_items(root, work, swapping_hold, tag=1)}
    assert done == {
        "a/sub/x.txt": restore.OUTSIDE,
        "a/sub/keep.txt": restore.OUTSIDE,
        "a/ok.txt": "restored",
    }
    assert sorted(p.name for p in outside.iterdir()) == ["keep.txt"]
    assert (outside / "keep.txt").read_text(encoding="utf-8") == "not the project's\n"
    assert (root / "a" / "ok.txt").read_bytes() == data
