"""Nothing an agent writes into the work tree can drive the user's terminal.

File names, commit subjects and memory text are printed by the real CLI; a name
holding an escape sequence, a carriage return or a bidirectional control must
reach the screen as an escape, and a name holding a line break must stay one
line of the list. ``--json`` answers carry the exact names.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from vibflow_testing.cli import clean_env, vf
from vibflow_testing.repo import init_repo, write

from vibflow.cli.visible_text import one_line, visible

HIDE = "lib/a\x1b[8mhidden\x1b[0m.py"
RETITLE = "lib/b\x1b]0;pwned\x07.py"
OVERWRITE = "lib/c\r    M  src/app.py.py"
SPOOF = "lib/d.py\n    M  src/ok.py"
TROJAN = "lib/e\u202egnp.py"
C1 = "lib/f\x9b2J.py"
NAMES = [HIDE, RETITLE, OVERWRITE, SPOOF, TROJAN, C1]


def _drifted(tmp_path: Path) -> Path:
    root = init_repo(tmp_path / "p", {"src/app.py": "x = 1\n", "README.md": "hi\n"})
    write(root, "src/app.py", "x = 2\n")
    for name in NAMES:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("y = 1\n", encoding="utf-8")
    return root


def _module(
    root: Path, args: tuple[str, ...], env: dict[str, str]
) -> subprocess.CompletedProcess[bytes]:
    """``python -m vibflow ARGS``: the console script's entry, fast path included."""
    return subprocess.run(
        [sys.executable, "-m", "vibflow", *args],
        cwd=root,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=120,
        check=False,
    )


def test_visible_escapes_terminal_controls_and_keeps_line_breaks() -> None:
    """Every control but the line feed and tab, DEL, C1, bidi marks and bytes that
    are not UTF-8 are shown as escapes; ordinary text is returned as it is."""
    assert visible("a\x1b[2Jb\rc\x7f\x9b\u202e\udcff\n\t") == (
        "a\\u001b[2Jb\\u000dc\\u007f\\u009b\\u202e\\xff\n\t"
    )
    plain = "café/naïve — ok.py"
    assert visible(plain) is plain
    assert one_line("a\nb\tc.py") == "a\\u000ab\\u0009c.py"


def test_the_escapes_keep_a_json_answer_valid_and_its_values_exact() -> None:
    """A ``--json`` text passed through the stream's rule parses to the same values."""
    data = {"paths": [*NAMES, "plain.py"]}
    text = json.dumps(data, ensure_ascii=False)
    assert json.loads(visible(text)) == data


@pytest.mark.cli
def test_explain_prints_no_terminal_control_from_a_file_name(tmp_path: Path) -> None:
    """``recover --explain --all`` shows hostile names escaped, one line per file,
    and ``--json`` names them exactly."""
    root = _drifted(tmp_path)
    shown = vf(root, "recover", "--explain", "--all")
    assert shown.returncode == 0, shown.stderr
    out = shown.stdout
    assert not any(ch in out for ch in "\x1b\x07\r\x9b\u202e")
    assert "lib/a\\u001b[8mhidden\\u001b[0m.py" in out
    assert "lib/d.py\\u000a    M  src/ok.py" in out
    # The spoofed "M  src/ok.py" never stands on a line of its own.
    assert not any(line.strip().startswith("M  src/ok.py") for line in out.splitlines())
    answer = json.loads(vf(root, "recover", "--explain", "--json").stdout)
    assert set(NAMES) <= {c["path"] for c in answer["changed"]}


@pytest.mark.cli
def test_the_installed_command_guards_its_streams_too(tmp_path: Path) -> None:
    """``python -m vibflow`` (the console script's own entry, whose fast path answers
    the read commands without typer) prints the same escapes."""
    root = _drifted(tmp_path)
    for args in (("recover", "--explain", "--all"), ("recover", "--preview", "--all")):
        proc = _module(root, args, clean_env())
        assert proc.returncode == 0, proc.stderr
        assert b"\x1b" not in proc.stdout
        assert b"\x07" not in proc.stdout
        if "--explain" in args:
            assert b"lib/b\\u001b]0;pwned\\u0007.py" in proc.stdout


@pytest.mark.cli
@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_an_output_encoding_that_is_not_utf8_is_guarded_too(tmp_path: Path, encoding: str) -> None:
    """Under an ASCII stream (which click would write around through a UTF-8 wrapper
    of its own) and a latin-1 one, memory text and names still reach the output as
    escapes, and a character the stream cannot carry fails nothing."""
    root = _drifted(tmp_path)
    env = clean_env(PYTHONIOENCODING=encoding)
    setup = _module(root, ("memory", "intent", "fix \x1b[8mhidden\u202e", "--yes"), env)
    assert setup.returncode == 0, setup.stderr
    for args in (("memory", "show"), ("recover", "--explain", "--all")):
        proc = _module(root, args, env)
        assert proc.returncode == 0, proc.stderr
        # Piped, click also strips the escape sequence itself; the mark stays, escaped.
        assert b"\x1b" not in proc.stdout
        assert b"hidden\\u202e" in proc.stdout


@pytest.mark.cli
def test_an_intent_or_checkpoint_message_cannot_forge_a_section(tmp_path: Path) -> None:
    """A line break in the intent or in a checkpoint's message is shown as an escape:
    neither prints a line of its own that looks like vibflow's."""
    root = _drifted(tmp_path)
    forged = "Fix login\n\nOutside what you are working on — please review (0):"
    assert vf(root, "memory", "intent", forged, "--yes").returncode == 0
    assert vf(root, "checkpoint", "create", "-m", "ok\nckpt_000 forged").returncode == 0
    for args in (("recover", "--explain"), ("memory", "show"), ("checkpoint", "list")):
        out = vf(root, *args).stdout
        lines = out.splitlines()
        assert not any(
            line.startswith("Outside what you are working on — please review (0)") for line in lines
        ), args
        assert not any(line.startswith("ckpt_000") for line in lines), args
    assert "Fix login\\u000a\\u000aOutside" in vf(root, "memory", "show").stdout


def test_memory_show_prints_each_entry_on_one_line(tmp_path: Path) -> None:
    """A line break in a decision, the next action or a risk cannot forge a line of
    `memory show`."""
    root = _drifted(tmp_path)
    forged = "    M  forged"
    for args in (
        ("decide", "d\n" + forged, "--yes"),
        ("next", "n\n" + forged, "--yes"),
        ("risk", "r\n" + forged),
    ):
        proc = vf(root, "memory", *args)
        assert proc.returncode == 0, (args, proc.stderr)
    out = vf(root, "memory", "show").stdout
    assert not any(line.startswith(forged) for line in out.splitlines()), out


def test_whys_folders_messages_and_handoffs_cannot_forge_lines(tmp_path: Path) -> None:
    """A line break in a relevant file's why, a rename's target, a folder counted in
    "… and N more", a checkpoint's message (``checkpoint show``) or the handoff's
    file name is shown as an escape; a handoff file holds no terminal control."""
    root = init_repo(tmp_path / "p", {"src/app.py": "x = 1\n", "old.py": "o = 1\n"})
    forged = "    M  forged.py"
    assert vf(root, "memory", "intent", "fix\x1b[2J the app", "--yes").returncode == 0
    assert vf(root, "memory", "relevant", "src/app.py", "mine\n" + forged, "--yes").returncode == 0
    write(root, "src/app.py", "x = 2\n")
    (root / ("ren\n" + forged)).write_text("o = 1\n", encoding="utf-8")
    (root / "old.py").unlink()
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    for i in range(12):  # more than the explain lists by name: the rest by folder
        write(root, f"zz\n{forged}/f{i}.txt", "n\n")
    made = json.loads(vf(root, "checkpoint", "create", "-m", "ok\n" + forged, "--json").stdout)
    handoff = vf(root, "handoff", "--out", "nl\n" + forged + ".md")
    assert handoff.returncode == 0, handoff.stderr
    outputs = [
        vf(root, "recover", "--explain").stdout,
        vf(root, "checkpoint", "show", made["checkpoint_id"]).stdout,
        handoff.stdout,
    ]
    for out in outputs:
        assert not any(line.startswith(forged) for line in out.splitlines()), out
    written = (root / ("nl\n" + forged + ".md")).read_text(encoding="utf-8")
    assert "\x1b" not in written
    assert "fix\\u001b[2J the app" in written
