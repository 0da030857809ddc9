"""The one-run ``--raw --numstat`` diff listing is read exactly, odd names included."""

from __future__ import annotations

from pathlib import Path

from vibflow_testing.git import run_git
from vibflow_testing.repo import init_repo, write

from vibflow.steps.workspace import diffs
from vibflow.steps.workspace.git import Git

ODD = [":colon.py", "tab\tname.py", "new\nline.py", "café.py", "space name.py", "1\t2\t3"]


def changes_by_path(root: Path) -> dict[str, diffs.Change]:
    found = diffs.head_to_worktree(Git(root), root / ".vibflow" / "diff.index")
    return {c.path: c for c in found}


def test_odd_names_renames_binaries_and_deletions(tmp_path: Path) -> None:
    files = {name: f"line one of {name!r}\n" for name in ODD}
    files["moved/old.py"] = "".join(f"def f{i}(): return {i}\n" for i in range(30))
    files["gone.py"] = "bye\n"
    root = init_repo(tmp_path / "r", files, old=True)
    write(root, "blob.bin", b"\x00\x01\x02" * 50)
    run_git(root, "add", "blob.bin")
    run_git(root, "commit", "-q", "-m", "binary")
    for name in ODD:
        write(root, name, f"line one of {name!r}\nline two\n")
    run_git(root, "mv", "moved/old.py", "moved/new.py")
    (root / "gone.py").unlink()
    write(root, "blob.bin", b"\x00\x09" * 70)

    got = changes_by_path(root)

    assert sorted(got) == sorted([*ODD, "moved/new.py", "gone.py", "blob.bin"])
    for name in ODD:
        assert (got[name].status, got[name].added_lines, got[name].deleted_lines) == (
            "modified",
            1,
            0,
        ), name
    moved = got["moved/new.py"]
    assert (moved.status, moved.old_path, moved.added_lines, moved.deleted_lines) == (
        "renamed",
        "moved/old.py",
        0,
        0,
    )
    assert (got["gone.py"].status, got["gone.py"].deleted_lines) == ("deleted", 1)
    assert got["blob.bin"].binary
    assert got["blob.bin"].added_lines is None


def test_a_repository_without_commits_lists_staged_files_as_added(tmp_path: Path) -> None:
    root = init_repo(tmp_path / "r")
    write(root, ":first.py", "a\nb\n")
    run_git(root, "add", "--", ":(literal):first.py")
    got = changes_by_path(root)
    assert (got[":first.py"].status, got[":first.py"].added_lines) == ("added", 2)


def test_moves_without_git_pair_with_exact_copies_only(tmp_path: Path) -> None:
    """Each deleted file pairs with one untracked file of exactly its content (two equal
    files with two copies: one pair each); a same-size file with other content, an edited
    copy, and untracked files with no deletion to pair with stay as they are."""
    root = init_repo(
        tmp_path / "r",
        {"a.py": "same\n", "b.py": "same\n", "c.py": "cccc\n", "d.py": "dddd\n", "e.py": "ee\n"},
        old=True,
    )
    for old, new in (("a.py", "x/a2.py"), ("b.py", "x/b2.py"), ("c.py", "c2.py")):
        write(root, new, (root / old).read_bytes())
        (root / old).unlink()
    (root / "d.py").unlink()
    write(root, "d2.py", "DDDD\n")  # same size as d.py, other content
    write(root, "unrelated.py", "zz\n")
    git = Git(root)
    tracked = diffs.head_to_worktree(git, tmp_path / "scratch.index")
    untracked = git.z("ls-files", "-z", "--others", "--exclude-standard")
    paired, left = diffs.pair_moves(git, root, tracked, untracked)
    moves = {c.path: c.old_path for c in paired if c.status == "renamed"}
    assert moves["c2.py"] == "c.py"
    assert {moves["x/a2.py"], moves["x/b2.py"]} == {"a.py", "b.py"}
    assert {c.path for c in paired if c.status == "deleted"} == {"d.py"}
    assert sorted(left) == ["d2.py", "unrelated.py"]


def test_a_file_removed_from_the_index_but_kept_is_one_deletion(tmp_path: Path) -> None:
    """`git rm --cached a.py` leaves a.py untracked on disk: one change (the deletion),
    never a "rename" of a.py to itself."""
    root = init_repo(tmp_path / "r", {"a.py": "same\n", "b.py": "bb\n"}, old=True)
    run_git(root, "rm", "-q", "--cached", "a.py")
    git = Git(root)
    tracked = diffs.head_to_worktree(git, tmp_path / "scratch.index")
    untracked = git.z("ls-files", "-z", "--others", "--exclude-standard")
    assert untracked == ["a.py"]
    paired, left = diffs.pair_moves(git, root, tracked, untracked)
    assert [(c.path, c.status, c.old_path) for c in paired] == [("a.py", "deleted", None)]
    assert left == []
