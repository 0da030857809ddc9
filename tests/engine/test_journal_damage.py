"""A damaged ``runs.db`` (issue 16): one zeroed page is checked with
``quick_check``, backed up byte for byte, a fresh journal started — and the
user is told, on stderr and in ``--json`` output, instead of a DatabaseError
(exit 1) or a silent "no runs yet".
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from vibflow_testing.cli import Cli, as_json

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.journal import Journal

PAGE = 4096


def journal_with_runs(cli: Cli, repo: Path, runs: int = 4) -> Path:
    """A real journal holding ``runs`` waiting runs, its WAL folded into the file."""
    for _ in range(runs):
        assert cli("run", "waits").returncode == 0
    db = repo / ".vibflow" / "runs.db"
    with closing(sqlite3.connect(db)) as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return db


def zero_page(db: Path, number: int) -> bytes:
    """Overwrite page ``number`` (1-based; negative counts from the end); return the
    file's bytes after the damage."""
    raw = bytearray(db.read_bytes())
    pages = len(raw) // PAGE
    index = number - 1 if number > 0 else pages + number
    raw[index * PAGE : (index + 1) * PAGE] = bytes(PAGE)
    db.write_bytes(bytes(raw))
    for side in ("-wal", "-shm"):
        db.with_name(db.name + side).unlink(missing_ok=True)
    return bytes(raw)


def backups(db: Path) -> list[Path]:
    return sorted(
        p for p in db.parent.glob("runs.db.corrupt-*") if not p.name.endswith(("-wal", "-shm"))
    )


def table_pages(db: Path) -> dict[str, int]:
    with closing(sqlite3.connect(db)) as con:
        return dict(con.execute("SELECT name, rootpage FROM sqlite_master WHERE rootpage > 0"))


@pytest.mark.parametrize("which", ["header", "runs", "runs_index", "definitions"])
def test_zeroed_page_is_backed_up_and_reported(cli: Cli, repo: Path, which: str) -> None:
    """`runs list --json` with a zeroed page: exit 0, a warning, a byte-exact backup."""
    db = journal_with_runs(cli, repo)
    pages = table_pages(db)
    number = {
        "header": 1,
        "runs": pages["runs"],
        "runs_index": pages["sqlite_autoindex_runs_1"],
        "definitions": pages["definitions"],
    }[which]
    damaged = zero_page(db, number)
    proc = cli("runs", "list", "--json")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    data = as_json(proc)
    [backup] = backups(db)
    assert backup.read_bytes() == damaged
    [warning] = data["warnings"]
    assert f".vibflow/{backup.name}" in warning
    assert "a fresh journal started" in warning
    assert f"vibflow: warning: {warning}" in proc.stderr
    assert str(repo) not in proc.stderr  # never an absolute path
    # The fresh journal works: a new run starts and is listed.
    assert cli("run", "waits").returncode == 0
    assert len(as_json(cli("runs", "list", "--json"))["runs"]) == 1


def test_text_output_warns_instead_of_a_silent_no_runs_yet(cli: Cli, repo: Path) -> None:
    """A journal moved aside is never just "no runs yet": stderr says what happened and where."""
    db = journal_with_runs(cli, repo, runs=2)
    zero_page(db, table_pages(db)["sqlite_autoindex_runs_1"])
    proc = cli("runs", "list")
    assert proc.returncode == 0, proc.stderr
    assert "no runs yet" in proc.stdout
    assert "vibflow: warning: the run journal .vibflow/runs.db was damaged" in proc.stderr
    assert "backed up to .vibflow/runs.db.corrupt-" in proc.stderr


def test_damage_found_by_a_later_read_is_recovered(cli: Cli, repo: Path) -> None:
    """Damage the open check does not touch (the entries table) is recovered when a read hits it."""
    db = journal_with_runs(cli, repo, runs=2)
    run_id = as_json(cli("runs", "list", "--json"))["runs"][0]["run_id"]
    zero_page(db, table_pages(db)["entries"])
    told: list[str] = []
    journal = Journal(db, on_recovered=told.append)
    assert journal.backup is None  # opening did not notice
    assert journal.entries(run_id) == []  # the read did, and was answered afresh
    assert journal.backup is not None
    assert told == [journal.notice]
    assert journal.notice is not None
    assert "quick_check" in journal.notice
    journal.close()


def test_damage_found_by_a_write_is_store_corrupt(cli: Cli, repo: Path) -> None:
    """A write that meets damage is not replayed on the fresh journal: STORE_CORRUPT, backed up."""
    db = journal_with_runs(cli, repo, runs=2)
    zero_page(db, table_pages(db)["entries"])
    journal = Journal(db)
    with pytest.raises(VibflowError) as info, journal.transaction() as con:
        con.execute("DELETE FROM entries")
    assert info.value.code is ErrorCode.STORE_CORRUPT
    assert "the change was not recorded" in info.value.message
    assert journal.backup is not None
    journal.close()


@pytest.mark.parametrize("kind", ["fifo", "folder", "dev_zero", "dangling"])
def test_special_file_at_the_journal_path_is_set_aside(tmp_path: Path, kind: str) -> None:
    """A FIFO, folder, device link or dangling link named runs.db is moved aside, never
    opened (SQLite would block on a FIFO or fail with an I/O error, exit 1)."""
    db = tmp_path / ".vibflow" / "runs.db"
    db.parent.mkdir()
    if kind == "fifo":
        os.mkfifo(db)
    elif kind == "folder":
        db.mkdir()
    elif kind == "dev_zero":
        db.symlink_to("/dev/zero")
    else:
        db.symlink_to(tmp_path / "nowhere" / "runs.db")
    told: list[str] = []
    journal = Journal(db, on_recovered=told.append)
    assert journal.backup is not None
    assert journal.backup.is_symlink() or not journal.backup.is_file()
    assert journal.runs() == []
    assert len(told) == 1
    assert "not a file" in told[0]
    assert not (tmp_path / "nowhere").exists()  # nothing created through the link
    journal.close()


def test_text_that_is_not_utf8_is_damage(cli: Cli, repo: Path) -> None:
    """Bytes vibflow never writes (invalid UTF-8 in a text column) are damage, not exit 1."""
    db = journal_with_runs(cli, repo, runs=1)
    with closing(sqlite3.connect(db)) as con:
        con.execute("UPDATE runs SET recap_id=CAST(x'ff00ee' AS TEXT)")
        con.commit()
    proc = cli("runs", "list", "--json")
    assert proc.returncode == 0, proc.stderr
    assert as_json(proc)["warnings"][0].startswith("the run journal .vibflow/runs.db was damaged")
    assert len(backups(db)) == 1


def test_a_schema_it_never_wrote_is_damage(cli: Cli, repo: Path) -> None:
    """A damaged schema (a column renamed in sqlite_master) is backed up, not exit 1."""
    db = journal_with_runs(cli, repo, runs=1)
    with closing(sqlite3.connect(db)) as con:
        con.execute("PRAGMA writable_schema=ON")
        con.execute(
            "UPDATE sqlite_master SET sql=replace(sql, 'body TEXT', 'bodx TEXT') "
            "WHERE name='definitions'"
        )
        con.commit()
    proc = cli("runs", "list", "--json")
    assert proc.returncode == 0, proc.stderr
    assert as_json(proc)["warnings"]
    assert len(backups(db)) == 1


def test_a_schema_name_that_is_not_utf8_is_damage(cli: Cli, repo: Path) -> None:
    """A flipped byte that makes a schema name invalid UTF-8 (even SQLite's error
    message about it cannot be decoded) is damage, not an internal error."""
    db = journal_with_runs(cli, repo, runs=1)
    with closing(sqlite3.connect(db)) as con:
        con.execute("PRAGMA writable_schema=ON")
        con.execute(
            "UPDATE sqlite_master SET name='sqlite_autoindex_recaps_' || CAST(x'd9' AS TEXT) "
            "WHERE name='sqlite_autoindex_recaps_1'"
        )
        con.commit()
    proc = cli("runs", "list", "--json")
    assert proc.returncode == 0, proc.stderr
    assert "internal error" not in proc.stderr
    assert as_json(proc)["warnings"]
    assert len(backups(db)) == 1
