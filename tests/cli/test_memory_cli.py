"""The memory CLI contract: confirmation and freshness in ``--json``, ``memory relevant``
goes through the path contract, and ``python -m vibflow memory`` works."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from vibflow_testing.cli import Cli, as_json

# -- CLI contract -------------------------------------------------------------------------


def test_memory_cli_confirmation_and_freshness_json(cli: Cli) -> None:
    """Without --yes (no TTY) intent writes exit 3; show --json carries freshness."""
    refused = cli("memory", "intent", "do the thing")
    assert refused.returncode == 3
    assert "--yes" in refused.stderr
    assert cli("memory", "intent", "do the thing", "--yes").returncode == 0
    assert cli("memory", "verify", "pytest -q", "--result", "pass").returncode == 0
    data = as_json(cli("memory", "show", "--json"))
    assert data["active_intent"]["text"] == "do the thing"
    assert data["freshness"]["intent_stale"] is False
    assert data["freshness"]["stale_verification"] == 1
    assert data["schema_version"] == 1
    schema = json.loads(cli("memory", "schema").stdout)
    assert schema["title"].startswith("vibflow project memory")


def test_memory_relevant_goes_through_the_path_contract(cli: Cli, repo: Path) -> None:
    """Relevant paths are stored project-relative; escapes are refused without echoing."""
    ok = cli("memory", "relevant", str(repo / "README.md"), "the readme", "--yes")
    assert ok.returncode == 0, ok.stderr
    data = as_json(cli("memory", "show", "--json"))
    assert data["relevant_files"][0]["path"] == "README.md"
    bad = cli("memory", "relevant", "../../etc/passwd", "nope", "--yes")
    assert bad.returncode == 2
    assert str(repo) not in bad.stderr
    assert "Traceback" not in bad.stderr


@pytest.mark.cli
def test_memory_cli_runs_from_python_module(repo: Path) -> None:
    """`python -m vibflow memory show` works inside a project (smoke)."""
    proc = subprocess.run(
        [sys.executable, "-m", "vibflow", "memory", "show"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Intent: (none)" in proc.stdout
