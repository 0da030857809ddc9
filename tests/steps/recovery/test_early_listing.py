"""A fresh command's git listings, started before vibflow is loaded, are the
preview's only while they list from HEAD; either way they leave nothing behind
(steps/recovery/early_listing.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from vibflow_testing.git import git
from vibflow_testing.repo import init_repo, write

from vibflow.steps.recovery import listings
from vibflow.steps.recovery.early_listing import start_early
from vibflow.wiring import Project


def _plan(project: Project) -> dict[str, Any]:
    try:
        payload = project.recovery.advise().payload
    finally:
        project.close()
    return {k: v for k, v in payload.items() if k not in ("plan_id", "options", "warnings")}


def _scratch_left(root: Path) -> list[str]:
    return [p.name for p in (root / ".vibflow" / "recovery").iterdir() if ".index" in p.name]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    files = {f"src/m{i}.py": f"VALUE = {i}\n" for i in range(6)}
    root = init_repo(tmp_path / "r", files, old=True)
    write(root, "src/m1.py", "VALUE = 100\n")
    write(root, "notes.txt", "scratch\n")
    return root


def test_listings_started_early_give_the_plan_a_preview_lists_itself(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    early = start_early(root)
    assert early is not None
    cold = _plan(Project(root))
    with monkeypatch.context() as patched:

        def no_second_listing(*_: object, **__: object) -> None:
            raise AssertionError("the preview listed again instead of taking the early listings")

        patched.setattr(listings, "list_changes", no_second_listing)
        taken = _plan(Project(root, early_listing=early))
    assert taken == cold
    assert _scratch_left(root) == []


def test_listings_from_before_head_moved_are_not_taken(root: Path) -> None:
    """A commit between the early start and the preview: the early listings (of the
    old HEAD) would show the committed files as changed; the preview lists again."""
    early = start_early(root)
    assert early is not None
    git(root, "add", "-A")
    git(root, "commit", "-qm", "agent")
    write(root, "src/m2.py", "VALUE = 200\n")
    plan = _plan(Project(root, early_listing=early))
    assert plan == _plan(Project(root))
    assert [c["path"] for c in plan["changed"]] == ["src/m2.py"]
    assert _scratch_left(root) == []


def test_listings_no_preview_takes_remove_their_copy(root: Path) -> None:
    early = start_early(root)
    assert early is not None
    early.tracked.result()
    early.close()
    assert _scratch_left(root) == []


def test_no_early_listing_outside_a_repository(tmp_path: Path) -> None:
    """Only a head start: where git cannot list, the command reports it as before."""
    assert start_early(tmp_path / "missing") is None
