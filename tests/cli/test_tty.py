"""On a terminal, a wait prompts for the event and its inputs."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

from vibflow_testing import FLOWS
from vibflow_testing.cli import clean_env, harness_cmd
from vibflow_testing.git import git
from vibflow_testing.terminal import drive


def test_terminal_run_prompts_at_each_wait_until_done(repo: Path) -> None:
    """`vibflow run` on a TTY asks for the event and inputs at every wait."""
    code, text = drive(
        repo,
        ["run", "guarded_apply"],
        [
            ("Choose", "restore"),
            ("option (str)", "opt_1"),
            ("Choose", "2"),  # events at confirm: cancel, confirm
            ("confirmation (str)", "APPLY now"),
        ],
        env={"VIBFLOW_TEST_APPLY": "1"},
    )
    assert code == 0, text
    assert "finished at 'result'" in text


def test_empty_answer_stops_and_leaves_the_run_waiting(repo: Path) -> None:
    """An empty answer stops prompting; the run stays waiting with its command."""
    code, text = drive(repo, ["run", "guarded_apply"], [("Choose", "")], env={})
    assert code == 0, text
    assert "is waiting at 'choose'" in text
    assert "vibflow step run_" in text


def test_terminal_recover_restores_after_numbered_choice_and_typed_confirmation(
    tmp_path: Path,
) -> None:
    """On a terminal, recover offers options by number, its files (Enter = all) and
    the text to confirm."""
    demo = tmp_path / "demo"
    made = subprocess.run(
        harness_cmd("demo", "--dir", str(demo), "--json"),
        cwd=tmp_path,
        env=clean_env(),
        capture_output=True,
        text=True,
        check=True,
    )
    run_id = json.loads(made.stdout)["run_id"]
    subprocess.run(
        harness_cmd("runs", "abort", run_id),
        cwd=demo,
        env=clean_env(),
        capture_output=True,
        check=True,
    )

    def token(seen: str) -> str:
        return re.findall(r"Type exactly '(APPLY ckpt_[0-9a-f]{32})'", seen)[-1]

    code, text = drive(
        demo,
        ["run", "recover"],
        [
            ("Which one (", "1"),  # with the apply on, the partial restore leads
            ("Which files (", ""),  # Enter: all of its files
            ("c cancels, q stops)", token),
        ],
        env={"VIBFLOW_RECOVERY_APPLY": "1"},
    )
    assert code == 0, text
    assert "files modified by vibflow: 2" in text
    status = git(demo, "status", "--porcelain")
    assert "config.yaml" not in status
    assert "src/services/auth.py" not in status
    assert "src/ui/login.py" in status  # in-scope work kept


def test_json_is_indented_on_a_terminal_and_one_line_in_a_pipe(repo: Path) -> None:
    """`--json` indents for a person at a terminal and prints one line for a program;
    both parse to the same object."""
    code, text = drive(repo, ["runs", "list", "--json"], [], env={})
    assert code == 0, text
    on_terminal = text.replace("\r\n", "\n")
    assert on_terminal.startswith("{\n  ")
    piped = subprocess.run(
        harness_cmd("runs", "list", "--json"),
        cwd=repo,
        env=clean_env(),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert piped.count("\n") == 1
    assert json.loads(on_terminal) == json.loads(piped)


def test_a_typed_input_of_the_wrong_type_is_asked_again(repo: Path) -> None:
    """A required input that does not parse as its declared type is asked again
    with the reason, instead of ending the command with bad input."""
    shutil.copy(FLOWS / "tty" / "typed_wait.yaml", repo / ".vibflow" / "flows")
    code, text = drive(
        repo,
        ["run", "typed_wait"],
        [("Choose", "go"), ("count (int)", "three"), ("count (int)", "3")],
        env={},
    )
    assert code == 0, text
    assert "must be of type int; try again" in text
    assert "finished at 'end'" in text
