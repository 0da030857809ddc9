"""Commands are mounted by name: a command line imports and builds only the command it
names, while ``--help`` still lists every mounted command in table order and a typo is
still answered with the nearest names."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from vibflow_testing.cli import clean_env, vf
from vibflow_testing.repo import init_repo

from vibflow.cli.app import COMMANDS


def _loaded_after(cwd: Path, *argv: str) -> set[str]:
    """The vibflow.cli modules imported by one in-process command line."""
    code = (
        "import contextlib, io, sys\n"
        "from vibflow.cli.app import run_cli\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    code = run_cli({list(argv)!r})\n"
        "assert code == 0, code\n"
        "print(' '.join(m for m in sys.modules if m.startswith('vibflow.cli.')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        env=clean_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    return set(out.stdout.split())


def test_a_command_line_imports_only_its_command(tmp_path: Path) -> None:
    """`runs list` loads runs_cmd and none of the other command modules."""
    repo = init_repo(tmp_path / "repo")
    loaded = _loaded_after(repo, "runs", "list")
    assert "vibflow.cli.runs_cmd" in loaded
    others = {where.split(":")[0] for where in COMMANDS.values()} - {"vibflow.cli.runs_cmd"}
    assert not loaded & others, loaded & others


def test_help_lists_every_mounted_command_in_table_order(tmp_path: Path) -> None:
    """The root help names each table entry once, in the table's order."""
    proc = vf(tmp_path, "--help")
    assert proc.returncode == 0, proc.stderr
    listed = [
        line.split()[0]
        for line in proc.stdout.split("\nCommands:\n", 1)[1].splitlines()
        if line.startswith("  ") and not line.startswith("   ")
    ]
    assert listed == list(COMMANDS)


def test_a_typo_is_answered_with_the_nearest_command(tmp_path: Path) -> None:
    """An unknown command is a usage error (status 2) that suggests the near names."""
    proc = vf(tmp_path, "recvoer")
    assert proc.returncode == 2
    assert "No such command 'recvoer'. Did you mean 'recover', 'revoke'?" in proc.stderr
