"""End-to-end: the CLI runs, pauses, blocks and finishes real runs."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from vibflow_testing.cli import Cli, as_json, clean_env, harness_cmd
from vibflow_testing.flows import read_effects


def test_linear_run_finishes_done_with_one_effect_per_state(cli: Cli, repo: Path) -> None:
    """A linear flow runs every step once and ends done, exit 0."""
    proc = cli("run", "linear", "--json")
    assert proc.returncode == 0, proc.stderr
    data = as_json(proc)
    assert data["status"] == "done"
    assert data["state"] == "end"
    assert data["blocked_reason"] is None
    assert str(data["recap_id"]).startswith("rcp_")
    assert len(read_effects(repo)) == 5


def test_wait_stops_non_interactively_and_prints_the_step_command(cli: Cli) -> None:
    """Without a TTY a wait stops the run and says exactly how to continue."""
    proc = cli("run", "guarded_apply")
    assert proc.returncode == 0, proc.stderr
    assert "is waiting at 'choose'" in proc.stdout
    assert "vibflow step run_" in proc.stdout


def test_json_output_escapes_what_utf8_cannot_carry() -> None:
    """A non-UTF-8 file name (lone surrogates) comes out as ASCII-escaped JSON that parses
    back to the same text; other text stays readable UTF-8."""
    from vibflow.cli.plain import dumps

    name = os.fsdecode(b"big-\xe9.bin")
    escaped = dumps({"path": name})
    escaped.encode("utf-8")
    assert json.loads(escaped) == {"path": name}
    assert "café" in dumps({"path": "café.txt"})


def test_json_output_survives_a_stream_that_is_not_utf8(repo: Path) -> None:
    """With stdout in cp1252 (a Windows pipe), a checkpoint message with an arrow still
    comes out as valid JSON, escaped, instead of an internal error."""
    proc = subprocess.run(
        harness_cmd("checkpoint", "create", "-m", "before → agent", "--json"),
        cwd=repo,
        env=clean_env(PYTHONIOENCODING="cp1252"),
        capture_output=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout.decode("cp1252"))
    assert data["message"] == "before → agent"
