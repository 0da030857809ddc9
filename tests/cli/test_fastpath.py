"""The typer-free fast path (``recover``, ``runs list``, ``triggers check``,
``handoff``) against typer, byte for byte.

``python -m vibflow`` offers each command line to ``vibflow.cli.fastpath``
first; the same line given to ``run_cli`` (typer) must print the same stdout
and stderr and end with the same status — on a project with an intent, a
checkpoint and drift, with a secret planted in memory and in a changed file's
name, with bad input, outside a project, with ``--help`` and typos (which the
fast path leaves to typer). Each front door works on its own copy of the
project, so a preview one records cannot change what the other shows. Only
the random plan and option ids, clock times (``generated_at``) and ages
measured from the clock (``intent_age_hours``) are masked before comparing.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from vibflow_testing.cli import clean_env
from vibflow_testing.git import run_git
from vibflow_testing.redaction import AWS, GHP
from vibflow_testing.repo import init_repo, write

from vibflow.cli import fastpath

pytestmark = pytest.mark.cli

#: typer's front door with the ending ``__main__`` gives every command.
_TYPER = (
    "import sys\n"
    "from vibflow.cli.app import run_cli\n"
    "code = run_cli(sys.argv[1:])\n"
    "sys.stdout.flush()\n"
    "sys.exit(code)\n"
)
_RANDOM_IDS = re.compile(r"\b(rec|opt|rcp)_[0-9a-f]{32}\b")
# Seconds optional: a handoff's heading shows the minute (the two runs may straddle one).
_CLOCK = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)?")
#: An age measured from the clock, as text (``intent_age_hours = 0.008``) or JSON.
_AGE = re.compile(r"(\w+_age_\w+ = |\"metric\": \"\w+_age_\w+\"[^}]*?\"value\": )[0-9.]+")


def _fast(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return _spawn([sys.executable, "-m", "vibflow", *args], cwd)


def _typer(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return _spawn([sys.executable, "-c", _TYPER, *args], cwd)


def _spawn(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv,
        cwd=cwd,
        env=clean_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _masked(text: str) -> str:
    return _AGE.sub(r"\1<age>", _CLOCK.sub("<time>", _RANDOM_IDS.sub(r"\1_<id>", text)))


def _project(root: Path) -> Path:
    """A small app with an intent (a secret in its text), an explicit file, a
    checkpoint, and an agent's drift (one new file's name carries a token)."""
    files = {f"src/app/m{i}.py": f"def f{i}():\n    return {i}\n" for i in range(8)}
    files |= {"src/app/auth.py": "def login(user):\n    return user\n", "README.md": "# app\n"}
    init_repo(root, files, old=True)
    for args in (
        ["memory", "intent", f"fix the login bug (key {AWS})", "--yes"],
        ["memory", "relevant", "src/app/auth.py", "what the intent is about", "--yes"],
        ["checkpoint", "create", "-m", "before the agent"],
    ):
        done = _fast(args, root)
        assert done.returncode == 0, done.stderr
    write(root, "src/app/auth.py", "def login(user):\n    return bool(user)\n")
    write(root, "src/app/m3.py", "DEBUG = True\n")
    write(root, f"notes/{GHP}.txt", "scratch\n")
    (root / "src/app/m5.py").unlink()
    (root / "sub").mkdir()
    return root


@pytest.fixture(scope="module")
def twins(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two identical copies of the project: one per front door."""
    base = tmp_path_factory.mktemp("fastpath")
    fast = _project(base / "fast" / "app")
    slow = base / "typer" / "app"
    shutil.copytree(fast, slow, symlinks=True)
    for root in (fast, slow):  # the copy's index: stat data refreshed, as a user's would be
        run_git(root, "status", "--porcelain")
    return fast, slow


LINES = [
    ["recover"],
    ["recover", "--explain"],
    ["recover", "--preview"],
    ["recover", "--preview", "--json"],
    ["recover", "--explain", "--json"],
    ["recover", "--json", "--all", "--preview"],
    ["recover", "--all"],
    ["recover", "--preview", "--preview", "--json"],
    ["recover", "--explain", "--preview"],  # bad input: exit 2
    ["recover", "--explain", "--preview", "--json"],  # bad input answered in JSON
    ["--debug", "recover", "--preview", "--json"],
    ["recover", "--help"],  # typer's help
    ["recover", "--previw"],  # a typo: typer's usage error
    ["--json", "recover"],  # an option at the wrong level
    ["recover", "feedback", "rec_0"],  # a subcommand
    ["runs", "list"],
    ["runs"],  # alone: the list
    ["runs", "--json"],  # the bare group takes no options: typer's usage error
    ["runs", "list", "--json", "--limit", "5"],
    ["runs", "list", "--status=done", "--limit=1000"],
    ["runs", "list", "--limit", "0"],  # out of range: typer's error
    ["runs", "list", "--limit", "1001"],
    ["runs", "list", "--status", "nonsense", "--json"],
    ["triggers", "check"],
    ["triggers", "check", "--json"],
    ["handoff"],
    ["handoff", "--json", "--for", "agent", "--budget", "2000"],
    ["handoff", "--for=human", "--budget=300"],
    ["handoff", "--budget", "0", "--json"],
    ["handoff", "--out", "handoff.md"],
    ["handoff", "--out", "no/such/folder/handoff.md", "--json"],  # bad input
    ["handoff", "--for", "robot"],  # not a choice: typer's error
    ["recap"],
    ["recap", "--json"],
    ["recap", "list", "--json"],  # a subcommand: typer's
]


@pytest.mark.parametrize("args", LINES, ids=[" ".join(a) for a in LINES])
def test_same_output_and_status_as_typer(twins: tuple[Path, Path], args: list[str]) -> None:
    """Each line prints the same bytes and exits the same way by either front door."""
    fast_root, typer_root = twins
    fast, slow = _fast(args, fast_root), _typer(args, typer_root)
    assert (fast.returncode, _masked(fast.stdout), _masked(fast.stderr)) == (
        slow.returncode,
        _masked(slow.stdout),
        _masked(slow.stderr),
    )


@pytest.mark.parametrize(
    "args",
    [
        ["-C", "..", "recover", "--preview"],
        ["--project", "..", "recover", "--json"],
        ["--project=..", "recover", "--explain", "--json"],
    ],
)
def test_project_option_from_a_subfolder(twins: tuple[Path, Path], args: list[str]) -> None:
    """``-C``/``--project`` name the project the same way by either front door."""
    fast_root, typer_root = twins
    fast, slow = _fast(args, fast_root / "sub"), _typer(args, typer_root / "sub")
    assert fast.returncode == 0, fast.stderr
    assert (fast.returncode, _masked(fast.stdout), fast.stderr) == (
        slow.returncode,
        _masked(slow.stdout),
        slow.stderr,
    )


def test_secrets_stay_masked_on_the_fast_path(twins: tuple[Path, Path]) -> None:
    """The planted secrets (in the intent, in a changed file's name) never show."""
    fast_root, _ = twins
    for args in (["recover", "--preview"], ["recover", "--explain", "--json", "--all"]):
        done = _fast(args, fast_root)
        assert done.returncode == 0, done.stderr
        assert AWS not in done.stdout + done.stderr
        assert GHP not in done.stdout + done.stderr
        assert "[REDACTED" in done.stdout


def test_outside_a_project(tmp_path: Path) -> None:
    """Not a project: the same message, JSON error and status by either front door."""
    for args in (["recover"], ["recover", "--preview", "--json"]):
        fast, slow = _fast(args, tmp_path), _typer(args, tmp_path)
        assert fast.returncode == slow.returncode != 0
        assert (fast.stdout, fast.stderr) == (slow.stdout, slow.stderr)


def test_typer_is_not_imported_for_a_fast_line(twins: tuple[Path, Path]) -> None:
    """A recognised line never imports typer (the point of the fast path)."""
    fast_root, _ = twins
    probe = (
        "import sys, runpy\n"
        "sys.argv = ['vibflow', 'recover', '--explain', '--json']\n"
        "from vibflow.cli import fastpath\n"
        "code = fastpath.run(sys.argv[1:])\n"
        "sys.stdout.flush()\n"
        "print('typer' in sys.modules, code, file=sys.stderr)\n"
    )
    done = _spawn([sys.executable, "-c", probe], fast_root)
    assert done.stderr.strip().splitlines()[-1] == "False 0"


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--help"],
        ["recover", "--help"],
        ["recover", "-h"],
        ["recover", "feedback", "x"],
        ["recover", "--preview=1"],
        ["-C", "", "recover"],
        ["-C", "--json", "recover"],
        ["-C"],
        ["--debug", "--json", "recover"],
        ["runs", "--json"],  # the bare group takes no options: typer's usage error
        ["recover", "--", "--preview"],
        ["runs", "show", "x"],
        ["runs", "list", "--limit"],
        ["runs", "list", "--limit", "-3"],
        ["runs", "list", "--limit", "٣"],
        ["runs", "list", "--status="],
        ["triggers", "check", "--all"],
        ["handoff", "--for", "Agent"],
        ["handoff", "--budget", "1e3"],
        ["handoff", "--json=1"],
        ["recap", "list"],
        ["recap", "rcp_0"],
        ["recap", "--json=1"],
        ["mcp", "serve", "--rescan-rate", "2"],  # out of range: typer's usage error
        ["mcp", "serve", "--rescan-rate", "nan"],
        ["mcp", "serve", "--rescan-rate", " 0.5"],
        ["mcp", "serve", "--client"],
        ["mcp", "serve", "--help"],
        ["mcp"],
    ],
)
def test_lines_left_to_typer(argv: list[str]) -> None:
    """Anything but the exact recognised spellings is typer's to read."""
    assert fastpath.parse(argv) is None


def test_recognised_lines() -> None:
    """The global options before the command, its flags in any order and its
    options' values (the last one given wins) are read."""
    line = fastpath.parse(["--debug", "-C", "x", "--project=y", "recover", "--all", "--json"])
    assert line == fastpath.FastLine(
        True, Path("y"), ("recover",), frozenset({"--all", "--json"}), {}
    )
    assert fastpath.parse(["recover"]) == fastpath.FastLine(
        False, None, ("recover",), frozenset(), {}
    )
    line = fastpath.parse(["runs", "list", "--limit", "3", "--status=done", "--limit=7"])
    assert line == fastpath.FastLine(
        False, None, ("runs", "list"), frozenset(), {"--limit": "7", "--status": "done"}
    )
    assert fastpath.parse(["runs"]) == fastpath.FastLine(False, None, ("runs",), frozenset(), {})
    assert fastpath.parse(["recap", "--json"]) == fastpath.FastLine(
        False, None, ("recap",), frozenset({"--json"}), {}
    )
    line = fastpath.parse(["handoff", "--for", "agent", "--out", "h.md", "--budget", "10"])
    assert line is not None
    assert line.options == {"--for": "agent", "--out": "h.md", "--budget": "10"}
    line = fastpath.parse(["-C", "p", "mcp", "serve", "--client", "claude-code", "--rescan-rate=1"])
    assert line == fastpath.FastLine(
        False,
        Path("p"),
        ("mcp", "serve"),
        frozenset(),
        {"--client": "claude-code", "--rescan-rate": "1"},
    )
