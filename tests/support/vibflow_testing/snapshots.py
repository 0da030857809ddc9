"""Reading checkpoints back from git and fingerprinting the user's state (files, index,
refs, HEAD, stash, status), for the checkpoint tests. Real git, no mocks."""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
from pathlib import Path

from vibflow.steps.checkpoints.models import CheckpointMeta
from vibflow_testing.git import git_proc, gtext, run_git
from vibflow_testing.repo import init_repo, write

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"


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
