"""A confirmed restore where a drifted file became a folder (or a folder on a file's way
became a file): that path is skipped with its reason, every other file is restored, and
the run ends done — through `vibflow run recover` → choose → confirm with the apply on."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from vibflow_testing.apply import (
    APP,
    DRIFT,
    commit_all,
    confirm,
    ok_json,
    to_confirm,
    tree_state,
)
from vibflow_testing.cli import vf
from vibflow_testing.repo import write

from vibflow.steps.checkpoints import restore
from vibflow.steps.recovery.lease import LeaseFile
from vibflow.steps.workspace.git import Git

pytestmark = pytest.mark.cli  # every test here spawns the CLI


def _app_with_checkpoint(repo: Path) -> None:
    for rel, text in APP.items():
        write(repo, rel, text)
    commit_all(repo)
    proc = vf(repo, "memory", "relevant", "src/ui/login.py", "the login form", "--yes")
    assert proc.returncode == 0, proc.stderr
    ok_json(vf(repo, "checkpoint", "create", "--json"))
    time.sleep(0.05)


def test_a_file_that_became_a_folder_is_skipped_and_the_rest_restored(repo: Path) -> None:
    """config.yaml became a folder holding a new file: config.yaml is reported skipped (a
    folder now) and left a folder, the new file's confirmed deletion happens, and auth.py
    and deploy.sh come back."""
    _app_with_checkpoint(repo)
    write(repo, "src/services/auth.py", DRIFT["src/services/auth.py"])
    write(repo, "bin/deploy.sh", DRIFT["bin/deploy.sh"])
    (repo / "config.yaml").unlink()
    write(repo, "config.yaml/shop.yaml", "currency: USD\n")
    at = to_confirm(repo)
    assert "config.yaml" in at["paths"], at["paths"]
    done = ok_json(confirm(repo, at))
    assert (done["status"], done["state"]) == ("done", "result"), done
    skipped = {s["path"]: s["why"] for s in done["result"]["skipped"]}
    assert list(skipped) == ["config.yaml"], skipped
    assert "folder" in skipped["config.yaml"]
    assert "config.yaml/shop.yaml" in at["restore"]["deletes"]
    assert (repo / "config.yaml").is_dir()
    assert not (repo / "config.yaml/shop.yaml").exists()
    for rel in ("src/services/auth.py", "bin/deploy.sh"):
        assert (repo / rel).read_text(encoding="utf-8") == APP[rel], rel
    leftovers = [p for p in tree_state(repo) if "vibflow-restore" in p]
    assert leftovers == []


def test_restore_items_skips_a_folder_in_a_files_place_and_a_file_in_a_folders(
    repo: Path,
) -> None:
    """At the module level: a file whose path is a folder now, and a file whose parent
    folder is a file now, are each skipped with a reason; the third file is restored."""
    write(repo, "a/x.txt", "x1\n")
    write(repo, "b.txt", "b1\n")
    write(repo, "c.txt", "c1\n")
    commit_all(repo)
    g = Git(repo)
    head = g.run("rev-parse", "HEAD").decode().strip()
    (repo / "b.txt").unlink()
    write(repo, "b.txt/inner.txt", "now a folder\n")
    (repo / "a/x.txt").unlink()
    (repo / "a").rmdir()
    write(repo, "a", "now a file\n")
    write(repo, "c.txt", "c2\n")
    items = restore.plan(g, head, ["a/x.txt", "b.txt", "c.txt"])
    blobs = restore.read_blobs(g, [i.sha for i in items if i.sha])
    lease = LeaseFile(repo / ".vibflow" / "recovery").acquire("op_folders")
    try:
        done = restore.restore_items(
            repo, [(i, blobs.get(i.sha or "")) for i in items], lease.commit, tag=1
        )
    finally:
        lease.release()
    outcome = {item.path: what for item, what in done}
    assert outcome["c.txt"] == "restored"
    assert outcome["b.txt"] == restore.FOLDER_NOW
    assert outcome["a/x.txt"] == restore.FILE_ON_THE_WAY
    assert (repo / "c.txt").read_text(encoding="utf-8") == "c1\n"
    assert (repo / "b.txt/inner.txt").read_text(encoding="utf-8") == "now a folder\n"
    assert (repo / "a").read_text(encoding="utf-8") == "now a file\n"
    assert not [p for p in tree_state(repo) if "vibflow-restore" in p]
