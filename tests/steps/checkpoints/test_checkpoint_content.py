"""What a checkpoint holds (DESIGN §4.1): the working tree exactly, names, modes and links
byte-exact; ignored files, vibflow's state, oversized files and nested repositories left
out and listed. Real git repositories, no mocks."""

from __future__ import annotations

import os
import time
import unicodedata
from pathlib import Path

import pytest
from vibflow_testing.git import gtext, run_git
from vibflow_testing.repo import init_repo, make_store, with_submodule, write
from vibflow_testing.snapshots import (
    assert_same_state,
    blob,
    busy_repo,
    content,
    oracle_tree,
    tree_of,
    user_state,
)

# -- 2. content ---------------------------------------------------------------------------


def test_checkpoint_holds_the_working_tree_not_the_index(tmp_path: Path) -> None:
    """Staged, unstaged, deleted and untracked files appear as on disk; ignored ones never."""
    root = busy_repo(tmp_path / "r")
    run_git(root, "rm", "-q", "src/x.py")
    meta = make_store(root).create("busy")
    tree = tree_of(root, meta.commit)
    assert content(root, meta, "a.txt") == b"a2\n"
    assert content(root, meta, "b.txt") == b"b staged then edited\n"
    assert content(root, meta, "staged_new.txt") == b"new and staged\n"
    assert content(root, meta, "notes/new.md") == b"# notes\n"
    assert "gone.txt" not in tree
    assert "src/x.py" not in tree
    for ignored in (".env", "node_modules/dep/index.js", "app.log"):
        assert ignored not in tree
    assert meta.tree == oracle_tree(root)
    assert meta.file_count == len(tree)
    assert meta.untracked_count == 2


def test_untracked_files_in_new_directories_are_listed_one_by_one(tmp_path: Path) -> None:
    """A new ``pkg/__pycache__/x.pyc`` is its own entry, never a collapsed directory."""
    root = init_repo(tmp_path / "r", {"README.md": "hi\n"})
    write(root, "pkg/__init__.py", "")
    write(root, "pkg/__pycache__/x.pyc", b"\x00pyc")
    write(root, "deep/a/b/c/d.txt", "deep\n")
    meta = make_store(root).create()
    tree = tree_of(root, meta.commit)
    assert {"pkg/__init__.py", "pkg/__pycache__/x.pyc", "deep/a/b/c/d.txt"} <= tree.keys()
    assert content(root, meta, "pkg/__pycache__/x.pyc") == b"\x00pyc"
    assert meta.untracked_count == 3


HOSTILE_NAMES = [
    "src/ui/한글.tsx",
    unicodedata.normalize("NFD", "src/ui/한글-nfd.tsx"),
    unicodedata.normalize("NFD", "café.md"),
    unicodedata.normalize("NFC", "café.md"),
    "with space.txt",
    "dir with space/ünïcode/file.md",
    "new\nline.txt",
    "tab\tname.txt",
    'quote".txt',
    "back\\slash.txt",
    "-rf",
    "*.txt",
    "[ab].txt",
    ":(exclude)x",
    os.fsdecode(b"latin1-\xe9.txt"),
]


@pytest.mark.parametrize("tracked", [False, True], ids=["untracked", "tracked-modified"])
def test_hostile_names_are_kept_byte_exact(tmp_path: Path, tracked: bool) -> None:
    """NFC/NFD, whitespace, newline, glob, pathspec-magic and non-UTF-8 names are kept exact."""
    root = init_repo(tmp_path / "r", {"keep.txt": "k\n"})
    write(root, ".gitignore", "secret.txt\n")
    write(root, "secret.txt", "ignored, and *.txt must not pull it in\n")
    for i, name in enumerate(HOSTILE_NAMES):
        write(root, name, f"v1 {i}\n")
    if tracked:
        run_git(root, "add", "-A")
        run_git(root, "commit", "-q", "-m", "names")
        for i, name in enumerate(HOSTILE_NAMES):
            write(root, name, f"v2 edited {i}\n")
    meta = make_store(root).create()
    tree = tree_of(root, meta.commit)
    version = "v2 edited" if tracked else "v1"
    for i, name in enumerate(HOSTILE_NAMES):
        assert name in tree, f"{os.fsencode(name)!r} missing"
        assert blob(root, tree[name][2]) == f"{version} {i}\n".encode()
    assert "secret.txt" not in tree
    assert meta.tree == oracle_tree(root)


def test_executable_bit_is_preserved_both_ways(tmp_path: Path) -> None:
    """Executable bits are 100755 and plain files 100644, whichever way the mode changed."""
    root = init_repo(tmp_path / "r", {"plain.sh": "echo\n", "exec.sh": "echo\n"})
    (root / "exec.sh").chmod(0o755)
    run_git(root, "add", "-A")
    run_git(root, "commit", "-q", "-m", "modes")
    (root / "plain.sh").chmod(0o755)
    (root / "exec.sh").chmod(0o644)
    write(root, "new.sh", "#!/bin/sh\n").chmod(0o755)
    tree = tree_of(root, make_store(root).create().commit)
    assert tree["plain.sh"][0] == "100755"
    assert tree["exec.sh"][0] == "100644"
    assert tree["new.sh"][0] == "100755"


def test_symlinks_are_stored_as_links_never_followed(tmp_path: Path) -> None:
    """Symlinks (outside, to a dir, dangling, replacing a file) are 120000 with the link text."""
    outside = write(tmp_path, "outside/secret.txt", "TOP SECRET\n")
    root = init_repo(tmp_path / "r", {"was_file.txt": "file\n", "d/inner.txt": "inner\n"})
    (root / "to_secret").symlink_to(outside)
    (root / "to_dir").symlink_to("d")
    (root / "dangling").symlink_to("nowhere/at/all")
    (root / "was_file.txt").unlink()
    (root / "was_file.txt").symlink_to("d/inner.txt")
    meta = make_store(root).create()
    tree = tree_of(root, meta.commit)
    expected = {
        "to_secret": str(outside).encode(),
        "to_dir": b"d",
        "dangling": b"nowhere/at/all",
        "was_file.txt": b"d/inner.txt",
    }
    for name, target in expected.items():
        assert tree[name][0] == "120000", name
        assert blob(root, tree[name][2]) == target
    assert not any(p.startswith("to_dir/") for p in tree)
    assert b"TOP SECRET" not in run_git(root, "cat-file", "--batch-all-objects", "--batch")


def test_ignored_files_are_never_snapshotted(tmp_path: Path) -> None:
    """.gitignore, info/exclude and core.excludesFile keep ignored files out of every object."""
    root = init_repo(tmp_path / "r", {".gitignore": ".env\nbuild/\n"})
    (root / ".git" / "info" / "exclude").write_text("local-only.txt\n", encoding="utf-8")
    excludes = write(tmp_path, "global-ignore", "*.secret\n")
    run_git(root, "config", "core.excludesFile", str(excludes))
    for rel in (".env", "config/.env", "build/out.js", "local-only.txt", "keys.secret"):
        write(root, rel, "SECRET=hunter2\n")
    write(root, "ok.txt", "fine\n")
    meta = make_store(root).create()
    assert set(tree_of(root, meta.commit)) == {".gitignore", "ok.txt"}
    objects = run_git(root, "cat-file", "--batch-all-objects", "--batch")
    assert b"hunter2" not in objects


def test_vibflow_state_is_never_snapshotted(tmp_path: Path) -> None:
    """Nothing under .vibflow/ is snapshotted, even when .vibflow/.gitignore is gone."""
    root = init_repo(tmp_path / "r", {"README.md": "hi\n"})
    store = make_store(root)
    write(root, ".vibflow/memory.json", "{}")
    write(root, ".vibflow/flows/mine.yaml", "flow: mine\n")
    store.create()
    (root / ".vibflow" / ".gitignore").unlink()
    write(root, "README.md", "changed\n")
    meta = store.create()
    assert not meta.reused
    assert set(tree_of(root, meta.commit)) == {"README.md"}


def test_untracked_files_over_the_cap_are_skipped_and_listed(tmp_path: Path) -> None:
    """Untracked files over the cap are skipped as too_large; at-cap and tracked files kept."""
    root = init_repo(tmp_path / "r", {"tracked_big.bin": "small\n"})
    store = make_store(root, untracked_size_cap_mb=1)
    cap = 1024 * 1024
    write(root, "at_cap.bin", b"a" * cap)
    write(root, "over/cap.bin", b"b" * (cap + 1))
    write(root, "tracked_big.bin", b"c" * (3 * cap))
    meta = store.create()
    tree = tree_of(root, meta.commit)
    assert "at_cap.bin" in tree
    assert "tracked_big.bin" in tree
    assert "over/cap.bin" not in tree
    assert [(s.path, s.reason, s.size) for s in meta.skipped] == [
        ("over/cap.bin", "too_large", cap + 1)
    ]


def test_default_cap_is_five_megabytes(tmp_path: Path) -> None:
    """With the default policy a 6 MB untracked file is skipped and a 4 MB one kept."""
    root = init_repo(tmp_path / "r", {"README.md": "hi\n"})
    for name, size in (("six.bin", 6 * 1024 * 1024), ("four.bin", 4 * 1024 * 1024)):
        with (root / name).open("wb") as fh:
            fh.truncate(size)
    meta = make_store(root).create()
    assert "four.bin" in tree_of(root, meta.commit)
    assert [(s.path, s.reason) for s in meta.skipped] == [("six.bin", "too_large")]


@pytest.mark.parametrize("with_commit", [False, True], ids=["empty-nested", "nested-with-commit"])
def test_nested_repositories_are_skipped_listed_and_untouched(
    tmp_path: Path, with_commit: bool
) -> None:
    """A nested repository is skipped as nested_repo, none of its files kept, its .git untouched."""
    root = init_repo(tmp_path / "r", {"README.md": "hi\n"})
    nested = init_repo(root / "vendor" / "lib", {"lib.py": "x\n"} if with_commit else None)
    write(nested, "work.py", "uncommitted\n")
    write(root, "vendor/sibling.txt", "mine\n")
    before = user_state(root)
    meta = make_store(root).create()
    assert_same_state(before, user_state(root))
    tree = tree_of(root, meta.commit)
    assert "vendor/sibling.txt" in tree
    assert not any(p.startswith("vendor/lib") for p in tree)
    assert [(s.path, s.reason) for s in meta.skipped] == [("vendor/lib", "nested_repo")]


def test_tracked_submodule_is_kept_as_a_gitlink(tmp_path: Path) -> None:
    """A tracked submodule is a 160000 gitlink at its checked-out commit, its files not copied."""
    root, sub = with_submodule(tmp_path)
    write(sub, "lib.py", "v2\n")
    run_git(sub, "commit", "-q", "-am", "v2")
    write(sub, "dirty.txt", "untracked in the submodule\n")
    before = user_state(root)
    meta = make_store(root).create()
    assert_same_state(before, user_state(root))
    tree = tree_of(root, meta.commit)
    assert tree["sub"] == ("160000", "commit", gtext(sub, "rev-parse", "HEAD"))
    assert not any(p.startswith("sub/") for p in tree)
    assert ".gitmodules" in tree


def _at_start_of_a_second() -> None:
    while time.time() % 1 > 0.2:
        time.sleep(0.01)


def test_an_edit_in_the_same_second_as_git_add_is_not_missed(tmp_path: Path) -> None:
    """A same-size edit in the same second as `git add` (racy git) is in the checkpoint."""
    root = init_repo(tmp_path / "r", {"README.md": "hi\n"})
    _at_start_of_a_second()
    write(root, "f.txt", "1\n")
    run_git(root, "add", "f.txt")
    write(root, "f.txt", "2\n")
    time.sleep(1.1 - time.time() % 1)  # the copy is made in a later second
    assert run_git(root, "diff", "--name-only") == b"f.txt\n"  # git sees the edit
    meta = make_store(root).create()
    assert content(root, meta, "f.txt") == b"2\n"


def test_a_relative_root_works(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A store opened on a relative root path snapshots the same tree as an absolute one."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    write(root, "u.txt", "u\n")
    monkeypatch.chdir(tmp_path)
    meta = make_store(Path("r")).create()
    assert meta.tree == oracle_tree(root)


def test_a_linked_worktree_is_snapshotted_on_its_own(tmp_path: Path) -> None:
    """In a linked worktree the checkpoint is of that worktree; neither worktree changes."""
    main = init_repo(tmp_path / "main", {"f.txt": "main\n"})
    linked = tmp_path / "linked"
    run_git(main, "worktree", "add", "-q", "-b", "wt", str(linked))
    write(main, "f.txt", "edited in main\n")
    write(linked, "f.txt", "edited in linked\n")
    write(linked, "only_linked.txt", "l\n")
    before = (user_state(main), user_state(linked))
    meta = make_store(linked).create()
    assert (user_state(main), user_state(linked)) == before
    assert content(linked, meta, "f.txt") == b"edited in linked\n"
    assert "only_linked.txt" in tree_of(linked, meta.commit)
    assert meta.base_head == gtext(linked, "rev-parse", "HEAD")


def test_a_tracked_file_that_became_a_folder_and_came_back_is_held(tmp_path: Path) -> None:
    """A tracked file replaced by a folder (checkpointed then) and back as a file is in the
    next checkpoint with its new content: the tree equals git's own add -A answer."""
    root = init_repo(tmp_path / "r")
    write(root, "f", "one\n")
    write(root, "keep", "k\n")
    run_git(root, "add", "-A")
    run_git(root, "commit", "-qm", "base")
    store = make_store(root)
    store.create("before")
    (root / "f").unlink()
    write(root, "f/x", "inside\n")
    folder = store.create("a folder")
    assert content(root, folder, "f/x") == b"inside\n"
    (root / "f" / "x").unlink()
    (root / "f").rmdir()
    write(root, "f", "two\n")
    back = store.create("a file again")
    assert content(root, back, "f") == b"two\n"
    assert tree_of(root, back.commit) == tree_of(root, oracle_tree(root))
