"""Replaced files' old content parked under a second name in vibflow's scratch folder
during a restore: the names are only ever vibflow's own, they are all gone when the
restore ends (normally, on a lost lease, or swept after a crash), and a restore is
just as correct when no second name can be made."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest
from vibflow_testing.repo import write
from vibflow_testing.restore import Work, blob_id, free_hold, losing_hold, work_for

from vibflow.steps.checkpoints import restore
from vibflow.steps.recovery.lease import LeaseLost

# A second filesystem on most Linux machines; only a fresh folder in it is used.
SHM = Path("/dev/shm")  # noqa: S108 - tempfile.TemporaryDirectory makes the folder


def scratch_of(root: Path) -> Path:
    return root / ".vibflow" / "recovery"


def retired(scratch: Path) -> list[str]:
    """The replaced-* entries in ``scratch`` (none when it does not exist)."""
    if not scratch.exists():
        return []
    return sorted(p.name for p in scratch.iterdir() if p.name.startswith("replaced-"))


def temps(root: Path) -> list[str]:
    return sorted(p.name for p in root.rglob("*vibflow-restore*"))


def texts(root: Path, work: Work) -> list[str]:
    return [(root / item.path).read_text(encoding="utf-8") for item, _ in work]


def originals(n: int) -> list[str]:
    return [f"original {i}\n" for i in range(n)]


def test_a_restore_over_several_batches_leaves_checkpoint_content_and_no_scratch_names(
    tmp_path: Path,
) -> None:
    """50 files in batches of 7: each holds the checkpoint's content under one name, and
    neither a replaced-* folder nor a temp file is left."""
    work = work_for(tmp_path, 50)
    done = restore.restore_items(
        tmp_path, work, free_hold, batch=7, tag=2, scratch=scratch_of(tmp_path)
    )
    assert [what for _, what in done] == ["restored"] * 50
    assert texts(tmp_path, work) == originals(50)
    assert [(tmp_path / i.path).stat().st_nlink for i, _ in work] == [1] * 50
    assert scratch_of(tmp_path).is_dir()
    assert retired(scratch_of(tmp_path)) == []
    assert temps(tmp_path) == []


def test_the_replaced_inode_has_a_second_name_in_scratch_until_its_batch_is_done(
    tmp_path: Path,
) -> None:
    """Right after a file is renamed over, its old inode is still named once in this
    restore's replaced-{tag}-* folder (so the rename freed no blocks)."""
    work = work_for(tmp_path, 3)
    alias = tmp_path / "other" / "alias.py"
    alias.parent.mkdir()
    os.link(tmp_path / "pkg/f0.py", alias)
    old_inode = alias.stat().st_ino
    seen: list[tuple[int, list[int]]] = []

    def on_file(item: restore.Item, what: str) -> None:
        del what
        if item.path == "pkg/f0.py":
            (folder,) = scratch_of(tmp_path).glob("replaced-6-*")
            seen.append(
                (alias.stat().st_nlink, [p.stat().st_ino for p in folder.iterdir()]),
            )

    restore.restore_items(
        tmp_path, work, free_hold, on_file=on_file, tag=6, scratch=scratch_of(tmp_path)
    )
    assert seen == [(2, [old_inode])]


def test_a_second_hard_link_of_a_restored_file_keeps_the_old_content_and_no_extra_link(
    tmp_path: Path,
) -> None:
    """A user's other name for a restored file (not itself restored) still holds the old
    content afterwards and is its inode's only name: nothing of ours points at it."""
    work = work_for(tmp_path, 20)
    alias = tmp_path / "other" / "alias.py"
    alias.parent.mkdir()
    os.link(tmp_path / "pkg/f9.py", alias)
    assert alias.stat().st_nlink == 2
    restore.restore_items(tmp_path, work, free_hold, batch=4, tag=1, scratch=scratch_of(tmp_path))
    assert texts(tmp_path, work) == originals(20)
    assert alias.read_text(encoding="utf-8") == "agent 9\n"
    assert alias.stat().st_nlink == 1  # pkg/f9.py is a new inode now; no scratch name left
    assert (tmp_path / "pkg/f9.py").stat().st_ino != alias.stat().st_ino
    assert retired(scratch_of(tmp_path)) == []


def test_new_files_and_symlinks_are_restored_with_a_scratch_folder(tmp_path: Path) -> None:
    """A path that does not exist yet, a new in-project symlink, and a symlink replacing
    one that points outside: all restored; the outside file never gains a link."""
    outside = write(tmp_path, "outside/secret.txt", "not ours\n")
    root = tmp_path / "project"
    work = work_for(root, 2)
    (root / "old-link").symlink_to(outside)
    new_data = b"brand new\n"
    link_to = b"pkg/f0.py"
    work += [
        (restore.Item("new/deep/n.txt", "write", "100644", blob_id(new_data)), new_data),
        (restore.Item("link", "write", "120000", blob_id(link_to)), link_to),
        (restore.Item("old-link", "write", "120000", blob_id(link_to)), link_to),
    ]
    outside_links: list[int] = []

    def on_file(item: restore.Item, what: str) -> None:
        del item, what
        outside_links.append(outside.stat().st_nlink)

    done = restore.restore_items(
        root, work, free_hold, on_file=on_file, batch=2, tag=3, scratch=scratch_of(root)
    )
    assert [what for _, what in done] == ["restored"] * 5
    assert (root / "new/deep/n.txt").read_bytes() == new_data
    assert (root / "link").readlink() == Path("pkg/f0.py")
    assert (root / "old-link").readlink() == Path("pkg/f0.py")
    assert (root / "link").read_text(encoding="utf-8") == "original 0\n"
    assert outside.read_text(encoding="utf-8") == "not ours\n"
    assert set(outside_links) == {1}
    assert retired(scratch_of(root)) == []
    assert temps(root) == []


def test_a_restore_sweeps_only_the_numeric_names_of_older_generations(tmp_path: Path) -> None:
    """Leftovers of killed restores: an older generation's numbered names go (a folder
    that is then empty goes too, one holding anything else stays with it), a newer
    generation's folder is untouched, and a symlinked folder is not followed."""
    scratch = scratch_of(tmp_path)
    victims = [write(tmp_path, f"elsewhere/v{i}.txt", f"victim {i}\n") for i in range(3)]
    older = scratch / "replaced-3-abc"
    older.mkdir(parents=True)
    os.link(victims[0], older / "0")
    os.link(victims[1], older / "1")
    write(older, "notes.txt", "someone's notes\n")
    emptied = scratch / "replaced-2-only-numbers"
    emptied.mkdir()
    (emptied / "0").write_text("old\n", encoding="utf-8")
    newer = scratch / "replaced-9-x"
    newer.mkdir()
    os.link(victims[2], newer / "0")
    outside = tmp_path / "outside"
    write(outside, "0", "outside file\n")
    (scratch / "replaced-1-link").symlink_to(outside, target_is_directory=True)

    work = work_for(tmp_path / "project", 5)
    restore.restore_items(tmp_path / "project", work, free_hold, batch=2, tag=5, scratch=scratch)

    assert texts(tmp_path / "project", work) == originals(5)
    assert sorted(p.name for p in older.iterdir()) == ["notes.txt"]
    assert (older / "notes.txt").read_text(encoding="utf-8") == "someone's notes\n"
    assert not emptied.exists()
    assert sorted(p.name for p in newer.iterdir()) == ["0"]
    assert (scratch / "replaced-1-link").is_symlink()
    assert (outside / "0").read_text(encoding="utf-8") == "outside file\n"
    assert [v.stat().st_nlink for v in victims] == [1, 1, 2]
    assert [v.read_text(encoding="utf-8") for v in victims] == [f"victim {i}\n" for i in range(3)]
    assert retired(scratch) == ["replaced-1-link", "replaced-3-abc", "replaced-9-x"]


def test_a_scratch_path_that_is_a_file_does_not_stop_the_restore(tmp_path: Path) -> None:
    """When the scratch folder cannot be made, the renames just free the old blocks."""
    scratch = write(tmp_path, "state/recovery", "a file, not a folder\n")
    work = work_for(tmp_path / "project", 6)
    restore.restore_items(tmp_path / "project", work, free_hold, batch=2, tag=1, scratch=scratch)
    assert texts(tmp_path / "project", work) == originals(6)
    assert scratch.read_text(encoding="utf-8") == "a file, not a folder\n"


def test_a_scratch_on_another_filesystem_still_restores_and_leaves_nothing(
    tmp_path: Path,
) -> None:
    """Scratch on /dev/shm: every link fails (EXDEV), the renames proceed, the files end
    right, and the scratch holds nothing afterwards."""
    shm = SHM
    if not shm.is_dir() or shm.stat().st_dev == tmp_path.stat().st_dev:
        pytest.skip("no second filesystem at /dev/shm")
    work = work_for(tmp_path, 12)
    with tempfile.TemporaryDirectory(dir=shm) as other:
        scratch = Path(other) / "recovery"
        restore.restore_items(tmp_path, work, free_hold, batch=4, tag=2, scratch=scratch)
        assert list(scratch.iterdir()) == []
    assert texts(tmp_path, work) == originals(12)
    assert [(tmp_path / i.path).stat().st_nlink for i, _ in work] == [1] * 12
    assert temps(tmp_path) == []


def test_a_restore_that_loses_its_lease_leaves_no_scratch_folder(tmp_path: Path) -> None:
    """Batches of 2 of 7 files, the lease lost before the 4th: LeaseLost propagates, the
    three restored files stay restored, and no replaced-* folder or temp file remains."""
    work = work_for(tmp_path, 7)
    hold = losing_hold(4)

    with pytest.raises(LeaseLost):
        restore.restore_items(tmp_path, work, hold, batch=2, tag=3, scratch=scratch_of(tmp_path))
    assert retired(scratch_of(tmp_path)) == []
    assert temps(tmp_path) == []
    assert texts(tmp_path, work) == originals(3) + [f"agent {i}\n" for i in range(3, 7)]
    assert [(tmp_path / i.path).stat().st_nlink for i, _ in work] == [1] * 7


KILLED_RESTORE = textwrap.dedent(
    """
    import hashlib, os, signal, sys
    from contextlib import contextmanager
    from pathlib import Path

    from vibflow.steps.checkpoints import restore

    root, n, kill_after = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])

    def blob_id(data):
        head = b"blob %d\\0" % len(data)
        return hashlib.sha1(head + data, usedforsecurity=False).hexdigest()

    work = []
    for i in range(n):
        data = f"original {i}\\n".encode()
        work.append((restore.Item(f"pkg/f{i}.py", "write", "100644", blob_id(data)), data))

    @contextmanager
    def hold(on_lost):
        yield None

    renamed = 0

    def on_file(item, what):
        global renamed
        renamed += 1
        if renamed == kill_after:
            os.kill(os.getpid(), signal.SIGKILL)

    restore.restore_items(
        root, work, hold, on_file=on_file, batch=16, tag=4,
        scratch=root / ".vibflow" / "recovery",
    )
    """
)


@pytest.mark.cli
def test_a_restore_killed_mid_batch_is_swept_and_finished_by_the_next_one(
    tmp_path: Path,
) -> None:
    """A real process SIGKILLed after its 100th of 300 renames leaves its replaced-4-*
    folder and temp files; a restore with tag 5 sweeps both, and every file ends with the
    checkpoint's content under exactly one name."""
    work = work_for(tmp_path, 300)
    proc = subprocess.run(
        [sys.executable, "-c", KILLED_RESTORE, str(tmp_path), "300", "100"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    scratch = scratch_of(tmp_path)
    assert [name.rsplit("-", 1)[0] for name in retired(scratch)] == ["replaced-4"]
    assert texts(tmp_path, work) == originals(100) + [f"agent {i}\n" for i in range(100, 300)]
    assert temps(tmp_path)  # the rest of the batch being renamed, and the one staged ahead

    done = restore.restore_items(tmp_path, work, free_hold, batch=64, tag=5, scratch=scratch)
    assert [what for _, what in done] == ["unchanged"] * 100 + ["restored"] * 200
    assert retired(scratch) == []
    assert temps(tmp_path) == []
    assert texts(tmp_path, work) == originals(300)
    assert [(tmp_path / i.path).stat().st_nlink for i, _ in work] == [1] * 300
