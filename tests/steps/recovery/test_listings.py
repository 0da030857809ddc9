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

from vibflow.steps.recovery import git_memo, listings
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


def test_a_dropped_guess_keeps_no_count_under_a_change_git_no_longer_lists(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The guess lists p.py as added; git now lists q.py renamed to p.py. The rename's
    counts are never kept under the guessed 'added' change, so once q.py is back,
    p.py is counted as the added file it is again."""
    monkeypatch.setattr(git_memo, "RACY_SECONDS", 0.0)
    body = "".join(f"line {i}\n" for i in range(10))
    root = init_repo(tmp_path / "r", {"q.py": body}, old=True)
    write(root, "p.py", body.replace("line 3", "LINE 3"))
    git(root, "add", "p.py")
    cache = AdviceCache.for_root(root)
    for _ in range(3):  # the tree holds still: the next preview guesses
        _plan(root, cache)
    write(root, "p.py", body.replace("line 3", "LINE 3") + "extra\n")
    (root / "q.py").unlink()  # git now lists q.py -> p.py
    _plan(root, cache)
    git(root, "checkout", "--", "q.py")  # p.py is added again
    warm = _files(_plan(root, cache))
    assert warm == _files(_plan(root, None))
    assert [(p, s, a, d) for p, s, _, a, d, _ in warm] == [("p.py", "added", 11, 0)]


def test_a_very_large_listing_is_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bounded memory for the server's life: a listing over the bound is not kept."""
    monkeypatch.setattr(listings, "MAX_KEPT", 3)
    last = LastListings()
    big: Listed = ([], ["a", "b", "c", "d"])
    last.saw("c1", big)
    last.saw("c1", big)
    assert last.guess("c1") is None
    small: Listed = ([], ["a"])
    last.saw("c1", small)
    last.saw("c1", small)
    assert last.guess("c1") == small
