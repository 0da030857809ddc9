"""A backslash in a name to restore, on a system where it is a letter of a name.

The path contract reads ``\\`` as a folder separator (an agent may write
``src\\app.py`` Windows-style), but on Linux ``a\\b.py`` is a file of its own,
beside the folder ``a`` and its ``b.py``. A restore typed ``a\\b.py`` wrote
``a/b.py`` instead: now every restore refuses the name with its rule, from the
project's root and from a subfolder. Real repository, the real CLI.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from vibflow_testing.apply import APPLY, ok_json
from vibflow_testing.cli import vf
from vibflow_testing.git import git

pytestmark = pytest.mark.skipif(os.sep != "/", reason="a backslash is a separator here")

LETTER = "a\\b.py"


@pytest.fixture
def twins(tmp_path: Path) -> tuple[Path, str]:
    """``a\\b.py`` and ``a/b.py`` committed and checkpointed, then both changed."""
    root = tmp_path / "r"
    (root / "a" / "s").mkdir(parents=True)
    git(root, "init", "-q")
    (root / LETTER).write_text("one\n", encoding="utf-8")
    (root / "a" / "b.py").write_text("two\n", encoding="utf-8")
    (root / "a" / "s" / "k.py").write_text("k\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "start")
    made = ok_json(vf(root, "checkpoint", "create", "--json"))
    (root / LETTER).write_text("one, mine\n", encoding="utf-8")
    (root / "a" / "b.py").write_text("two, mine\n", encoding="utf-8")
    return root, str(made["checkpoint_id"])


@pytest.mark.parametrize(
    ("where", "typed"),
    [("", LETTER), ("a/s", "..\\..\\a\\b.py"), ("a", "b.py\\")],
    ids=["root", "subfolder", "trailing"],
)
def test_a_restore_refuses_a_backslash_and_writes_nothing(
    twins: tuple[Path, str], where: str, typed: str
) -> None:
    root, ckpt = twins
    proc = vf(root / where, "checkpoint", "restore", ckpt, "--", typed, env=APPLY)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "rejected (" in proc.stderr
    assert str(root) not in proc.stderr
    assert (root / LETTER).read_text(encoding="utf-8") == "one, mine\n"
    assert (root / "a" / "b.py").read_text(encoding="utf-8") == "two, mine\n"


def test_the_backslash_rule_names_itself(twins: tuple[Path, str]) -> None:
    root, ckpt = twins
    for cwd in (root, root / "a" / "s"):
        proc = vf(cwd, "checkpoint", "restore", ckpt, "--", "x\\y.py", env=APPLY)
        assert proc.returncode == 2, (proc.stdout, proc.stderr)
        assert "(backslash)" in proc.stderr, proc.stderr


def test_rewind_refuses_it_too(twins: tuple[Path, str]) -> None:
    root, _ = twins
    proc = vf(root, "rewind", "--json", "--", LETTER, env=APPLY)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert (root / "a" / "b.py").read_text(encoding="utf-8") == "two, mine\n"


def test_a_slash_spelling_still_restores(twins: tuple[Path, str]) -> None:
    """The refusal is for the backslash only: ``a/b.py`` restores that file alone."""
    root, ckpt = twins
    proc = vf(
        root, "checkpoint", "restore", ckpt, "--confirm", f"APPLY {ckpt}", "--", "a/b.py", env=APPLY
    )
    assert proc.returncode == 0, (proc.stdout, proc.stderr)
    assert (root / "a" / "b.py").read_text(encoding="utf-8") == "two\n"
    assert (root / LETTER).read_text(encoding="utf-8") == "one, mine\n"
