"""On a terminal, a wait prompts for the event and its inputs."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import time
from pathlib import Path

from vibflow_testing.cli import clean_env, harness_cmd
from vibflow_testing.git import git


def _drive(
    repo: Path, args: list[str], answers: list[tuple[str, str]], env: dict[str, str]
) -> tuple[int, str]:
    """Run the CLI on a pseudo-terminal, answering each prompt when it appears."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        harness_cmd(*args),
        cwd=repo,
        env=clean_env(**env),
        stdin=follower,
        stdout=follower,
        stderr=follower,
        close_fds=True,
    )
    os.close(follower)
    seen = b""  # what came since the last answered prompt
    transcript = b""
    pending = list(answers)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(leader, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
            transcript += chunk
        if pending and pending[0][0].encode() in seen:
            prompt, reply = pending.pop(0)
            text = reply(seen.decode(errors="replace")) if callable(reply) else reply
            # Consume everything up to this prompt, so a repeated prompt (two
            # "Choose" waits) is only answered when it really appears again.
            at = seen.index(prompt.encode()) + len(prompt)
            seen = seen[at:]
            os.write(leader, text.encode() + b"\n")
        if proc.poll() is not None and not ready:
            break
    try:
        code = proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=30)
        raise AssertionError(transcript.decode(errors="replace")) from None
    finally:
        os.close(leader)
    return code, transcript.decode(errors="replace")


def test_terminal_run_prompts_at_each_wait_until_done(repo: Path) -> None:
    """`vibflow run` on a TTY asks for the event and inputs at every wait."""
    code, text = _drive(
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
    code, text = _drive(repo, ["run", "guarded_apply"], [("Choose", "")], env={})
    assert code == 0, text
    assert "is waiting at 'choose'" in text
    assert "vibflow step run_" in text


def test_terminal_recover_restores_after_numbered_choice_and_typed_confirmation(
    tmp_path: Path,
) -> None:
    """On a terminal, recover offers options by number and shows the text to confirm."""
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

    code, text = _drive(
        demo,
        ["run", "recover"],
        [
            ("Choose", "choose"),
            ("Which one (number)", "1"),  # with the apply on, the partial restore leads
            ("Choose", "confirm"),
            ("to restore", token),
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
    code, text = _drive(repo, ["runs", "list", "--json"], [], env={})
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
