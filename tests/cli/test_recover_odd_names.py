"""A tracked file whose name is not UTF-8 (git gives bytes) never breaks a preview:
the CLI answers and keeps the preview for feedback, and the MCP server sends the
name with its odd bytes escaped (`bad\\xff.txt`), as JSON over the wire must be UTF-8."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from vibflow_testing.apply import APPLY, choose, confirm, ok_json, start
from vibflow_testing.cli import vf
from vibflow_testing.git import git
from vibflow_testing.mcp import call, with_servers

ODD = b"bad\xff.txt"

pytestmark = pytest.mark.skipif(sys.platform == "darwin", reason="APFS refuses the name")


@pytest.fixture
def odd(tmp_path: Path) -> Path:
    root = tmp_path / "r"
    root.mkdir()
    git(root, "init", "-q")
    name = os.path.join(os.fsencode(root), ODD)  # noqa: PTH118 - a name only bytes can spell
    with open(name, "wb") as fh:  # noqa: PTH123
        fh.write(b"one\n")
    (root / "ok.txt").write_text("ok\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "start")
    with open(name, "ab") as fh:  # noqa: PTH123
        fh.write(b"two\n")
    return root


def test_the_cli_previews_and_keeps_the_preview(odd: Path) -> None:
    """`recover --preview --json` exits 0 and lists the file; the kept preview reads back."""
    proc = vf(odd, "recover", "--preview", "--json")
    assert proc.returncode == 0, proc.stderr
    plan = json.loads(proc.stdout)
    assert [c["path"] for c in plan["changed"]] == [os.fsdecode(ODD)]
    kept = json.loads((odd / ".vibflow" / "recovery" / "last_preview.json").read_text("ascii"))
    assert kept["plan"]["plan_id"] == plan["plan_id"]


def test_the_guided_run_keeps_its_plan_and_restores_around_the_name(odd: Path) -> None:
    """`vibflow run recover` keeps the run's plan beside it (it used to fail at explain,
    unable to write the name as UTF-8), then the full rollback restores the other file
    and leaves the odd one as it is, saying so."""
    (odd / "ok.txt").write_text("drifted\n", encoding="utf-8")
    run = start(odd)
    plan = run["plan"]
    assert [o["path"] for o in plan["left_out"]] == [os.fsdecode(ODD)]
    done = ok_json(confirm(odd, choose(odd, run, 4)))
    assert (done["status"], done["state"]) == ("done", "result"), done
    assert (odd / "ok.txt").read_text(encoding="utf-8") == "ok\n"
    with open(os.path.join(os.fsencode(odd), ODD), "rb") as fh:  # noqa: PTH118, PTH123
        assert fh.read() == b"one\ntwo\n"


def test_the_mcp_server_sends_the_name_escaped(odd: Path) -> None:
    """Through the official client: an answer, not an internal error, with the name's
    odd byte written as \\xff."""

    async def body(client: Client) -> Any:
        return await call(client, "recovery_preview", {})

    failed, page, text = with_servers(odd, body)
    assert not failed, page
    assert [c["path"] for c in page["changed"]] == ["bad\\xff.txt"]
    assert "bad\\\\xff.txt" in text


def test_feedback_on_the_name_is_recorded_and_remembered(odd: Path) -> None:
    """`recover feedback --wrong` on the odd name records the label and remembers the
    correction for the intent (it used to end in an internal error hashing the name)."""
    vf(odd, "memory", "intent", "tune ok.txt", "--yes")
    vf(odd, "memory", "relevant", "ok.txt", "the work", "--yes")
    (odd / "other.txt").write_text("drift\n", encoding="utf-8")
    plan = json.loads(vf(odd, "recover", "--preview", "--json").stdout)
    proc = vf(odd, "recover", "feedback", plan["plan_id"], "--wrong", os.fsdecode(ODD))
    assert proc.returncode == 0, proc.stderr
    again = json.loads(vf(odd, "recover", "--explain", "--json").stdout)
    zone = {z["path"]: z["source"] for z in again["intent_zone"]}
    assert zone.get(os.fsdecode(ODD)) == "user_feedback", zone


def test_a_project_folder_whose_name_is_not_utf8(tmp_path: Path) -> None:
    """Every command that writes the audit log hashes the project's folder: a folder
    named in bytes that are not UTF-8 used to end each in an internal error, the MCP
    server's handshake included."""
    root = Path(os.fsdecode(os.path.join(os.fsencode(tmp_path), b"proj\xff")))  # noqa: PTH118
    root.mkdir()
    git(root, "init", "-q")
    (root / "a.py").write_text("one\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "start")
    (root / "a.py").write_text("two\n", encoding="utf-8")
    for args in (("recover", "--explain"), ("checkpoint", "create"), ("handoff",)):
        proc = vf(root, *args)
        assert proc.returncode == 0, (args, proc.stderr)

    async def body(client: Client) -> Any:
        return await call(client, "recovery_preview", {})

    failed, page, _ = with_servers(root, body)
    assert not failed, page
    assert [c["path"] for c in page["changed"]] == ["a.py"]


def test_a_whole_checkpoint_restore_leaves_the_name_and_restores_the_rest(odd: Path) -> None:
    """Restoring a whole checkpoint whose differences include the odd name restores the
    other files and lists the odd one as left as it is (its job used to fail to save,
    the name not being UTF-8)."""
    made = ok_json(vf(odd, "checkpoint", "create", "--json"))
    with open(os.path.join(os.fsencode(odd), ODD), "ab") as fh:  # noqa: PTH118, PTH123
        fh.write(b"three\n")
    (odd / "ok.txt").write_text("drift\n", encoding="utf-8")
    run = ok_json(vf(odd, "checkpoint", "restore", made["checkpoint_id"], "--json", env=APPLY))
    assert [i["path"] for i in run["restore"]["left_out"]] == [os.fsdecode(ODD)]
    done = vf(
        odd,
        "step",
        run["run_id"],
        "confirm",
        "--input",
        f"confirmation={run['confirmation_expected']}",
        env=APPLY,
    )
    assert done.returncode == 0, done.stderr
    assert (odd / "ok.txt").read_text(encoding="utf-8") == "ok\n"


def test_a_name_near_the_length_limit_is_restored_and_undone(tmp_path: Path) -> None:
    """A 243-byte name (the filesystem takes 255): the restore's temp file beside it
    used to pass the limit, so the full rollback failed, and its undo lost the file."""
    root = tmp_path / "r"
    root.mkdir()
    git(root, "init", "-q")
    long = "L" * 240 + ".py"
    (root / long).write_text("one\n", encoding="utf-8")
    (root / "ok.txt").write_text("ok\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "start")
    (root / long).write_text("two\n", encoding="utf-8")
    (root / "ok.txt").write_text("drift\n", encoding="utf-8")
    run = start(root)
    done = ok_json(confirm(root, choose(root, run, 4)))
    assert done["status"] == "done", done
    assert (root / long).read_text(encoding="utf-8") == "one\n"
    undo = ok_json(vf(root, "undo", run["run_id"], "--json", env=APPLY))
    back = ok_json(confirm(root, undo))
    assert back["status"] == "done", back
    assert (root / long).read_text(encoding="utf-8") == "two\n"
    assert sorted(p.name for p in root.iterdir()) == sorted([".git", ".vibflow", long, "ok.txt"])
