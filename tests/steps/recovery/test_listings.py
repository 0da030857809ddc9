"""A warm advisor works from its last listings while git lists again: the guess
stands only when git lists the same, and a wrong or failing guess changes
nothing in the plan (steps/recovery/listings.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from vibflow_testing.git import git
from vibflow_testing.repo import init_repo, write

from vibflow.steps.recovery.early_listing import Listed
from vibflow.steps.recovery.git_memo import AdviceCache
from vibflow.steps.recovery.listings import LastListings
from vibflow.steps.workspace import diffs
from vibflow.wiring import Project


class Planted(LastListings):
    """Last listings that offer the test's guess (once it has one), noting each
    guess they offered."""

    def __init__(self) -> None:
        super().__init__()
        self.planted: Listed | None = None
        self.offered = 0

    def guess(self, start: str) -> Listed | None:
        found = self.planted if self.planted is not None else super().guess(start)
        self.offered += found is not None
        return found


def _files(plan: dict[str, Any]) -> list[tuple[Any, ...]]:
    return sorted(
        (
            c["path"],
            c["status"],
            c.get("old_path"),
            c.get("added_lines"),
            c.get("deleted_lines"),
            c.get("generated", False),
        )
        for c in plan["changed"]
    )


def _plan(root: Path, cache: AdviceCache | None) -> dict[str, Any]:
    project = Project(root, tool="cli")
    project.advice_cache = cache
    try:
        payload = project.recovery.advise().payload
    finally:
        project.close()
    return {k: v for k, v in payload.items() if k not in ("plan_id", "options", "warnings")}


@pytest.fixture
def warm(tmp_path: Path) -> tuple[Path, AdviceCache, Planted]:
    files = {f"src/m{i}.py": f"VALUE = {i}\n" for i in range(8)}
    files["README.md"] = "# project\n"
    root = init_repo(tmp_path / "r", files, old=True)
    write(root, "src/m1.py", "VALUE = 100\n")
    write(root, "notes.txt", "scratch\n")
    (root / "src/m2.py").unlink()
    planted = Planted()
    base = AdviceCache.for_root(root)
    cache = AdviceCache(base.git, base.held, base.files, planted)
    return root, cache, planted


def test_a_guess_equal_to_what_git_lists_gives_the_cold_plan(
    warm: tuple[Path, AdviceCache, Planted],
) -> None:
    root, cache, planted = warm
    first = _plan(root, cache)  # nothing kept yet: works from git's listings
    second = _plan(root, cache)  # one listing kept, not yet seen twice: git's again
    assert planted.offered == 0
    third = _plan(root, cache)  # the tree held still: works from the kept listings
    assert planted.offered == 1
    assert third == second == first == _plan(root, None)


def test_a_guess_is_offered_only_while_the_tree_holds_still() -> None:
    """After a listing that differs from the one before, no guess until two agree."""
    last = LastListings()
    a: Listed = ([], ["a.py"])
    b: Listed = ([], ["a.py", "b.py"])
    assert last.guess("c1") is None
    last.saw("c1", a)
    assert last.guess("c1") is None  # seen once
    last.saw("c1", a)
    assert last.guess("c1") == a
    assert last.guess("c2") is None  # another start: HEAD moved
    last.saw("c1", b)  # the guess missed
    assert last.guess("c1") is None
    last.saw("c1", b)
    assert last.guess("c1") == b
    last.saw("c2", b)  # the same names from another commit are another listing
    assert last.guess("c2") is None


def test_a_guess_git_does_not_confirm_is_dropped(
    warm: tuple[Path, AdviceCache, Planted],
) -> None:
    """A planted listing naming files that do not exist, and leaving out the real
    changes: the plan is the cold one, every change git lists and nothing else."""
    root, cache, planted = warm
    planted.planted = (
        [diffs.Change("src/m5.py", "modified", None, None, None, False, "0" * 40)],
        ["ghost.py", "notes.txt"],
    )
    plan = _plan(root, cache)
    assert plan == _plan(root, None)
    paths = [c[0] for c in _files(plan)]
    assert "ghost.py" not in paths
    assert "src/m5.py" not in paths
    assert {"src/m1.py", "src/m2.py", "notes.txt"} <= set(paths)


def test_a_guess_that_cannot_be_worked_out_is_dropped(
    warm: tuple[Path, AdviceCache, Planted],
) -> None:
    """Work from the guess that raises (a listing no git could give) is only a lost
    guess: the preview answers from git's listings."""
    root, cache, planted = warm
    planted.planted = ([diffs.Change(None, "modified")], [])  # type: ignore[arg-type]
    assert _plan(root, cache) == _plan(root, None)


def test_the_guess_follows_the_tree_through_edits_and_a_commit(
    warm: tuple[Path, AdviceCache, Planted],
) -> None:
    """Each edit between two warm previews: the same plan as a cold one, whether the
    listings held (an edit of a changed file) or moved (a new file, staging, a commit)."""
    root, cache, planted = warm
    _plan(root, cache)
    edits: list[Callable[[], object]] = [
        lambda: write(root, "src/m1.py", "VALUE = 101\n"),  # the same listings
        lambda: write(root, "src/m1.py", "VALUE = 102\nMORE = 1\n"),  # still the same
        lambda: write(root, "src/new.py", "NEW = 1\n"),  # a new untracked name
        lambda: git(root, "add", "-A"),  # staged: statuses move
        lambda: git(root, "commit", "-qm", "agent"),  # HEAD moves
        lambda: write(root, "src/m3.py", "VALUE = 3\n# touched\n"),
        lambda: write(root, "src/m3.py", "VALUE = 3\n# touched again\n"),
        (root / "src/m3.py").unlink,  # its status moves
    ]
    for edit in edits:
        edit()
        assert _plan(root, cache) == _plan(root, None)
    assert planted.offered >= 3
