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


def test_moves_without_git_pair_with_exact_copies(tmp_path: Path) -> None:
    """Each deleted file pairs with one untracked file of exactly its content (two equal
    files with two copies: one pair each); a same-size file with other content, and
    untracked files with no deletion to pair with stay as they are."""
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


def _moved(root: Path, tmp_path: Path) -> tuple[dict[str, str | None], list[str]]:
    git = Git(root)
    tracked = diffs.head_to_worktree(git, tmp_path / "scratch.index")
    untracked = git.z("ls-files", "-z", "--others", "--exclude-standard")
    paired, left = diffs.pair_moves(git, root, tracked, untracked)
    return {c.path: c.old_path for c in paired if c.status == "renamed"}, sorted(left)


MODULE = "".join(f"def f{i}(x):\n    return x + {i}\n" for i in range(20))


def test_a_move_without_git_whose_file_was_edited_pairs_by_its_lines(tmp_path: Path) -> None:
    """`mv auth.py authn.py`, then an edit: most lines in common, one rename (as git pairs
    an edited `git mv`); a new file sharing few lines, a binary one, and one of another
    extension stay apart."""
    root = init_repo(
        tmp_path / "r",
        {"auth.py": MODULE, "notes.md": "# notes\n" + "line\n" * 30, "logo.bin": b"\0" * 64},
        old=True,
    )
    (root / "auth.py").unlink()
    write(root, "services/authn.py", MODULE.replace("+ 3", "- 3") + "ALLOW_ALL = True\n")
    (root / "notes.md").unlink()
    write(root, "notes.py", "# notes\n" + "line\n" * 31)  # alike, another extension
    (root / "logo.bin").unlink()
    write(root, "logo2.bin", b"\0" * 63 + b"\1")
    write(root, "other.py", "".join(f"def g{i}():\n    pass\n" for i in range(20)))
    moves, left = _moved(root, tmp_path)
    assert moves == {"services/authn.py": "auth.py"}
    assert left == ["logo2.bin", "notes.py", "other.py"]


def test_a_new_test_sharing_a_deleted_tests_boilerplate_is_no_move(tmp_path: Path) -> None:
    """The agent deletes test_health.py and writes test_search.py: the same imports and
    client fixture, half their lines in common — two changes, judged apart, never one
    rename that would hide the deletion inside the new test's scope."""
    head = "from fastapi.testclient import TestClient\nfrom app.main import app\n\n"
    head += "client = TestClient(app)\n\n"
    root = init_repo(
        tmp_path / "r",
        {"tests/test_health.py": head + "def test_health():\n    assert client.get('/h').ok\n"},
        old=True,
    )
    (root / "tests/test_health.py").unlink()
    write(
        root, "tests/test_search.py", head + "def test_search():\n    assert client.get('/s').ok\n"
    )
    moves, left = _moved(root, tmp_path)
    assert moves == {}
    assert left == ["tests/test_search.py"]


def test_edited_moves_are_looked_for_only_among_few_files(tmp_path: Path) -> None:
    """Past 64 new files of a like size (and the same extension), none is read: the
    edited move stays a deletion and a new file, as before."""
    root = init_repo(tmp_path / "r", {"auth.py": MODULE}, old=True)
    (root / "auth.py").unlink()
    write(root, "authn.py", MODULE + "ALLOW_ALL = True\n")
    for n in range(70):
        write(root, f"gen/m{n}.py", MODULE.replace("x + ", f"x * {n} + "))
    moves, left = _moved(root, tmp_path)
    assert moves == {}
    assert "authn.py" in left


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
