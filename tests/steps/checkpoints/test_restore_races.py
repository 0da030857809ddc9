"""The batched restore under concurrent edits and a lease lost at a batch's start."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from filelock import FileLock, Timeout

from vibflow.steps.checkpoints import restore
from vibflow.steps.recovery.lease import LeaseFile, LeaseLost


def blob_id(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def temps(root: Path) -> list[str]:
    return sorted(p.name for p in root.rglob("*vibflow-restore*"))


def test_a_file_edited_while_earlier_batches_restore_is_not_an_assertion_crash(
    tmp_path: Path,
) -> None:
    """apply hands blob None for every file it found already equal to the checkpoint
    (only stale files' blobs are read); if such a file is edited while an earlier batch is
    being renamed (an agent still running), the restore must not die on a bare assert."""
    data = b"checkpoint\n"
    work: list[tuple[restore.Item, bytes | None]] = []
    for i in range(3):
        rel = f"f{i}.txt"
        (tmp_path / rel).write_bytes(b"agent\n" if i == 0 else data)
        item = restore.Item(rel, "write", "100644", blob_id(data))
        # apply's shape: f0 is stale (blob read), f1 and f2 already match (no blob)
        work.append((item, data if i == 0 else None))

    @contextmanager
    def hold(on_lost: Callable[[], None]) -> Iterator[None]:
        del on_lost
        # The agent edits f2 while f0's batch is being made visible; f2's batch is
        # staged after this (one batch is staged ahead: f1 already was).
        (tmp_path / "f2.txt").write_bytes(b"edited by the agent meanwhile\n")
        yield None

    try:
        done = restore.restore_items(tmp_path, work, hold, known_stale=["f0.txt"], batch=1)
    except AssertionError as exc:  # pragma: no cover - the bug
        pytest.fail(
            f"restore_items crashed with a bare AssertionError on a concurrent edit: {exc!r}"
        )
    outcome = {i.path: what for i, what in done}
    assert outcome["f0.txt"] == "restored"
    assert outcome["f2.txt"] != "unchanged", "an edited file was reported unchanged"


def test_a_lease_lost_when_a_batch_starts_leaves_temp_files_after_the_mutex_is_free(
    tmp_path: Path,
) -> None:
    """The module promises every temp file in flight is gone before the lease mutex is
    let go when a restore stops part way. When the lease is already taken over at the
    moment a batch's hold begins (lease.commit raises on entry), the temp files of that
    batch and of the one staged ahead are still on disk once the mutex is free."""
    root = tmp_path / "proj"
    root.mkdir()
    work: list[tuple[restore.Item, bytes | None]] = []
    for i in range(4):
        rel = f"pkg/f{i}.py"
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(f"agent {i}\n", encoding="utf-8")
        data = f"original {i}\n".encode()
        work.append((restore.Item(rel, "write", "100644", blob_id(data)), data))

    folder = tmp_path / "lease"
    mine = LeaseFile(folder, ttl_seconds=60)
    lease = mine.acquire("op_mine")
    later = datetime.now(UTC) + timedelta(seconds=120)
    LeaseFile(folder, ttl_seconds=60, clock=lambda: later).acquire("op_theirs")  # takeover

    seen: list[list[str]] = []
    mutex_free: list[bool] = []

    @contextmanager
    def hold(on_lost: Callable[[], None]) -> Iterator[Callable[[], None]]:
        try:
            with lease.commit(on_lost) as still_ours:
                yield still_ours
        except LeaseLost:
            # lease.commit has left its mutex: the new owner may run now.
            try:
                with FileLock(str(folder / "lease.mutex"), timeout=0):
                    mutex_free.append(True)
            except Timeout:
                mutex_free.append(False)
            seen.append(temps(root))
            raise

    with pytest.raises(LeaseLost):
        restore.restore_items(root, work, hold, batch=2, tag=lease.record.generation)
    assert mutex_free == [True]
    assert temps(root) == []  # cleaned up eventually ...
    assert seen == [[]], (
        f"temp files {seen[0]} were still on disk after the lease mutex was released "
        "(cleanup runs outside the hold when the lease is lost at a batch's start)"
    )
