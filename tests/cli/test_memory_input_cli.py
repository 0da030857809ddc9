"""Memory input from the command line: empty or blank text is bad input (exit 2, never an
internal error), ``memory relevant`` warns about a path that is not in the work tree and
can take a path off the list, and every memory and hooks write answers ``--json``."""

from __future__ import annotations

import os
import pty
import subprocess
from pathlib import Path

import pytest
from vibflow_testing.cli import Cli, as_json, clean_env, harness_cmd

#: Each memory command that takes free text, with TEXT where the text goes.
TEXT_COMMANDS = {
    "intent": ("intent", "TEXT", "--yes"),
    "decide": ("decide", "TEXT", "--yes"),
    "next": ("next", "TEXT", "--yes"),
    "relevant-why": ("relevant", "README.md", "TEXT", "--yes"),
    "verify": ("verify", "TEXT", "--result", "pass"),
    "risk": ("risk", "TEXT"),
}


@pytest.mark.parametrize("text", ["", "   \t "], ids=["empty", "blank"])
@pytest.mark.parametrize("command", sorted(TEXT_COMMANDS))
def test_empty_or_blank_memory_text_is_bad_input(cli: Cli, command: str, text: str) -> None:
    """An empty or whitespace-only text is refused as bad input and nothing is stored."""
    args = [text if a == "TEXT" else a for a in TEXT_COMMANDS[command]]
    proc = cli("memory", *args)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "cannot be empty" in proc.stderr
    assert "internal error" not in proc.stderr
    assert "Traceback" not in proc.stderr
    shown = as_json(cli("memory", "show", "--json"))
    assert shown["active_intent"] is None
    assert shown["decisions"] == shown["verification"] == shown["risks"] == []
    assert shown["next_action"] is None
    assert shown["relevant_files"] == []


def test_blank_text_is_refused_on_a_terminal_without_asking_to_confirm_it(repo: Path) -> None:
    """On a terminal, a blank intent is bad input straight away: no "Set the active intent
    to: '  '?" question first."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        harness_cmd("memory", "intent", "  "),
        cwd=repo,
        env=clean_env(),
        stdin=follower,
        stdout=follower,
        stderr=follower,
        close_fds=True,
    )
    os.close(follower)
    os.write(leader, b"n\n")  # the answer, were it asked
    transcript = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal closed: the process is gone
            break
        if not chunk:
            break
        transcript += chunk
    os.close(leader)
    assert proc.wait(timeout=60) == 2
    text = transcript.decode(errors="replace")
    assert "the intent cannot be empty" in text
    assert "Set the active intent" not in text


def test_memory_text_over_the_limit_is_bad_input(cli: Cli) -> None:
    """An intent longer than memory keeps is bad input that says the limit."""
    proc = cli("memory", "intent", "x" * 2001, "--yes")
    assert proc.returncode == 2
    assert "at most 2000" in proc.stderr


def test_memory_text_is_stored_without_surrounding_blanks(cli: Cli) -> None:
    """Leading and trailing blanks are not part of what is remembered."""
    assert cli("memory", "intent", "  fix the form \n", "--yes").returncode == 0
    assert as_json(cli("memory", "show", "--json"))["active_intent"]["text"] == "fix the form"


def test_relevant_warns_when_the_path_is_not_in_the_work_tree(cli: Cli) -> None:
    """A path that does not exist is recorded (you may be about to create it) with a
    warning, exit 0; an existing one gets no warning."""
    missing = cli("memory", "relevant", "src/not_yet.py", "the new form", "--yes")
    assert missing.returncode == 0, missing.stderr
    assert "warning: src/not_yet.py does not exist in the work tree" in missing.stderr
    present = cli("memory", "relevant", "README.md", "the readme", "--yes")
    assert present.returncode == 0
    assert "warning" not in present.stderr
    as_data = as_json(cli("memory", "relevant", "src/other.py", "later", "--yes", "--json"))
    assert as_data["warnings"] == ["src/other.py does not exist in the work tree (recorded anyway)"]
    paths = [f["path"] for f in as_json(cli("memory", "show", "--json"))["relevant_files"]]
    assert paths == ["src/not_yet.py", "README.md", "src/other.py"]


def test_relevant_remove_takes_a_path_off_the_list(cli: Cli, repo: Path) -> None:
    """`memory relevant --remove PATH` removes it (confirmed); an unknown path is bad input
    with a did-you-mean; a reason next to --remove is bad input."""
    assert cli("memory", "relevant", "README.md", "the readme", "--yes").returncode == 0
    assert cli("memory", "relevant", "src/app.py", "the app", "--yes").returncode == 0
    unconfirmed = cli("memory", "relevant", "--remove", "README.md")
    assert unconfirmed.returncode == 3
    assert "--yes" in unconfirmed.stderr
    typo = cli("memory", "relevant", "--remove", "READMY.md", "--yes")
    assert typo.returncode == 2
    assert "did you mean README.md" in typo.stderr
    both = cli("memory", "relevant", "--remove", "README.md", "a reason", "--yes")
    assert both.returncode == 2
    assert "not a reason" in both.stderr
    gone = as_json(
        cli("memory", "relevant", "--remove", str(repo / "README.md"), "--yes", "--json")
    )
    assert gone["removed"] == "README.md"
    paths = [f["path"] for f in as_json(cli("memory", "show", "--json"))["relevant_files"]]
    assert paths == ["src/app.py"]


def test_relevant_without_a_reason_is_bad_input(cli: Cli) -> None:
    """WHY is required when adding a relevant file."""
    proc = cli("memory", "relevant", "README.md", "--yes")
    assert proc.returncode == 2
    assert "say why README.md is relevant" in proc.stderr


def test_every_memory_write_answers_json(cli: Cli, repo: Path) -> None:
    """Each memory write with --json prints one object: ok, field, message, the stored
    entry, redaction counts and warnings."""
    legacy = repo.parent / "work_memory.json"
    legacy.write_text('{"decisions": ["keep v1"]}', encoding="utf-8")
    writes = {
        "active_intent": ("intent", "fix the form", "--yes"),
        "decisions": ("decide", "keep the old API", "--yes"),
        "next_action": ("next", "wire it up", "--yes"),
        "relevant_files": ("relevant", "README.md", "the readme", "--yes"),
        "verification": ("verify", "pytest -q", "--result", "pass", "--files", "README.md"),
        "risks": ("risk", "labels unchecked", "--kind", "skipped_check"),
        "import": ("import", str(legacy), "--yes"),
    }
    for field, args in writes.items():
        proc = cli("memory", *args, "--json")
        assert proc.returncode == 0, proc.stderr
        data = as_json(proc)
        assert set(data) == {"ok", "field", "message", "entry", "redaction", "warnings"}
        assert (data["ok"], data["field"], data["warnings"]) == (True, field, [])
    assert as_json(cli("memory", "intent", "x", "--yes", "--json"))["entry"]["text"] == "x"
    risk = as_json(cli("memory", "risk", "again", "--json"))["entry"]
    assert (risk["text"], risk["kind"]) == ("again", "warning")
    verified = as_json(cli("memory", "verify", "make", "--result", "fail", "--json"))["entry"]
    assert (verified["command"], verified["result"]) == ("make", "fail")


def test_memory_write_json_counts_redactions(cli: Cli) -> None:
    """A secret in the text is redacted before saving, and the JSON says how many."""
    data = as_json(
        cli("memory", "decide", "use key sk_live_abcdefghijklmnopqrstuvwx1234", "--yes", "--json")
    )
    assert sum(data["redaction"].values()) >= 1
    assert "sk_live_abcdefghijklmnopqrstuvwx1234" not in data["entry"]["text"]


def test_hooks_install_and_uninstall_answer_json(cli: Cli) -> None:
    """hooks install / uninstall with --json say whether anything changed."""
    first = as_json(cli("hooks", "install", "--json"))
    assert (first["ok"], first["hook"], first["changed"], first["chained"]) == (
        True,
        "post-commit",
        True,
        False,
    )
    assert first["path"] == ".git/hooks/post-commit"
    assert as_json(cli("hooks", "install", "--json"))["changed"] is False
    assert as_json(cli("hooks", "uninstall", "--json"))["changed"] is True
    assert as_json(cli("hooks", "uninstall", "--json"))["changed"] is False
