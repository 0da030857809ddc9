"""The post-commit hook: it appends observed context only, install chains an existing
hook and uninstall restores it, and it never blocks a commit, even without vibflow."""

from __future__ import annotations

import subprocess
from pathlib import Path

from vibflow_testing.cli import Cli, as_json
from vibflow_testing.git import git

# -- hooks ------------------------------------------------------------------------------


def _commit(repo: Path, name: str) -> None:
    (repo / name).write_text(name, encoding="utf-8")
    git(repo, "add", name)
    git(repo, "commit", "-q", "-m", f"add {name}")


def test_post_commit_hook_appends_observed_context_only(cli: Cli, repo: Path) -> None:
    """The installed hook records commits; intent, decisions and next action survive."""
    assert cli("memory", "intent", "keep this intent", "--yes").returncode == 0
    assert cli("memory", "decide", "keep this decision", "--yes").returncode == 0
    assert cli("memory", "next", "keep this next step", "--yes").returncode == 0
    assert cli("hooks", "install").returncode == 0
    _commit(repo, "a.txt")
    _commit(repo, "b.txt")
    data = as_json(cli("memory", "show", "--json"))
    commits = [e for e in data["observed_context"] if e["kind"] == "commit"]
    assert [e["detail"]["sha"] for e in commits] == [
        git(repo, "rev-parse", "HEAD~1").strip(),
        git(repo, "rev-parse", "HEAD").strip(),
    ]
    assert data["active_intent"]["text"] == "keep this intent"
    assert [d["text"] for d in data["decisions"]] == ["keep this decision"]
    assert data["next_action"]["text"] == "keep this next step"


def test_hook_install_chains_an_existing_hook_and_uninstall_restores_it(
    cli: Cli, repo: Path
) -> None:
    """An existing post-commit hook keeps running; uninstall puts it back untouched."""
    hooks = repo / ".git" / "hooks"
    mine = hooks / "post-commit"
    original = '#!/bin/sh\necho ran >> "$(git rev-parse --show-toplevel)/.git/mine.log"\n'
    mine.write_text(original, encoding="utf-8")
    mine.chmod(0o755)
    assert "still runs first" in cli("hooks", "install").stdout
    assert "already installed" in cli("hooks", "install").stdout
    _commit(repo, "c.txt")
    assert (repo / ".git" / "mine.log").read_text() == "ran\n"
    data = as_json(cli("memory", "show", "--json"))
    assert any(e["kind"] == "commit" for e in data["observed_context"])
    assert cli("hooks", "uninstall").returncode == 0
    assert mine.read_text(encoding="utf-8") == original
    assert not (hooks / "post-commit.pre-vibflow").exists()


def test_hook_never_blocks_a_commit_even_without_vibflow(repo: Path) -> None:
    """With the interpreter gone, the hook exits 0 and the commit succeeds."""
    from vibflow.steps.hooks.post_commit import install

    install(repo, python="/nonexistent/python")
    env_path = "/usr/bin:/bin"
    _commit_env = subprocess.run(
        ["git", "-C", str(repo), "commit", "-q", "--allow-empty", "-m", "x"],
        env={
            "PATH": env_path,
            "HOME": str(repo),
            "GIT_AUTHOR_NAME": "a",
            "GIT_AUTHOR_EMAIL": "a@b.c",
            "GIT_COMMITTER_NAME": "a",
            "GIT_COMMITTER_EMAIL": "a@b.c",
        },
        capture_output=True,
        text=True,
        check=False,
    )
    assert _commit_env.returncode == 0, _commit_env.stderr
