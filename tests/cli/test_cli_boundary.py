"""The CLI's one exception boundary, seen from outside: real processes, real pipes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from vibflow_testing.cli import Cli, as_json, clean_env, harness_cmd

ENTRY_POINTS = {
    "console": [sys.executable, "-m", "vibflow"],  # __main__.main, as the `vibflow` script
    "harness": harness_cmd(),  # run_cli called directly, then sys.exit
}


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
@pytest.mark.parametrize("args", [["flows", "list"], ["runs", "list", "--json"]])
def test_output_into_a_closed_pipe_exits_quietly(entry: str, args: list[str], repo: Path) -> None:
    """Output piped into a reader that is already gone (`| head`) ends with no traceback,
    no "internal error" and no message at all, status 141 like a tool killed by SIGPIPE."""
    proc = subprocess.Popen(
        [*ENTRY_POINTS[entry], *args],
        cwd=repo,
        env=clean_env(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    proc.stdout.close()  # the reader leaves before the first line is written
    _, stderr = proc.communicate(timeout=120)
    text = stderr.decode("utf-8", "replace")
    assert "Traceback" not in text
    assert "internal error" not in text
    assert text == ""
    assert proc.returncode == 141


def test_vibflow_error_maps_to_its_status_and_json_error(cli: Cli, tmp_path: Path) -> None:
    """A VibflowError is one line on stderr, the JSON error object on stdout with --json,
    and the exit status of its code (bad input: 2); no traceback without --debug."""
    outside = tmp_path / "not-a-repo"
    outside.mkdir()
    proc = cli("runs", "list", "--json", cwd=outside)
    assert proc.returncode == 2
    assert as_json(proc)["error"]["kind"] == "not_a_project"
    assert proc.stderr.startswith("vibflow: ")
    assert proc.stderr.count("\n") == 1
    assert "Traceback" not in proc.stderr


def test_debug_adds_the_traceback(cli: Cli, tmp_path: Path) -> None:
    """--debug prints the traceback before the same one-line message."""
    outside = tmp_path / "not-a-repo"
    outside.mkdir()
    proc = cli("--debug", "runs", "list", cwd=outside)
    assert proc.returncode == 2
    assert "Traceback" in proc.stderr
    assert proc.stderr.rstrip().splitlines()[-1].startswith("vibflow: ")


def test_usage_error_keeps_clicks_message_and_status_2(cli: Cli) -> None:
    """An unknown option is click's usage error, exit 2, not a vibflow error."""
    proc = cli("runs", "list", "--bogus")
    assert proc.returncode == 2
    assert "No such option: --bogus" in proc.stderr
    assert "vibflow:" not in proc.stderr


def test_a_command_runs_with_the_raised_collector_threshold_and_still_collects(
    repo: Path,
) -> None:
    """`vibflow` raises the young-generation threshold for its run (the start's objects
    are never garbage) but keeps the collector on: cycles made during the command are
    still collected."""
    probe = (
        "import atexit, gc, sys\n"
        "from vibflow.__main__ import COMMAND_GC_THRESHOLD, main\n"
        "def report():\n"
        "    class Node:\n"
        "        pass\n"
        "    for _ in range(3 * COMMAND_GC_THRESHOLD):\n"
        "        a, b = Node(), Node(); a.other, b.other = b, a\n"
        "    print(gc.isenabled(), gc.get_threshold()[0] == COMMAND_GC_THRESHOLD,\n"
        "          gc.get_stats()[0]['collected'] > 0, file=sys.stderr)\n"
        "atexit.register(report)\n"
        "sys.argv = ['vibflow', 'runs', 'list', '--json']\n"
        "main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=repo,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.split() == ["True", "True", "True"]
