"""Diffs between two checkpoints and against the working tree; unknown ids are bad input."""

from __future__ import annotations

from pathlib import Path

import pytest
from vibflow_testing.git import run_git
from vibflow_testing.repo import init_repo, make_store, write

from vibflow.engine.errors import ErrorCode, VibflowError

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
