"""A command group named alone: `vibflow runs`, `vibflow flows` and `vibflow checkpoint`,
whose one obvious action is their list, run it (same output and status as `… list`);
every other group — several reads and none the obvious one, only writes, or a
server — prints its usage and exits 2, as before; `--help` shows each group's help."""

from __future__ import annotations

from pathlib import Path

import pytest
from vibflow_testing.cli import vf
from vibflow_testing.repo import init_repo

pytestmark = pytest.mark.cli

LISTS = ["runs", "flows", "checkpoint"]
USAGE = ["audit", "memory", "hooks", "triggers", "policy", "agent", "mcp"]


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = init_repo(tmp_path_factory.mktemp("bare") / "p", {"a.py": "a = 1\n"})
    assert vf(root, "checkpoint", "create", "-m", "base").returncode == 0
    (root / "a.py").write_text("a = 2\n")
    assert vf(root, "run", "recover").returncode == 0  # a run for the list
    return root


@pytest.mark.parametrize("group", LISTS)
def test_a_group_whose_action_is_its_list_runs_it(repo: Path, group: str) -> None:
    """The explorer's repro: `vibflow runs` printed usage; it now lists, byte for byte
    as `vibflow runs list` (checkpoint and flows alike)."""
    bare, listed = vf(repo, group), vf(repo, group, "list")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.strip()
    assert (bare.returncode, bare.stdout, bare.stderr) == (0, listed.stdout, listed.stderr)


@pytest.mark.parametrize("group", USAGE)
def test_any_other_group_prints_usage_with_exit_2(repo: Path, group: str) -> None:
    """No single obvious action: usage on stderr, exit 2, nothing on stdout."""
    bare = vf(repo, group)
    assert bare.returncode == 2, (bare.stdout, bare.stderr)
    assert bare.stderr.startswith(f"Usage: vibflow {group} [OPTIONS] COMMAND [ARGS]...")
    assert bare.stdout == ""


@pytest.mark.parametrize("group", LISTS + USAGE)
def test_help_still_shows_the_group(repo: Path, group: str) -> None:
    """`vibflow GROUP --help` is the group's help with its commands (exit 0)."""
    helped = vf(repo, group, "--help")
    assert helped.returncode == 0, helped.stderr
    assert "Commands:" in helped.stdout


def test_outside_a_project_the_bare_list_fails_as_the_list_does(tmp_path: Path) -> None:
    """`vibflow checkpoint` outside a project: the list's own error and status."""
    bare, listed = vf(tmp_path, "checkpoint"), vf(tmp_path, "checkpoint", "list")
    assert bare.returncode == listed.returncode == 2
    assert bare.stderr == listed.stderr
