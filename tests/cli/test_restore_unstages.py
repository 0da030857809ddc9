"""A restore also takes back what the agent *staged* on the files it restores.

Found using it: an agent ran `git rm` and `git mv`; the recommended restore put the
files back on disk, but the index still held the agent's deletion and rename. The
next `git commit -am` dropped the restored file from the repository, and the next
plan read the staged change as drift again and recommended deleting it. The index
entries of exactly the restored paths go back to HEAD's; nothing else in the index
moves, and a restore of files nobody staged leaves the index file byte for byte."""

from __future__ import annotations

import time
from pathlib import Path

from vibflow_testing.apply import (
    APPLY,
    choose,
    commit_all,
    confirm,
    ok_json,
    start,
    stored_option,
)
from vibflow_testing.cli import vf
from vibflow_testing.git import git
from vibflow_testing.repo import write


def project(repo: Path) -> None:
    write(repo, "src/orders.py", "def a():\n    return 1\n")
    write(repo, "src/legacy.py", "def old():\n    return 0\n")
    write(repo, "src/helpers.py", "def help():\n    return 2\n")
    write(repo, "notes.md", "# notes\n")
    commit_all(repo)
    for args in (
        ("memory", "intent", "Add pagination to orders", "--yes"),
        ("memory", "relevant", "src/orders.py", "the orders module", "--yes"),
        ("checkpoint", "create", "-m", "before the agent"),
    ):
        proc = vf(repo, *args)
        assert proc.returncode == 0, proc.stderr
    time.sleep(0.05)


def staged(repo: Path) -> set[str]:
    return set(git(repo, "diff", "--cached", "--name-only", "--no-renames").split())


def test_a_restore_unstages_the_agents_rm_and_mv_on_the_restored_files(repo: Path) -> None:
    project(repo)
    write(repo, "src/orders.py", "def a(page=1):\n    return page\n")  # in scope
    git(repo, "add", "src/orders.py")  # the user's own staged change: never restored here
    git(repo, "rm", "-q", "src/legacy.py")  # the agent's drift, staged
    git(repo, "mv", "src/helpers.py", "src/util.py")
    assert staged(repo) == {"src/orders.py", "src/legacy.py", "src/helpers.py", "src/util.py"}

    run = start(repo)
    chosen = stored_option(repo, run, 3)
    assert {"src/legacy.py", "src/helpers.py", "src/util.py"} <= set(chosen["affected_paths"])
    assert "src/orders.py" not in chosen["affected_paths"]
    done = ok_json(confirm(repo, choose(repo, run, 3)))
    assert done["status"] == "done", done
    applied = done["applied"]
    assert set(applied["unstaged"]) == {"src/legacy.py", "src/helpers.py", "src/util.py"}
    assert done["result"]["unstaged_total"] == 3  # the result the terminal shows says so

    assert staged(repo) == {"src/orders.py"}  # the user's staging is theirs
    assert (repo / "src/legacy.py").exists()
    assert (repo / "src/helpers.py").exists()
    assert not (repo / "src/util.py").exists()
    # What follows a restore: the next plan finds no drift left, and a commit keeps the files.
    plan = ok_json(vf(repo, "recover", "--preview", "--json"))
    assert plan["drift_candidates"] == [], plan["drift_candidates"]
    git(repo, "commit", "-qam", "after the restore")
    tracked = set(git(repo, "ls-files").split())
    assert {"src/legacy.py", "src/helpers.py"} <= tracked
    assert "src/util.py" not in tracked


def test_a_restore_of_unstaged_drift_leaves_the_index_file_byte_for_byte(repo: Path) -> None:
    project(repo)
    write(repo, "src/legacy.py", "def old():\n    return 'drift'\n")
    index = repo / ".git" / "index"
    before = (index.read_bytes(), index.stat().st_mtime_ns)

    done = ok_json(confirm(repo, choose(repo, start(repo), 3)))
    assert done["status"] == "done", done
    assert "unstaged" not in done["applied"]
    assert (repo / "src/legacy.py").read_text() == "def old():\n    return 0\n"
    assert (index.read_bytes(), index.stat().st_mtime_ns) == before


def test_undo_after_an_unstaging_restore_puts_the_files_back(repo: Path) -> None:
    """undo restores the files as they were (the agent's staging itself is not redone)."""
    project(repo)
    git(repo, "rm", "-q", "src/legacy.py")
    done = ok_json(confirm(repo, choose(repo, start(repo), 3)))
    assert done["status"] == "done", done
    assert (repo / "src/legacy.py").exists()

    run = ok_json(vf(repo, "undo", "--json", env=APPLY))
    expected = run["confirmation_expected"]
    undone = vf(repo, "step", run["run_id"], "confirm", "-i", f"confirmation={expected}", env=APPLY)
    assert undone.returncode == 0, undone.stdout + undone.stderr
    assert not (repo / "src/legacy.py").exists()
