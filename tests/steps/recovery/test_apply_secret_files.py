"""A restore never deletes or overwrites a secret file its checkpoint left out.

The checkpoint has no copy of an untracked ``.env`` (or of a file it left out for the
token in it), so "absent from the checkpoint" must not read as "did not exist then":
even a confirmed full rollback that lists the file's deletion leaves it alone, byte for
byte, and the result says why. Driven through the real CLI (``VIBFLOW_RECOVERY_APPLY=1
vibflow run recover``, choose, confirm) on real git repositories."""

from __future__ import annotations

import json
import time
from pathlib import Path

from vibflow_testing.apply import choose, commit_all, confirm, ok_json, start, stored_option
from vibflow_testing.cli import vf
from vibflow_testing.redaction import GHP
from vibflow_testing.repo import write

ALLOW_ENV = (
    "recovery:\n  checkpoints:\n    secrets:\n      allow: [.env]\n      scan_content: false\n"
)
ENV = b"API_KEY=" + GHP.encode() + b"\nNAME=caf\xc3\xa9\r\nNO_NEWLINE=\xff"


def app(repo: Path, policy: str | None = None) -> str:
    """An app committed without .env in .gitignore, memory on its intent, a checkpoint
    (taken under ``policy``, when given); returns the checkpoint id."""
    write(repo, "src/app.py", "def f():\n    return 1\n")
    write(repo, "config.yaml", "x: 1\n")
    write(repo, ".gitignore", "*.log\n")
    commit_all(repo)
    if policy is not None:
        write(repo, ".vibflow/policy.yaml", policy)
    proc = vf(repo, "memory", "intent", "Fix the app function", "--yes")
    assert proc.returncode == 0, proc.stderr
    write(repo, ".env", ENV)
    return ok_json(vf(repo, "checkpoint", "create", "--json"))["checkpoint_id"]


def full_rollback(repo: Path, kept: str) -> dict[str, object]:
    """Run recover, choose the full rollback and confirm it; returns the finished run.
    The preview says ``kept`` is left out of the checkpoint, so the rollback neither
    lists it for deletion nor touches it — the preview counts what the apply does."""
    run = start(repo)
    plan = json.loads(
        (repo / ".vibflow/recovery/plans" / f"{run['run_id']}.json").read_text(encoding="utf-8")
    )
    assert kept in {x["path"] for x in plan["left_out"]}
    full = stored_option(repo, run, 4)
    assert kept not in full["affected_paths"]
    assert kept not in full["deletes"]
    at = choose(repo, run, 4)
    done = ok_json(confirm(repo, at))
    assert (done["status"], done["state"]) == ("done", "result"), done
    return done


def test_a_confirmed_rollback_leaves_an_env_it_did_not_store_byte_for_byte(
    repo: Path,
) -> None:
    """The checkpoint left .env out; the agent rewrote it; a confirmed full rollback
    restores the tracked files and leaves .env exactly as it is (the preview said so)."""
    ckpt = app(repo)
    skipped = ok_json(vf(repo, "checkpoint", "show", ckpt, "--json"))["skipped"]
    assert [s["path"] for s in skipped] == [".env"]
    time.sleep(0.05)
    write(repo, "src/app.py", "def f():\n    return 2\n")
    agent_env = ENV + b"\nADDED_BY_AGENT=1\n"
    write(repo, ".env", agent_env)
    done = full_rollback(repo, ".env")
    assert (repo / "src/app.py").read_text(encoding="utf-8") == "def f():\n    return 1\n"
    assert (repo / ".env").read_bytes() == agent_env
    assert done["result"]["skipped"] == []  # type: ignore[index]


def test_a_file_left_out_for_its_token_is_not_deleted_once_the_token_is_gone(
    repo: Path,
) -> None:
    """The checkpoint left src/local.py out for the token in it; the agent removed the
    token (so the safety checkpoint holds the file); a confirmed rollback keeps it: the
    checkpoint never knew its content."""
    app(repo)
    write(repo, "src/local.py", f"TOKEN = '{GHP}'\n")
    ckpt = ok_json(vf(repo, "checkpoint", "create", "--json"))
    assert {s["path"]: s["reason"] for s in ckpt["skipped"]}["src/local.py"] == "secret_content"
    time.sleep(0.05)
    write(repo, "src/app.py", "def f():\n    return 3\n")
    write(repo, "src/local.py", "TOKEN = None\n")
    done = full_rollback(repo, "src/local.py")
    assert (repo / "src/local.py").read_text(encoding="utf-8") == "TOKEN = None\n"
    assert (repo / "src/app.py").read_text(encoding="utf-8") == "def f():\n    return 1\n"
    assert done["result"]["skipped"] == []  # type: ignore[index]


def test_a_secret_file_the_safety_checkpoint_left_out_is_not_overwritten(repo: Path) -> None:
    """The source checkpoint stored .env (the policy let it in then); under today's
    policy no checkpoint stores it, so a restore of it could not be undone: the preview
    leaves it out, saying why, and the rollback leaves it as it is."""
    ckpt = app(repo, ALLOW_ENV)
    assert ok_json(vf(repo, "checkpoint", "show", ckpt, "--json"))["skipped"] == []
    (repo / ".vibflow/policy.yaml").unlink()
    time.sleep(0.05)
    write(repo, "src/app.py", "def f():\n    return 4\n")
    agent_env = b"API_KEY=rotated\n"
    write(repo, ".env", agent_env)
    done = full_rollback(repo, ".env")
    assert (repo / ".env").read_bytes() == agent_env
    assert (repo / "src/app.py").read_text(encoding="utf-8") == "def f():\n    return 1\n"
    assert done["result"]["skipped"] == []  # type: ignore[index]
