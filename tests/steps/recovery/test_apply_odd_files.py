"""A confirmed restore with symlinks, submodules and non-ASCII names: links are recreated
only inside the project, submodules are skipped and never written, names come back
exactly.

The recover run is driven through the real CLI on real git repositories; the steps to
get there (``drifted``, ``start``, ``choose``, ``confirm`` ...) are in
``vibflow_testing.apply``."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from vibflow_testing.apply import (
    APP,
    choose,
    commit_all,
    confirm,
    ok_json,
    start,
    stored_option,
    to_confirm,
)
from vibflow_testing.cli import vf
from vibflow_testing.git import git
from vibflow_testing.repo import write

from vibflow.steps.checkpoints import restore
from vibflow.steps.recovery.lease import LeaseFile
from vibflow.steps.workspace.git import Git

pytestmark = pytest.mark.cli  # every test here spawns the CLI

# -- symlinks, submodules, names ------------------------------------------------------------


def _links_and_names(repo: Path) -> str:
    """A checkpoint holding an inside link, an outside link and non-ASCII names; then an
    agent replaces both links with plain files and edits the non-ASCII files."""
    write(repo, "src/ui/login.py", APP["src/ui/login.py"])
    write(repo, "lib/auth.py", "real\n")
    write(repo, "lib/café.py", "crème brûlée\n")
    write(repo, "lib/データ 2.txt", "日本語\n")
    (repo / "lib/link_in").symlink_to("auth.py")
    (repo / "lib/link_out").symlink_to("/etc/hostname")
    (repo / "lib/link_up").symlink_to("../../outside")
    commit_all(repo)
    assert vf(repo, "memory", "relevant", "src/ui/login.py", "the form", "--yes").returncode == 0
    ckpt = ok_json(vf(repo, "checkpoint", "create", "--json"))["checkpoint_id"]
    time.sleep(0.05)
    for link in ("link_in", "link_out", "link_up"):
        (repo / "lib" / link).unlink()
        write(repo, f"lib/{link}", "plain file now\n")
    write(repo, "lib/café.py", "changed\n")
    write(repo, "lib/データ 2.txt", "changed\n")
    return ckpt


def test_symlinks_are_recreated_only_inside_the_project(repo: Path) -> None:
    """A checkpoint link pointing inside is recreated as a link; links pointing outside
    (absolute or ../..) are not recreated and are reported as skipped."""
    _links_and_names(repo)
    done = ok_json(confirm(repo, to_confirm(repo)))
    assert done["status"] == "done"
    assert (repo / "lib/link_in").is_symlink()
    assert str((repo / "lib/link_in").readlink()) == "auth.py"
    for link in ("link_out", "link_up"):
        assert not (repo / "lib" / link).is_symlink()
        assert (repo / "lib" / link).read_text(encoding="utf-8") == "plain file now\n"
    skipped = {s["path"]: s["why"] for s in done["result"]["skipped"]}
    assert set(skipped) == {"lib/link_out", "lib/link_up"}
    assert all("outside" in why for why in skipped.values())


def test_non_ascii_names_are_restored_exactly(repo: Path) -> None:
    """Files with non-ASCII (and space) names come back byte for byte under the same
    (NFC) name, with no stray sibling created."""
    _links_and_names(repo)
    before = sorted(p.name for p in (repo / "lib").iterdir())
    done = ok_json(confirm(repo, to_confirm(repo)))
    assert done["status"] == "done"
    assert (repo / "lib/café.py").read_bytes() == "crème brûlée\n".encode()
    assert (repo / "lib/データ 2.txt").read_bytes() == "日本語\n".encode()
    assert sorted(p.name for p in (repo / "lib").iterdir()) == before


def _with_submodule(repo: Path, tmp_path: Path) -> None:
    lib = tmp_path / "libsrc"
    lib.mkdir()
    git(lib, "init", "-q", "-b", "main")
    git(lib, "config", "user.email", "dev@example.invalid")
    git(lib, "config", "user.name", "Dev")
    write(lib, "lib.py", "v1\n")
    commit_all(lib, "lib")
    write(repo, "src/ui/login.py", APP["src/ui/login.py"])
    write(repo, "src/services/auth.py", APP["src/services/auth.py"])
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib), "deps/lib")
    commit_all(repo)
    assert vf(repo, "memory", "relevant", "src/ui/login.py", "the form", "--yes").returncode == 0
    ok_json(vf(repo, "checkpoint", "create", "--json"))
    time.sleep(0.05)
    sub = repo / "deps/lib"
    git(sub, "config", "user.email", "dev@example.invalid")
    git(sub, "config", "user.name", "Dev")
    write(sub, "added.py", "new\n")
    commit_all(sub, "agent moves the submodule")
    write(repo, "src/services/auth.py", "loosened\n")


def test_a_submodule_is_skipped_and_the_restore_finishes(repo: Path, tmp_path: Path) -> None:
    """A full rollback whose paths include a submodule restores the other files, leaves
    the submodule's checkout alone, reports it as skipped and ends done (one confirm)."""
    _with_submodule(repo, tmp_path)
    sub_head = git(repo / "deps/lib", "rev-parse", "HEAD")
    run = start(repo)
    assert "deps/lib" in stored_option(repo, run, 4)["affected_paths"]
    done = ok_json(confirm(repo, choose(repo, run, 4)))
    assert (done["status"], done["state"]) == ("done", "result"), (
        done["status"],
        done["state"],
        done.get("post_sandwich_edits"),
    )
    assert (repo / "src/services/auth.py").read_text(encoding="utf-8") == APP[
        "src/services/auth.py"
    ]
    assert git(repo / "deps/lib", "rev-parse", "HEAD") == sub_head
    assert (repo / "deps/lib/added.py").exists()
    assert [s["path"] for s in done["result"]["skipped"]] == ["deps/lib"]


def test_the_restore_module_skips_submodules_and_never_writes_them(
    repo: Path, tmp_path: Path
) -> None:
    """restore.plan marks a gitlink entry as a skip with a reason, and restore.write leaves
    the submodule folder untouched."""
    _with_submodule(repo, tmp_path)
    g = Git(repo)
    head = git(repo, "rev-parse", "HEAD").strip()
    items = restore.plan(g, head, ["deps/lib"])
    assert [(i.path, i.action) for i in items] == [("deps/lib", "skip")]
    assert "submodule" in (items[0].reason or "")
    lease = LeaseFile(repo / ".vibflow" / "recovery").acquire("op_sub")
    listing = sorted(p.name for p in (repo / "deps/lib").iterdir())
    assert restore.write(repo, items[0], None, lease.commit) == "skipped: " + items[0].reason
    assert sorted(p.name for p in (repo / "deps/lib").iterdir()) == listing
    lease.release()
