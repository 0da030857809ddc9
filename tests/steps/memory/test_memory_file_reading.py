"""Reading .vibflow/memory.json whatever it has become: too deep, too large, a folder, a
link to /dev/zero, a FIFO. Nothing hangs, exhausts memory or crashes; a regular file that
cannot be read is backed up, anything else is left where it is; memory reads as empty with
a warning, and writes over a non-file are refused with a clear error (exit 1)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from vibflow_testing.cli import Cli, as_json, vf_bounded

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.steps.memory.models import MemoryState
from vibflow.steps.memory.reading import MAX_BYTES, MAX_DEPTH
from vibflow.steps.memory.service import MemoryService
from vibflow.steps.memory.store import MemoryStore


def _memory(repo: Path) -> Path:
    path = repo / ".vibflow" / "memory.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def _backups(path: Path) -> list[Path]:
    return sorted(path.parent.glob("memory.json.corrupt-*"))


def _nested(depth: int) -> bytes:
    return b'{"schema_version": 1, "unknown_fields": {"x": ' + b"[" * depth + b"]" * depth + b"}}"


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 5_000, 200_000])
def test_deeply_nested_memory_is_backed_up_and_memory_restarts(repo: Path, depth: int) -> None:
    """JSON nested past the limit (past Python's recursion limit too) is moved aside
    byte for byte and memory restarts empty with a warning that says why."""
    path = _memory(repo)
    path.write_bytes(_nested(depth))
    loaded = MemoryStore(path).load()
    assert loaded.state == MemoryState()
    assert loaded.warning is not None
    assert "nested more than" in loaded.warning
    assert loaded.backup is not None
    assert loaded.backup.read_bytes() == _nested(depth)
    assert not path.exists()


def test_nesting_within_the_limit_is_kept(repo: Path) -> None:
    """Unknown fields nested below the limit load and are kept."""
    path = _memory(repo)
    path.write_bytes(_nested(MAX_DEPTH - 3))
    loaded = MemoryStore(path).load()
    assert loaded.warning is None
    assert "x" in loaded.state.unknown_fields


def test_an_oversized_memory_file_is_backed_up_unparsed(repo: Path) -> None:
    """A memory.json over the size cap is backed up without being parsed."""
    path = _memory(repo)
    with path.open("wb") as fh:
        fh.write(b'{"schema_version": 1, "risks": [')
        fh.truncate(MAX_BYTES + 10)
    loaded = MemoryStore(path).load()
    assert loaded.state == MemoryState()
    assert loaded.warning is not None
    assert "larger than" in loaded.warning
    assert loaded.backup is not None
    assert loaded.backup.stat().st_size == MAX_BYTES + 10


def test_a_folder_is_reported_left_alone_and_writes_are_refused(repo: Path) -> None:
    """memory.json being a folder: memory reads empty with a warning, the folder and its
    content stay, and a write is refused with STORE_ERROR naming the problem."""
    path = _memory(repo)
    path.mkdir()
    (path / "keep.txt").write_text("mine\n", encoding="utf-8")
    view = MemoryService(MemoryStore(path)).read()
    assert view.state == MemoryState()
    assert view.warning is not None
    assert "a folder" in view.warning
    with pytest.raises(VibflowError) as info:
        MemoryService(MemoryStore(path)).risk("screen reader not checked")
    assert info.value.code is ErrorCode.STORE_ERROR
    assert "a folder" in info.value.message
    assert str(repo) not in info.value.message
    assert (path / "keep.txt").read_text(encoding="utf-8") == "mine\n"
    assert _backups(path) == []


def test_a_link_to_a_real_memory_file_is_not_followed(repo: Path, tmp_path: Path) -> None:
    """A symbolic link is never followed, even to valid memory elsewhere: the link stays,
    its target is untouched, memory reads empty with a warning."""
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text(json.dumps({"schema_version": 1, "risks": []}), encoding="utf-8")
    path = _memory(repo)
    path.symlink_to(elsewhere)
    loaded = MemoryStore(path).load()
    assert loaded.warning is not None
    assert "symbolic link" in loaded.warning
    assert path.is_symlink()
    assert loaded.unwritable is not None


def _vibflow(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The CLI with a 2 GB address-space cap (the timeout catches a hang)."""
    return vf_bounded(repo, *args, max_bytes=2 << 30)


@pytest.mark.cli
@pytest.mark.parametrize("kind", ["dev_zero_link", "fifo", "folder", "nested"])
def test_memory_show_and_write_over_a_hostile_memory_path(repo: Path, kind: str) -> None:
    """`memory show --json` answers (exit 0, a warning, empty memory, no traceback) whatever
    memory.json is; a write then exits 1 with a clear error for a non-file and succeeds
    after a regular file was backed up."""
    path = _memory(repo)
    if kind == "dev_zero_link":
        path.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    else:
        path.write_bytes(_nested(100_000))
    shown = _vibflow(repo, "memory", "show", "--json")
    assert shown.returncode == 0, shown.stderr
    assert "Traceback" not in shown.stderr
    data = as_json(shown)
    assert data["warning"]
    assert data["decisions"] == []
    written = _vibflow(repo, "memory", "risk", "labels not checked")
    assert "Traceback" not in written.stderr
    if kind == "nested":
        assert written.returncode == 0, written.stderr
        assert len(_backups(path)) == 1
    else:
        assert written.returncode == 1, (written.returncode, written.stderr)
        assert "memory cannot be saved" in written.stderr
        assert str(repo) not in written.stderr
        assert _backups(path) == []
        assert path.is_symlink() or path.exists()


def test_cli_fixture_reads_plain_memory(cli: Cli) -> None:
    """A regular memory.json written by vibflow still round-trips through the bounded reader."""
    assert cli("memory", "decide", "Keep the old API", "--yes").returncode == 0
    data = as_json(cli("memory", "show", "--json"))
    assert [d["text"] for d in data["decisions"]] == ["Keep the old API"]
    assert data["warning"] is None


def test_a_legacy_file_with_wrong_shapes_migrates_without_crashing(repo: Path) -> None:
    """A version-0 memory.json whose lists are numbers or strings migrates (those fields
    hold nothing) instead of failing with a TypeError."""
    path = _memory(repo)
    path.write_text(
        json.dumps({"decisions": 5, "recent_events": "x", "risks": {"a": 1}, "verification": 1}),
        encoding="utf-8",
    )
    loaded = MemoryStore(path).load()
    assert loaded.warning is None
    assert loaded.state.decisions == []
    assert loaded.state.risks == []


@pytest.mark.cli
@pytest.mark.parametrize("kind", ["dev_zero_link", "fifo", "folder", "nested", "not_json"])
def test_memory_import_of_a_hostile_file_is_bad_input(
    repo: Path, tmp_path: Path, kind: str
) -> None:
    """`memory import` reads its file with the same bounds: a link to /dev/zero, a FIFO, a
    folder, deep nesting or non-JSON is bad input (exit 2) naming the problem, never a hang,
    a memory blow-up or a traceback; memory is not touched."""
    src = tmp_path / "work_memory.json"
    if kind == "dev_zero_link":
        src.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(src)
    elif kind == "folder":
        src.mkdir()
    elif kind == "nested":
        src.write_bytes(b'{"decisions": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")
    else:
        src.write_bytes(b"\xff\xfe not json")
    proc = _vibflow(repo, "memory", "import", str(src), "--yes")
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr
    assert "work_memory.json cannot be imported" in proc.stderr
    assert str(tmp_path) not in proc.stderr
    assert not (repo / ".vibflow" / "memory.json").exists()
