"""Checkpoints (DESIGN §4.1): the user's state is never touched, content is exact,
checkpoints survive the user's own history rewrites and gc, reuse, orphans,
retention and diff. Real git repositories, real processes, no mocks."""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import stat
import subprocess
import sys
import textwrap
import time
import unicodedata
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Literal

import pytest
from vibflow_testing.git import git_proc, gtext, run_git
from vibflow_testing.repo import OLD, init_repo, make_store, with_submodule, write

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.steps.checkpoints.models import REF_PREFIX, CheckpointMeta, CheckpointPolicy
from vibflow.steps.checkpoints.retention import to_prune

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

# -- helpers ------------------------------------------------------------------------------


def tree_of(root: Path, rev: str) -> dict[str, tuple[str, str, str]]:
    """``path -> (mode, type, object)`` for every entry of ``rev``, names exact."""
    out = run_git(root, "ls-tree", "-r", "-z", "--full-tree", rev)
    entries: dict[str, tuple[str, str, str]] = {}
    for record in out.split(b"\0"):
        if not record:
            continue
        head, name = record.split(b"\t", 1)
        mode, kind, obj = head.decode().split()
        entries[name.decode("utf-8", "surrogateescape")] = (mode, kind, obj)
    return entries


def blob(root: Path, obj: str) -> bytes:
    return run_git(root, "cat-file", "blob", obj)


def content(root: Path, meta: CheckpointMeta, rel: str) -> bytes:
    return blob(root, tree_of(root, meta.commit or meta.checkpoint_id)[rel][2])


def oracle_tree(root: Path) -> str:
    """The raw plumbing answer: the user's index copied, ``add -A``, ``write-tree``.

    The copy keeps the index's mtime: git decides which entries are racily clean
    by comparing them with the index file's own mtime, so a fresh mtime would
    make it trust stale stat data (see ``test_an_edit_in_the_same_second_...``).
    """
    tmp = root.parent / f"oracle-index-{os.getpid()}"
    tmp.unlink(missing_ok=True)
    user_index = Path(gtext(root, "rev-parse", "--absolute-git-dir")) / "index"
    if user_index.exists():
        shutil.copy2(user_index, tmp)
    try:
        run_git(root, "add", "-A", GIT_INDEX_FILE=str(tmp))
        return gtext(root, "write-tree", GIT_INDEX_FILE=str(tmp))
    finally:
        tmp.unlink(missing_ok=True)


def _fingerprint(path: Path) -> tuple[object, ...]:
    st = path.lstat()
    if stat.S_ISLNK(st.st_mode):
        return ("link", str(path.readlink()))
    if stat.S_ISDIR(st.st_mode):
        return ("dir", st.st_mode)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if path.name.startswith("sharedindex."):
        # git itself freshens a shared index's mtime whenever it reads it (even
        # `ls-files`), so only its bytes are the user's state.
        return ("file", st.st_mode, digest)
    return ("file", st.st_mode, st.st_size, st.st_mtime_ns, digest)


def user_state(root: Path) -> dict[str, object]:
    """Everything of the user's that a checkpoint must never change, byte for byte.

    Every file of the work tree (``.vibflow/`` excepted: it is vibflow's), the
    user's index (bytes *and* mtime), HEAD, config, hooks, reflogs, every ref
    outside ``refs/vibflow/`` and the stash. Object storage and packed-refs are
    left out: writing new objects and vibflow's own refs is allowed.
    """
    state: dict[str, object] = {}
    git_dir = Path(gtext(root, "rev-parse", "--absolute-git-dir"))
    for top, skip in ((root, {".git", ".vibflow"}), (git_dir, {"objects", "refs"})):
        for dirpath, dirnames, filenames in os.walk(top):
            here = Path(dirpath)
            if here == top:
                dirnames[:] = [d for d in dirnames if d not in skip]
            if here.relative_to(top).as_posix().startswith("logs/refs/vibflow"):
                continue
            for name in [*dirnames, *filenames]:
                path = here / name
                rel = path.relative_to(top).as_posix()
                if top == git_dir and rel in {"packed-refs", "logs/refs/vibflow"}:
                    continue
                state[f"{top.name}:{rel}"] = _fingerprint(path)
    refs = run_git(root, "for-each-ref", "--format=%(refname) %(objectname) %(symref)")
    state["refs"] = [ln for ln in refs.decode().splitlines() if not ln.startswith("refs/vibflow/")]
    state["HEAD"] = gtext(root, "rev-parse", "-q", "--verify", "HEAD") if _has_head(root) else None
    state["symbolic HEAD"] = git_proc(root, "symbolic-ref", "-q", "HEAD", check=False).stdout
    state["stash"] = run_git(root, "stash", "list")
    state["status"] = run_git(
        root, "status", "--porcelain=v2", "-z", "-uall", "--", ".", ":(exclude).vibflow"
    )
    return state


def _has_head(root: Path) -> bool:
    return git_proc(root, "rev-parse", "-q", "--verify", "HEAD", check=False).returncode == 0


def assert_same_state(before: dict[str, object], after: dict[str, object]) -> None:
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    assert not changed, f"user state changed: {changed}"


def busy_repo(root: Path) -> Path:
    """A repository mid-work: an extra branch, a tag, a stash, staged and unstaged
    edits, a deletion, untracked and ignored files, an exec bit and a symlink."""
    init_repo(
        root,
        {
            "a.txt": "a1\n",
            "b.txt": "b1\n",
            "gone.txt": "bye\n",
            "src/x.py": "x = 1\n",
            "run.sh": "#!/bin/sh\necho hi\n",
            ".gitignore": ".env\nnode_modules/\n*.log\n",
        },
    )
    (root / "run.sh").chmod(0o755)
    (root / "link").symlink_to("a.txt")
    run_git(root, "add", "-A")
    run_git(root, "commit", "-q", "-m", "exec and link")
    run_git(root, "branch", "feature")
    run_git(root, "tag", "v1")
    write(root, "a.txt", "stashed\n")
    run_git(root, "stash", "push", "-q", "-m", "wip")
    write(root, "a.txt", "a2\n")
    write(root, "b.txt", "b staged\n")
    run_git(root, "add", "b.txt")
    write(root, "b.txt", "b staged then edited\n")
    write(root, "staged_new.txt", "new and staged\n")
    run_git(root, "add", "staged_new.txt")
    (root / "gone.txt").unlink()
    write(root, "pkg/__pycache__/x.pyc", b"\x00\x01pyc")
    write(root, "notes/new.md", "# notes\n")
    write(root, ".env", "SECRET=1\n")
    write(root, "node_modules/dep/index.js", "module.exports = 1\n")
    write(root, "app.log", "log\n")
    return root


# -- 1. invariants ----------------------------------------------------------------------


def test_every_operation_leaves_the_users_state_byte_for_byte(tmp_path: Path) -> None:
    """create/list/show/diff/reuse/prune/size leave the user's git state and files byte for byte."""
    root = busy_repo(tmp_path / "r")
    store = make_store(root)
    before = user_state(root)
    first = store.create("first")
    assert_same_state(before, user_state(root))
    write(root, "notes/more.md", "more\n")
    before = user_state(root)
    second = store.create("second")
    steps: list[Callable[[], object]] = [
        store.all,
        lambda: store.get(first.checkpoint_id),
        lambda: store.diff(first.checkpoint_id),
        lambda: store.diff(first.checkpoint_id, second.checkpoint_id),
        lambda: store.create("again"),
        store.working_tree,
        lambda: store.prune(dry_run=True),
        store.prune,
        store.size_bytes,
    ]
    for step in steps:
        step()
        assert_same_state(before, user_state(root))


def test_a_checkpoint_during_a_merge_conflict_keeps_the_conflict(tmp_path: Path) -> None:
    """Mid-merge, the checkpoint holds the conflicted file as on disk; merge state untouched."""
    root = init_repo(tmp_path / "r", {"f.txt": "base\n"})
    run_git(root, "checkout", "-q", "-b", "other")
    write(root, "f.txt", "theirs\n")
    run_git(root, "commit", "-q", "-am", "theirs")
    run_git(root, "checkout", "-q", "main")
    write(root, "f.txt", "ours\n")
    run_git(root, "commit", "-q", "-am", "ours")
    merge = git_proc(root, "merge", "other", check=False)
    assert merge.returncode != 0
    assert (root / ".git" / "MERGE_HEAD").exists()
    before = user_state(root)
    meta = make_store(root).create("mid-merge")
    assert_same_state(before, user_state(root))
    assert content(root, meta, "f.txt") == (root / "f.txt").read_bytes()
    assert b"<<<<<<<" in content(root, meta, "f.txt")


@pytest.mark.parametrize(
    "config",
    [
        pytest.param({"index.version": "4"}, id="index-v4"),
        pytest.param({"core.splitIndex": "true"}, id="split-index"),
        pytest.param({"core.untrackedCache": "true"}, id="untracked-cache"),
        pytest.param({"commit.gpgSign": "true", "gpg.program": "false"}, id="gpgsign"),
    ],
)
def test_user_git_configuration_is_respected_and_untouched(
    tmp_path: Path, config: dict[str, str]
) -> None:
    """Index v4, split index, untracked cache, gpgSign: exact tree and count, nothing written."""
    root = init_repo(tmp_path / "r")
    for key, value in config.items():
        run_git(root, "config", key, value)
    for i in range(200):
        write(root, f"d/f{i}.txt", f"{i}\n", old=True)  # no racy entries: stable index
    run_git(root, "add", "-A")
    run_git(root, "-c", "commit.gpgSign=false", "commit", "-q", "-m", "init")
    # A plain `git status` (optional locks allowed) writes the index extensions.
    git_proc(root, "status", "-uall", optional_locks=True)
    if "core.splitIndex" in config:
        run_git(root, "update-index", "--split-index")
    write(root, "d/f1.txt", "changed\n")
    write(root, "new.txt", "new\n")
    before = user_state(root)
    meta = make_store(root).create()
    assert_same_state(before, user_state(root))
    assert meta.tree == oracle_tree(root)
    assert meta.file_count == len(tree_of(root, meta.commit)) == 201


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


# -- 3. survival ----------------------------------------------------------------------------


def _rewrite_history(root: Path, how: str) -> None:
    if how == "amend":
        run_git(root, "commit", "-q", "--amend", "-m", "amended")
    elif how == "rebase":
        run_git(root, "checkout", "-q", "-b", "side", "HEAD~1")
        write(root, "side.txt", "side\n")
        run_git(root, "add", "side.txt")
        run_git(root, "commit", "-q", "-m", "side")
        run_git(root, "checkout", "-q", "main")
        run_git(root, "rebase", "-q", "side")
        run_git(root, "branch", "-q", "-D", "side")
    elif how == "reset-hard":
        run_git(root, "reset", "-q", "--hard", "HEAD~1")
    elif how == "gc-only":
        pass
    run_git(root, "reflog", "expire", "--expire=now", "--all")
    run_git(root, "gc", "-q", "--prune=now", "--aggressive")


@pytest.mark.parametrize("how", ["gc-only", "amend", "rebase", "reset-hard"])
def test_checkpoints_survive_history_rewrites_and_gc(tmp_path: Path, how: str) -> None:
    """After amend/rebase/reset, reflog expire and gc --aggressive, every object is readable."""
    root = init_repo(tmp_path / "r", {"f.txt": "one\n"})
    write(root, "f.txt", "two\n")
    run_git(root, "commit", "-q", "-am", "two")
    base = gtext(root, "rev-parse", "HEAD")
    store = make_store(root)
    write(root, "f.txt", "unique tracked edit 7f3a\n")
    write(root, "untracked.txt", "unique untracked 9c1e\n")
    meta = store.create("before rewrite")
    run_git(root, "checkout", "-q", "--", "f.txt")
    (root / "untracked.txt").unlink()
    _rewrite_history(root, how)
    listing = gtext(root, "rev-list", "--objects", meta.commit).splitlines()
    objects = [line.split(" ", 1)[0] for line in listing]
    assert base in objects
    for obj in [meta.commit, meta.tree, base, *objects]:
        run_git(root, "cat-file", "-e", obj)
    assert content(root, meta, "f.txt") == b"unique tracked edit 7f3a\n"
    assert content(root, meta, "untracked.txt") == b"unique untracked 9c1e\n"
    again = store.get(meta.checkpoint_id)
    assert again.metadata_complete
    assert again.base_head == base
    assert [m.checkpoint_id for m in store.all()] == [meta.checkpoint_id]
    run_git(root, "fsck", "--no-dangling")


def test_create_still_works_after_the_users_gc(tmp_path: Path) -> None:
    """The user's ``gc --prune=now`` between two checkpoints does not break the next."""
    root = init_repo(tmp_path / "r", {"f.txt": "one\n"})
    store = make_store(root)
    write(root, "f.txt", "two\n", old=True)
    store.create()
    run_git(root, "gc", "-q", "--prune=now")
    write(root, "g.txt", "new\n", old=True)
    meta = store.create()
    assert meta.tree == oracle_tree(root)


def test_create_after_a_working_tree_diff_and_the_users_gc(tmp_path: Path) -> None:
    """After a working-tree diff and the user's gc --prune=now, the next create is exact."""
    root = init_repo(tmp_path / "r", {"f.txt": "one\n"})
    store = make_store(root)
    write(root, "f.txt", "two\n", old=True)
    first = store.create()
    write(root, "f.txt", "three\n")
    os.utime(root / "f.txt", (OLD + 60, OLD + 60))  # old: the index entry is trusted
    assert [c.path for c in store.diff(first.checkpoint_id)] == ["f.txt"]
    run_git(root, "gc", "-q", "--prune=now")
    meta = store.create()
    assert content(root, meta, "f.txt") == b"three\n"


# -- 4. no commits yet -----------------------------------------------------------------------


def test_repo_without_commits_and_without_an_index(tmp_path: Path) -> None:
    """With no commits and no index: a parentless checkpoint, base_head None, all files in it."""
    root = init_repo(tmp_path / "r")
    assert not (root / ".git" / "index").exists()
    write(root, "a.txt", "a\n")
    write(root, "src/b.txt", "b\n")
    before = user_state(root)
    meta = make_store(root).create("first ever")
    assert_same_state(before, user_state(root))
    assert meta.base_head is None
    assert gtext(root, "rev-list", "--parents", "-n", "1", meta.commit) == meta.commit
    assert set(tree_of(root, meta.commit)) == {"a.txt", "src/b.txt"}
    assert meta.file_count == 2
    assert not (root / ".git" / "index").exists()


def test_repo_without_commits_with_staged_files(tmp_path: Path) -> None:
    """Before the first commit, staged and untracked files are both in the checkpoint."""
    root = init_repo(tmp_path / "r")
    write(root, "staged.txt", "s\n")
    run_git(root, "add", "staged.txt")
    write(root, "staged.txt", "s edited\n")
    write(root, "loose.txt", "l\n")
    meta = make_store(root).create()
    assert meta.base_head is None
    assert content(root, meta, "staged.txt") == b"s edited\n"
    assert "loose.txt" in tree_of(root, meta.commit)
    assert meta.tree == oracle_tree(root)


def test_empty_repo_gives_an_empty_checkpoint(tmp_path: Path) -> None:
    """No commits and no files: the checkpoint is the empty tree, 0 files."""
    root = init_repo(tmp_path / "r")
    meta = make_store(root).create()
    assert (meta.tree, meta.file_count, meta.base_head) == (EMPTY_TREE, 0, None)


def test_first_commit_after_checkpoints_becomes_the_base(tmp_path: Path) -> None:
    """Once the repo has a commit, the next checkpoint's base_head and parent are it."""
    root = init_repo(tmp_path / "r")
    write(root, "a.txt", "a\n")
    store = make_store(root)
    store.create()
    run_git(root, "add", "-A")
    run_git(root, "commit", "-q", "-m", "first")
    meta = store.create()
    head = gtext(root, "rev-parse", "HEAD")
    assert not meta.reused
    assert meta.base_head == head
    assert gtext(root, "rev-parse", f"{meta.commit}^") == head


# -- 5. reuse -----------------------------------------------------------------------------


def test_nothing_changed_reuses_the_last_checkpoint(tmp_path: Path) -> None:
    """Nothing changed: same id, reused true, no new ref; after a change a new id."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    write(root, "u.txt", "u\n")
    first = store.create("one")
    second = store.create("two")
    assert second.checkpoint_id == first.checkpoint_id
    assert (first.reused, second.reused) == (False, True)
    assert second.message == "one"
    assert len(store.all()) == 1
    write(root, "f.txt", "2\n")
    third = store.create("three")
    assert third.checkpoint_id != first.checkpoint_id
    assert not third.reused
    assert len(store.all()) == 2


def test_a_new_commit_with_the_same_tree_is_a_new_checkpoint(tmp_path: Path) -> None:
    """A new commit moves HEAD, so the next checkpoint is new and based on it."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    write(root, "f.txt", "2\n")
    first = store.create()
    run_git(root, "commit", "-q", "-am", "two")
    second = store.create()
    assert second.checkpoint_id != first.checkpoint_id
    assert second.tree == first.tree
    assert second.base_head == gtext(root, "rev-parse", "HEAD")


def test_sandwich_checkpoints_are_never_reused(tmp_path: Path) -> None:
    """A sandwich checkpoint is always its own, even with nothing changed."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    a = store.create(reason="sandwich")
    b = store.create(reason="sandwich")
    assert a.checkpoint_id != b.checkpoint_id
    assert not b.reused
    assert {m.reason for m in store.all()} == {"sandwich"}


def test_a_deleted_last_checkpoint_is_not_reused(tmp_path: Path) -> None:
    """If the last checkpoint's ref is gone, an unchanged tree makes a fresh one."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    first = store.create()
    run_git(root, "update-ref", "-d", REF_PREFIX + first.checkpoint_id)
    second = store.create()
    assert not second.reused
    assert second.checkpoint_id != first.checkpoint_id
    assert [m.checkpoint_id for m in store.all()] == [second.checkpoint_id]


def test_a_newly_ignored_file_leaves_the_next_checkpoint(tmp_path: Path) -> None:
    """An untracked file snapshotted once and then ignored is not in the next checkpoint."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    write(root, "creds.env", "TOKEN=abc\n")
    first = store.create()
    assert "creds.env" in tree_of(root, first.commit)
    write(root, ".gitignore", "*.env\n")
    second = store.create()
    assert "creds.env" not in tree_of(root, second.commit)
    assert second.tree == oracle_tree(root)


def test_untracked_file_changes_between_checkpoints(tmp_path: Path) -> None:
    """Untracked files edited, deleted, grown past the cap or made a repo show next time."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root, untracked_size_cap_mb=0.01)
    write(root, "edit.txt", "v1\n")
    write(root, "delete.txt", "bye\n")
    write(root, "grow.txt", "small\n")
    write(root, "becomes_repo/file.txt", "x\n")
    store.create()
    write(root, "edit.txt", "v2\n")
    (root / "delete.txt").unlink()
    write(root, "grow.txt", b"g" * 20_000)
    init_repo(root / "becomes_repo")
    meta = store.create()
    tree = tree_of(root, meta.commit)
    assert content(root, meta, "edit.txt") == b"v2\n"
    assert "delete.txt" not in tree
    assert "grow.txt" not in tree
    assert not any(p.startswith("becomes_repo") for p in tree)
    assert {(s.path, s.reason) for s in meta.skipped} == {
        ("grow.txt", "too_large"),
        ("becomes_repo", "nested_repo"),
    }


def test_a_new_skipped_file_is_reported_even_when_the_tree_is_unchanged(tmp_path: Path) -> None:
    """A new too-large file is listed as skipped even when the tree is unchanged."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root, untracked_size_cap_mb=0.01)
    store.create()
    write(root, "huge.bin", b"h" * 20_000)
    meta = store.create()
    assert [(s.path, s.reason) for s in meta.skipped] == [("huge.bin", "too_large")]


def test_staging_between_checkpoints_keeps_content_exact(tmp_path: Path) -> None:
    """Staging, unstaging, rm --cached and committing between checkpoints keep content exact."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n", "g.txt": "g\n"})
    store = make_store(root)
    write(root, "u.txt", "u\n")
    store.create()
    write(root, "f.txt", "2\n")
    run_git(root, "add", "f.txt", "u.txt")
    write(root, "f.txt", "3 edited after staging\n")
    m1 = store.create()
    assert content(root, m1, "f.txt") == b"3 edited after staging\n"
    assert content(root, m1, "u.txt") == b"u\n"
    assert m1.tree == oracle_tree(root)
    run_git(root, "reset", "-q", "u.txt")
    run_git(root, "rm", "-q", "--cached", "g.txt")
    m2 = store.create()
    assert content(root, m2, "g.txt") == b"g\n"
    assert m2.tree == oracle_tree(root)
    run_git(root, "add", "-A")
    run_git(root, "commit", "-q", "-m", "all")
    write(root, "g.txt", "g2\n")
    m3 = store.create()
    assert content(root, m3, "g.txt") == b"g2\n"
    assert m3.tree == oracle_tree(root)


# -- 6. orphans ----------------------------------------------------------------------------


def test_a_stale_private_index_lock_does_not_block(tmp_path: Path) -> None:
    """A leftover private index.lock is cleared and the next checkpoint is exact."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    store.create()
    lock = root / ".vibflow" / "checkpoints" / "index.lock"
    lock.write_bytes(b"half-written index from a killed git")
    write(root, "f.txt", "2\n")
    meta = store.create()
    assert not lock.exists()
    assert meta.tree == oracle_tree(root)


_KILL_AT_RECORDING = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from vibflow.steps.checkpoints.store import CheckpointStore
    from vibflow.steps.workspace.root import state_dir

    def die(what):
        if what == "recording the checkpoint":
            os.kill(os.getpid(), signal.SIGKILL)

    root = Path(sys.argv[1])
    CheckpointStore(root, state_dir(root)).create("doomed", progress=die)
    """
)


def _killed_create(root: Path) -> None:
    """A real process killed after hashing, before the checkpoint is recorded."""
    proc = subprocess.run([sys.executable, "-c", _KILL_AT_RECORDING, str(root)], check=False)
    assert proc.returncode == -signal.SIGKILL


def test_a_create_killed_before_recording_leaves_no_ref_and_no_damage(tmp_path: Path) -> None:
    """A create killed before recording leaves no ref, no user change, and the next is exact."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    store.create()
    write(root, "f.txt", "2 changed\n")
    write(root, "new.txt", "n\n")
    before = user_state(root)
    _killed_create(root)
    assert_same_state(before, user_state(root))
    assert len(store.all()) == 1
    meta = store.create()
    assert not meta.reused
    assert meta.tree == oracle_tree(root)


def test_a_killed_create_cannot_leak_a_later_ignored_file(tmp_path: Path) -> None:
    """A file hashed by a killed create and ignored afterwards stays out of the next one."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    store.create()
    write(root, "token.txt", "TOKEN=abc\n")
    _killed_create(root)
    write(root, ".gitignore", "token.txt\n")
    meta = store.create()
    assert "token.txt" not in tree_of(root, meta.commit)
    assert meta.tree == oracle_tree(root)


# -- 7. retention ---------------------------------------------------------------------------

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


Reason = Literal["manual", "sandwich", "flow_stage"]


def _meta(n: int, age_days: float, reason: Reason = "manual") -> CheckpointMeta:
    when = (NOW - timedelta(days=age_days)).isoformat().replace("+00:00", "Z")
    return CheckpointMeta(checkpoint_id=f"ckpt_{n:032x}", created_at=when, reason=reason)


def test_keep_last_keeps_the_newest_n() -> None:
    """With nothing young enough for keep_days, only the newest keep_last survive."""
    metas = [_meta(i, age_days=100 + i) for i in range(6)]
    policy = CheckpointPolicy(keep_last=2, keep_days=0, protect_sandwiches=0)
    assert sorted(to_prune(metas, policy, now=NOW)) == [f"ckpt_{i:032x}" for i in range(2, 6)]


def test_keep_days_keeps_everything_younger() -> None:
    """Everything younger than keep_days is kept however many there are."""
    metas = [_meta(i, age_days=d) for i, d in enumerate([0.1, 1, 6.9, 7.1, 30])]
    policy = CheckpointPolicy(keep_last=1, keep_days=7, protect_sandwiches=0)
    assert sorted(to_prune(metas, policy, now=NOW)) == [f"ckpt_{i:032x}" for i in (3, 4)]


def test_the_last_m_sandwiches_are_never_pruned() -> None:
    """The newest protect_sandwiches sandwich checkpoints survive whatever their age."""
    metas = [
        _meta(0, 1),
        _meta(1, 200, "sandwich"),
        _meta(2, 300, "sandwich"),
        _meta(3, 400, "sandwich"),
        _meta(4, 500, "manual"),
    ]
    policy = CheckpointPolicy(keep_last=1, keep_days=0, protect_sandwiches=2)
    assert sorted(to_prune(metas, policy, now=NOW)) == [f"ckpt_{i:032x}" for i in (3, 4)]


def test_unparseable_dates_are_pruned_first() -> None:
    """A checkpoint with a damaged date counts as the oldest."""
    metas = [
        _meta(0, 50),
        _meta(1, 60),
        CheckpointMeta(checkpoint_id=f"ckpt_{2:032x}", created_at="?"),
    ]
    policy = CheckpointPolicy(keep_last=2, keep_days=0, protect_sandwiches=0)
    assert to_prune(metas, policy, now=NOW) == [f"ckpt_{2:032x}"]


def test_prune_deletes_only_refs_outside_policy_and_shrinks_the_store(tmp_path: Path) -> None:
    """prune deletes exactly what policy names (dry run: nothing); kept ones stay readable."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    # Created under the default policy (retention also runs after each create),
    # then pruned through a store with the strict one.
    roomy = make_store(root)
    store = make_store(root, keep_last=2, keep_days=0, protect_sandwiches=1)
    metas = []
    for i in range(5):
        write(root, f"data{i}.bin", os.urandom(64 * 1024))
        metas.append(roomy.create(f"c{i}", reason="sandwich" if i == 0 else "manual"))
        time.sleep(0.01)
    size_before = store.size_bytes()
    assert size_before > 5 * 64 * 1024
    later = datetime.now(UTC) + timedelta(seconds=1)
    dry = store.prune(dry_run=True, now=later)
    assert len(store.all()) == 5
    pruned = store.prune(now=later)
    assert pruned == dry
    assert sorted(pruned) == sorted(m.checkpoint_id for m in metas[1:3])
    kept = {m.checkpoint_id for m in store.all()}
    assert kept == {metas[0].checkpoint_id, metas[3].checkpoint_id, metas[4].checkpoint_id}
    for cid in kept:
        run_git(root, "cat-file", "-e", REF_PREFIX + cid)
    for cid in pruned:
        with pytest.raises(subprocess.CalledProcessError):
            run_git(root, "rev-parse", "--verify", "-q", REF_PREFIX + cid)
    run_git(root, "gc", "-q", "--prune=now")
    assert store.size_bytes() > 0


def test_size_shrinks_when_unique_content_is_pruned(tmp_path: Path) -> None:
    """Pruning the only holder of a big blob shrinks size_bytes and, after gc, the packs."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    roomy = make_store(root)  # creates keep both; the strict store prunes below
    store = make_store(root, keep_last=1, keep_days=0, protect_sandwiches=0)
    write(root, "big.bin", os.urandom(512 * 1024))
    roomy.create("big")
    (root / "big.bin").unlink()
    time.sleep(0.01)
    roomy.create("small")
    run_git(root, "gc", "-q", "--prune=now")
    size_before = store.size_bytes()
    pack_before = _pack_bytes(root)
    assert size_before > 512 * 1024
    store.prune(now=datetime.now(UTC) + timedelta(seconds=1))
    run_git(root, "gc", "-q", "--prune=now")
    assert store.size_bytes() < size_before - 400 * 1024
    assert _pack_bytes(root) < pack_before - 400 * 1024


def _pack_bytes(root: Path) -> int:
    out = gtext(root, "count-objects", "-v")
    fields = dict(line.split(": ") for line in out.splitlines())
    return (int(fields["size"]) + int(fields["size-pack"])) * 1024


# -- 8. diff --------------------------------------------------------------------------------


def test_diff_between_two_checkpoints(tmp_path: Path) -> None:
    """diff A B: modified/added/deleted/renamed/type-changed with counts; binary has none."""
    root = init_repo(
        tmp_path / "r",
        {
            "m.txt": "a\nb\nc\n",
            "gone.txt": "x\ny\n",
            "old name.py": "".join(f"line {i}\n" for i in range(20)),
            "img.bin": "",
            "t.txt": "t\n",
        },
    )
    write(root, "img.bin", b"\x00\x01\x02binary")
    run_git(root, "commit", "-q", "-am", "binary")
    store = make_store(root)
    a = store.create("a")
    write(root, "m.txt", "a\nB\nc\nd\n")
    write(root, "ünï new.txt", "1\n2\n3\n")
    (root / "gone.txt").unlink()
    run_git(root, "mv", "old name.py", "new name.py")
    write(root, "img.bin", b"\x00\x03\x04other binary")
    (root / "t.txt").unlink()
    (root / "t.txt").symlink_to("m.txt")
    b = store.create("b")
    changes = {c.path: c for c in store.diff(a.checkpoint_id, b.checkpoint_id)}
    assert set(changes) == {"m.txt", "ünï new.txt", "gone.txt", "new name.py", "img.bin", "t.txt"}
    m = changes["m.txt"]
    assert (m.status, m.added_lines, m.deleted_lines, m.binary) == ("modified", 2, 1, False)
    n = changes["ünï new.txt"]
    assert (n.status, n.added_lines, n.deleted_lines) == ("added", 3, 0)
    g = changes["gone.txt"]
    assert (g.status, g.added_lines, g.deleted_lines) == ("deleted", 0, 2)
    r = changes["new name.py"]
    assert (r.status, r.old_path, r.added_lines, r.deleted_lines) == (
        "renamed",
        "old name.py",
        0,
        0,
    )
    i = changes["img.bin"]
    assert (i.status, i.binary, i.added_lines, i.deleted_lines) == ("modified", True, None, None)
    assert changes["t.txt"].status == "type_changed"


def test_diff_against_the_working_tree(tmp_path: Path) -> None:
    """diff A alone compares with the working tree (ignored files out) and records nothing."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n", ".gitignore": ".env\n"})
    store = make_store(root)
    a = store.create()
    assert store.diff(a.checkpoint_id) == []
    write(root, "f.txt", "1\n2\n")
    write(root, "new.txt", "n\n")
    write(root, ".env", "SECRET=1\n")
    changes = {
        c.path: (c.status, c.added_lines, c.deleted_lines) for c in store.diff(a.checkpoint_id)
    }
    assert changes == {"f.txt": ("modified", 1, 0), "new.txt": ("added", 1, 0)}
    assert len(store.all()) == 1


@pytest.mark.parametrize(
    "bad",
    ["ckpt_" + "0" * 32, "nope", "", "ckpt_*", "ckpt_[0-9a-f]*", "../../heads/main", "ckpt_x/../"],
)
def test_unknown_ids_are_bad_input(tmp_path: Path, bad: str) -> None:
    """get/diff of a non-checkpoint id, glob patterns included, raise BAD_INPUT."""
    root = init_repo(tmp_path / "r", {"f.txt": "1\n"})
    store = make_store(root)
    real = store.create()
    write(root, "f.txt", "2\n")
    store.create()
    calls = [lambda: store.get(bad), lambda: store.diff(bad)]
    if bad:  # an empty B means "the working tree"
        calls.append(lambda: store.diff(real.checkpoint_id, bad))
    for call in calls:
        with pytest.raises(VibflowError) as info:
            call()
        assert info.value.code is ErrorCode.BAD_INPUT
