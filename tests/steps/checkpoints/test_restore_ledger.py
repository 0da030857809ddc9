"""The restore ledger: a restore records its generation, owner and paths while it runs and
removes the entry when it ends; a killed restore's entry lets a later restore (any paths)
or an abort of its run remove exactly its temp files."""

from __future__ import annotations

from pathlib import Path

from vibflow_testing.repo import write

from vibflow.steps.checkpoints import leftovers, restore
from vibflow.steps.recovery.lease import LeaseFile


def _killed(repo: Path, scratch: Path, tag: int, owner: str, paths: list[str]) -> list[Path]:
    """What a restore killed mid-way leaves: its ledger entry and a temp file per path."""
    leftovers.ledger_open(scratch, tag, owner, paths)
    temps = [leftovers.temp_for(repo / p, tag) for p in paths]
    for tmp in temps:
        tmp.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text("half a restore\n", encoding="utf-8")
    return temps


def test_a_later_restore_sweeps_a_killed_ones_temps_wherever_they_are(repo: Path) -> None:
    """A restore of other paths removes an older killed restore's temp files in folders it
    never touches itself, and that restore's ledger entry; its own entry is gone after."""
    scratch = repo / ".vibflow" / "recovery"
    temps = _killed(repo, scratch, 3, "run_a", ["far/away/a.py", "b.py"])
    lookalike = leftovers.temp_for(repo / "far/away/c.py", 3)  # not a path it wrote
    write(repo, lookalike.relative_to(repo).as_posix(), "user's\n")
    item = restore.Item("new.txt", "write", "100644", "0" * 40)
    lease = LeaseFile(scratch).acquire("op_later")
    try:
        restore.restore_items(
            repo, [(item, b"x\n")], lease.commit, tag=4, scratch=scratch, owner="run_b"
        )
    finally:
        lease.release()
    assert not any(t.exists() for t in temps)
    assert lookalike.exists()
    assert list((scratch / "restores").glob("*.json")) == []
    assert (repo / "new.txt").read_text(encoding="utf-8") == "x\n"


def test_an_abort_sweeps_only_its_own_runs_restores(repo: Path) -> None:
    """sweep_ledger(owner=...) removes that run's restore temps and entry, and leaves
    another run's alone."""
    scratch = repo / ".vibflow" / "recovery"
    mine = _killed(repo, scratch, 5, "run_mine", ["x/one.py"])
    theirs = _killed(repo, scratch, 6, "run_theirs", ["y/two.py"])
    assert leftovers.sweep_ledger(repo, scratch, owner="run_mine") == 1
    assert not mine[0].exists()
    assert theirs[0].exists()
    assert [p.name for p in (scratch / "restores").glob("*.json")] == ["6.json"]
