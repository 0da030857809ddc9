"""A warm process's line counts are the one-run listing's, whatever the tree did
between two previews: kept only under what pins them, counted again (by name or
by the whole listing) for everything else."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from vibflow_testing.git import git
from vibflow_testing.repo import init_repo, write

from vibflow.steps.recovery import git_memo, line_counts
from vibflow.steps.recovery.git_memo import Pinned
from vibflow.steps.workspace import diffs
from vibflow.steps.workspace.git import Git

BODY = "".join(f"line {i}\n" for i in range(40))


@pytest.fixture(autouse=True)
def settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file written a moment ago is never kept (git_memo's racy window); these
    tests write and read back at once, so the window is closed for them."""
    monkeypatch.setattr(git_memo, "RACY_SECONDS", 0.0)


def _cold(root: Path) -> list[tuple[object, ...]]:
    found = diffs.head_to_worktree(Git(root), root / ".vibflow" / "cold.index")
    return sorted(
        (c.path, c.status, c.old_path, c.added_lines, c.deleted_lines, c.binary) for c in found
    )


class Recording(Git):
    """Git, noting each command it ran: the whole listings with counts (from HEAD)
    and the counts read by name (no revision) apart."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.ran: list[str] = []

    def run(self, *args: str, **kw: Any) -> bytes:
        name = args[0]
        if name == "diff" and "--numstat" in args:
            named = args[args.index("--") - 1] == "--no-abbrev"  # no revision before --
            name = "diff: counted by name" if named else "diff: whole listing"
        self.ran.append(name)
        return super().run(*args, **kw)


def _warm(root: Path, kept: Pinned, g: Git | None = None) -> list[tuple[object, ...]]:
    g = g or Git(root)
    scratch = root / ".vibflow" / "warm.index"
    base = g.head() or diffs.EMPTY_TREE
    names = diffs.head_to_worktree(g, scratch, base, counts=False)
    assert all(c.added_lines is None and not c.binary for c in names)
    found = line_counts.fill(g, root, scratch, base, names, kept)
    return sorted(
        (c.path, c.status, c.old_path, c.added_lines, c.deleted_lines, c.binary) for c in found
    )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    files = {f"src/m{i}.py": BODY for i in range(6)}
    files["img.dat"] = "plain text for now\n"
    files["gone.txt"] = BODY
    root = init_repo(tmp_path / "r", files, old=True)
    (root / ".vibflow").mkdir()
    return root


def test_counts_are_the_listings_through_every_kind_of_change(repo: Path) -> None:
    kept = Pinned()
    write(repo, "src/m0.py", BODY + "added\n")  # not staged
    write(repo, "src/m1.py", BODY.replace("line 3\n", ""))
    git(repo, "add", "src/m1.py")  # staged only
    write(repo, "src/m2.py", BODY + "one\n")
    git(repo, "add", "src/m2.py")
    write(repo, "src/m2.py", BODY + "one\ntwo\n")  # staged, then edited again
    git(repo, "mv", "src/m3.py", "src/moved.py")  # a rename
    (repo / "gone.txt").unlink()  # deleted, not staged
    write(repo, "new.py", "a\nb\n")
    git(repo, "add", "-N", "new.py")  # intent to add
    write(repo, "img.dat", b"\x00\x01binary now")

    want = _cold(repo)
    assert _warm(repo, kept) == want  # nothing kept yet: counted
    hits = kept.hits
    assert _warm(repo, kept) == want  # all kept
    assert kept.hits - hits == len(want)


def test_an_edited_file_is_counted_again_by_name(repo: Path) -> None:
    kept = Pinned()
    write(repo, "src/m0.py", BODY + "added\n")
    write(repo, "src/m4.py", "short\n")
    assert _warm(repo, kept) == _cold(repo)
    write(repo, "src/m0.py", BODY + "added\nand more\nand more\n")
    spy = Recording(repo)
    assert _warm(repo, kept, spy) == _cold(repo)
    # Counted by name (one file, not staged), not by a second whole listing.
    assert spy.ran.count("diff: counted by name") == 1
    assert "diff: whole listing" not in spy.ran
    got = {row[0]: row for row in _warm(repo, kept)}
    assert got["src/m0.py"][3:5] == (3, 0)


def test_staging_a_kept_file_or_a_new_attribute_is_seen(repo: Path) -> None:
    kept = Pinned()
    write(repo, "src/m0.py", BODY + "added\n")
    write(repo, "img.dat", "plain text now changed\n")
    assert _warm(repo, kept) == _cold(repo)
    # A new .gitattributes makes git call the file binary: its kept count is stale.
    write(repo, ".gitattributes", "*.dat -diff\n")
    want = _cold(repo)
    assert _warm(repo, kept) == want
    assert {r[0]: r for r in want}["img.dat"][5] is True
    # Staged, then edited: index and work tree both differ from HEAD.
    git(repo, "add", "src/m0.py")
    write(repo, "src/m0.py", BODY + "added\nagain\n")
    assert _warm(repo, kept) == _cold(repo)


def test_a_kept_count_is_read_again_when_the_config_moves(repo: Path) -> None:
    """A kept count is checked against the config git resolves: after a change it
    is read again, not served."""
    kept = Pinned()
    write(repo, "src/m0.py", BODY.replace("line 7\n", "line seven\n") + "tail\n")
    assert _warm(repo, kept) == _cold(repo)
    spy = Recording(repo)
    assert _warm(repo, kept, spy) == _cold(repo)
    assert not any(r.startswith("diff: ") for r in spy.ran)  # kept, and still right
    git(repo, "config", "diff.algorithm", "histogram")
    spy = Recording(repo)
    assert _warm(repo, kept, spy) == _cold(repo)
    assert "diff: counted by name" in spy.ran


def test_many_unkept_files_are_counted_in_one_listing(repo: Path) -> None:
    for i in range(line_counts.MAX_NAMED + 5):
        write(repo, f"bulk/f{i}.txt", f"{i}\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "bulk")
    for i in range(line_counts.MAX_NAMED + 5):
        write(repo, f"bulk/f{i}.txt", f"{i}\nmore\n")
    assert _warm(repo, Pinned()) == _cold(repo)


def test_before_the_first_commit(tmp_path: Path) -> None:
    root = tmp_path / "empty"
    root.mkdir()
    git(root, "init", "-q")
    (root / ".vibflow").mkdir()
    write(root, "a.py", "x\n")
    git(root, "add", "a.py")
    assert _warm(root, Pinned()) == _cold(root)


def test_intent_to_add_and_deleted_files_are_counted_by_name(repo: Path) -> None:
    kept = Pinned()
    write(repo, "new.py", "a\n")
    git(repo, "add", "-N", "new.py")
    write(repo, "src/m5.py", BODY + "x\n")
    assert _warm(repo, kept) == _cold(repo)
    write(repo, "new.py", "a\nb\nc\n")
    (repo / "gone.txt").unlink()
    spy = Recording(repo)
    assert _warm(repo, kept, spy) == _cold(repo)
    assert spy.ran.count("diff: counted by name") == 1  # the two, in one run
    assert "diff: whole listing" not in spy.ran
    # Now staged for real: the index no longer holds what HEAD holds (nothing).
    git(repo, "add", "new.py")
    write(repo, "new.py", "a\nb\nc\nd\n")
    spy = Recording(repo)
    assert _warm(repo, kept, spy) == _cold(repo)
    assert spy.ran.count("diff: whole listing") == 1


def _binary_after(repo: Path, kept: Pinned, change: Any) -> None:
    """A kept count, then ``change`` (which makes git call the file binary): the warm
    counts are the listing's again."""
    write(repo, "src/m0.py", BODY + "added\n")
    assert _warm(repo, kept) == _cold(repo)
    change()
    want = _cold(repo)
    assert {r[0]: r for r in want}["src/m0.py"][5] is True
    assert _warm(repo, kept) == want


def test_an_ignored_gitattributes_is_seen(repo: Path) -> None:
    """An ignored .gitattributes is in no listing, yet git applies it."""
    write(repo, ".gitignore", "src/.gitattributes\n")
    git(repo, "add", ".gitignore")
    git(repo, "commit", "-q", "-m", "ignore")
    _binary_after(repo, Pinned(), lambda: write(repo, "src/.gitattributes", "*.py -diff\n"))


def test_a_gitattributes_only_in_the_index_is_seen(repo: Path) -> None:
    """Staged, then deleted from the work tree: git falls back to the index's copy."""

    def stage_and_drop() -> None:
        write(repo, "src/.gitattributes", "*.py -diff\n")
        git(repo, "add", "src/.gitattributes")
        (repo / "src" / ".gitattributes").unlink()

    _binary_after(repo, Pinned(), stage_and_drop)


def test_an_attributes_file_named_in_config_is_seen(repo: Path, tmp_path: Path) -> None:
    """core.attributesFile, and a config file pulled in by include.path."""
    attrs, included = tmp_path / "attrs", tmp_path / "included.cfg"
    attrs.write_text("")
    included.write_text("")
    git(repo, "config", "core.attributesFile", str(attrs))
    _binary_after(repo, Pinned(), lambda: attrs.write_text("*.py -diff\n"))
    git(repo, "config", "--unset", "core.attributesFile")
    write(repo, ".gitattributes", "*.py diff=odd\n")
    git(repo, "config", "include.path", str(included))
    kept = Pinned()
    assert _warm(repo, kept) == _cold(repo)
    _binary_after(repo, kept, lambda: included.write_text('[diff "odd"]\n\tbinary = true\n'))


def test_a_linked_work_trees_common_config_is_seen(repo: Path, tmp_path: Path) -> None:
    """In a linked work tree, config and info/attributes live in the common git dir."""
    linked = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", str(linked), "-b", "side")
    (linked / ".vibflow").mkdir()
    _binary_after(linked, Pinned(), lambda: write(repo, ".git/info/attributes", "*.py -diff\n"))


@pytest.mark.parametrize("algorithm", ["histogram", "patience"])
def test_counts_by_name_follow_the_configured_diff_algorithm(repo: Path, algorithm: str) -> None:
    """A count read by name honours diff.algorithm, as a cold run's listing does
    (git's plumbing diff-files does not)."""
    git(repo, "config", "diff.algorithm", algorithm)
    write(repo, "src/m0.py", "a\nb\nc\n{\n}\nd\n{\n}\ne\n")
    git(repo, "commit", "-q", "-am", "shape")
    kept = Pinned()
    assert _warm(repo, kept) == _cold(repo)
    write(repo, "src/m0.py", "a\n{\n}\nb\nX\n{\n}\nc\nd\ne\n")
    spy = Recording(repo)
    want = _cold(repo)
    assert _warm(repo, kept, spy) == want
    assert "diff: counted by name" in spy.ran
    git(repo, "config", "--unset", "diff.algorithm")
    assert _warm(repo, kept) == _cold(repo)  # the setting moved: counted again


def test_the_whole_listing_reads_through_a_copy_of_its_own(repo: Path) -> None:
    """Counts that need the whole listing (a staged change) never copy over the
    preview's scratch index (its diff may still be reading it): they list through
    a copy of their own, removed after."""
    write(repo, "src/m1.py", BODY + "staged\n")
    git(repo, "add", "src/m1.py")
    indexes: list[str] = []

    class Watching(Recording):
        def run(self, *args: str, **kw: Any) -> bytes:
            if args[0] == "diff" and "--numstat" in args and "-M" in args:
                indexes.append(kw["env"]["GIT_INDEX_FILE"])
            return super().run(*args, **kw)

    g = Watching(repo)
    scratch = repo / ".vibflow" / "warm.index"
    base = g.head() or diffs.EMPTY_TREE
    names = diffs.head_to_worktree(g, scratch, base, counts=False)
    counts = line_counts.LineCounts(g, repo, scratch, base, Pinned())
    _, missing = counts.known(names)
    found = counts.count(names, missing)
    assert "diff: whole listing" in g.ran
    assert found["src/m1.py"] == (1, 0, False)
    assert len(indexes) == 1
    assert Path(indexes[0]).parent == scratch.parent
    assert Path(indexes[0]) != scratch
    assert sorted(p.name for p in scratch.parent.iterdir()) == ["warm.index"]


def test_a_deleted_file_back_by_the_count_keeps_no_count(repo: Path) -> None:
    """Listed deleted, back with new text by the time it is counted: its counts are
    the file's now, but none is kept under the deletion (whose key has no file
    state to pin it), so once it is deleted again it counts as deleted."""
    g = Git(repo)
    scratch = repo / ".vibflow" / "warm.index"
    base = g.head() or diffs.EMPTY_TREE
    kept = Pinned()
    (repo / "gone.txt").unlink()
    names = diffs.head_to_worktree(g, scratch, base, counts=False)
    write(repo, "gone.txt", "back again\n")  # between the listing and the count
    counts = line_counts.LineCounts(g, repo, scratch, base, kept)
    _, missing = counts.known(names)
    counts.count(names, missing)
    (repo / "gone.txt").unlink()
    assert _warm(repo, kept) == _cold(repo)
