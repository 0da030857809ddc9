"""Names git lists in decomposed Unicode form (NFD, as macOS writes them) and other
names no restore can write, against every way vibflow restores.

The path contract stores names composed (NFC), which finds ``café`` typed on Linux
in a repository committed from a Mac. A restore must write the very name git
lists: on Linux ``café.py`` and ``cafe\\u0301.py`` are two files, and restoring the
composed one for the decomposed one overwrote the user's work. Real repositories,
the real CLI and the MCP server through the official client.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from vibflow_testing.apply import APPLY, choose, confirm, ok_json, start
from vibflow_testing.cli import vf
from vibflow_testing.git import git
from vibflow_testing.mcp import CLIENT, call, with_servers

NFC = "caf\u00e9.py"
NFD = "cafe\u0301.py"

pytestmark = pytest.mark.skipif(sys.platform == "darwin", reason="APFS folds the two forms")


@pytest.fixture
def forms(tmp_path: Path) -> Path:
    """``café.py`` committed composed, then the user's work in it; the agent's
    untracked decomposed twin beside it."""
    root = tmp_path / "r"
    root.mkdir()
    git(root, "init", "-q")
    (root / NFC).write_text("orig\n", encoding="utf-8")
    (root / "ok.py").write_text("ok\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "start")
    (root / NFC).write_text("my work\n", encoding="utf-8")
    (root / NFD).write_text("junk\n", encoding="utf-8")
    return root


def test_the_full_rollback_leaves_the_decomposed_name_and_says_so(forms: Path) -> None:
    """The plan leaves the decomposed name out of every restore, with the reason; the
    full rollback restores the composed file and leaves its twin as it is."""
    run = start(forms)
    assert [o["path"] for o in run["plan"]["left_out"]] == [NFD]
    done = ok_json(confirm(forms, choose(forms, run, 4)))
    assert (done["status"], done["state"]) == ("done", "result"), done
    assert (forms / NFC).read_text(encoding="utf-8") == "orig\n"
    assert (forms / NFD).read_text(encoding="utf-8") == "junk\n"


def test_naming_the_decomposed_name_is_refused_with_its_rule(forms: Path) -> None:
    """`checkpoint restore CKPT -- <NFD>` and MCP's recovery_apply with it are bad
    input naming the rule; nothing is written."""
    made = ok_json(vf(forms, "checkpoint", "create", "--json"))
    (forms / NFD).write_text("later\n", encoding="utf-8")
    proc = vf(forms, "checkpoint", "restore", made["checkpoint_id"], "--", NFD, env=APPLY)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "decomposed_form" in proc.stderr
    assert (forms / NFC).read_text(encoding="utf-8") == "my work\n"

    assert vf(forms, "grant", "recovery_apply", "--client", CLIENT).returncode == 0

    async def body(client: Client) -> Any:
        return await call(client, "recovery_apply", {"paths": [NFD]})

    failed, answer, _ = with_servers(forms, body, env=APPLY)
    assert failed, answer
    assert "decomposed_form" in answer["error"]["message"], answer


def test_a_whole_checkpoint_restore_leaves_names_it_cannot_write(forms: Path) -> None:
    """Restoring a whole checkpoint whose differences include a decomposed name and a
    ':' name restores the rest and lists those two as left as they are (one such
    name used to have the confirmation refuse the whole restore, forever)."""
    made = ok_json(vf(forms, "checkpoint", "create", "--json"))
    (forms / NFD).write_text("later\n", encoding="utf-8")
    (forms / "a:b.py").write_text("new\n", encoding="utf-8")
    (forms / "ok.py").write_text("drift\n", encoding="utf-8")
    run = ok_json(vf(forms, "checkpoint", "restore", made["checkpoint_id"], "--json", env=APPLY))
    shown = run["restore"]
    assert sorted(i["path"] for i in shown["left_out"]) == sorted([NFD, "a:b.py"])
    assert shown["writes"] == ["ok.py"]
    done = vf(
        forms,
        "step",
        run["run_id"],
        "confirm",
        "--input",
        f"confirmation={run['confirmation_expected']}",
        "--json",
        env=APPLY,
    )
    assert json.loads(done.stdout)["status"] == "done", done.stdout
    assert (forms / "ok.py").read_text(encoding="utf-8") == "ok\n"
    assert (forms / NFD).read_text(encoding="utf-8") == "later\n"
    assert (forms / "a:b.py").exists()


def test_a_rename_between_the_forms_is_left_whole(tmp_path: Path) -> None:
    """Committed decomposed, renamed to the composed form and edited: a whole
    checkpoint restore leaves both names of the rename (restoring one alone deleted
    the file and wrote nothing back) and restores the rest."""
    root = tmp_path / "r"
    root.mkdir()
    git(root, "init", "-q")
    (root / NFD).write_text("one\ntwo\nthree\nfour\n", encoding="utf-8")
    (root / "ok.py").write_text("ok\n", encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "start")
    made = ok_json(vf(root, "checkpoint", "create", "--json"))
    git(root, "mv", NFD, NFC)
    with (root / NFC).open("a", encoding="utf-8") as fh:
        fh.write("five\n")
    (root / "ok.py").write_text("drift\n", encoding="utf-8")
    run = ok_json(vf(root, "checkpoint", "restore", made["checkpoint_id"], "--json", env=APPLY))
    assert sorted(i["path"] for i in run["restore"]["left_out"]) == sorted([NFC, NFD])
    done = vf(
        root,
        "step",
        run["run_id"],
        "confirm",
        "--input",
        f"confirmation={run['confirmation_expected']}",
        env=APPLY,
    )
    assert done.returncode == 0, done.stderr
    assert (root / NFC).read_text(encoding="utf-8").endswith("five\n")
    assert (root / "ok.py").read_text(encoding="utf-8") == "ok\n"


def test_a_link_into_a_decomposed_folder_is_refused(tmp_path: Path) -> None:
    """`checkpoint restore CKPT -- lnk/a.py`, lnk a link to the decomposed folder
    beside its composed twin: the contract placed it in the composed folder, and the
    restore wrote the other file. Refused by its rule now; nothing is written."""
    root = tmp_path / "r"
    root.mkdir()
    git(root, "init", "-q")
    folder_nfd, folder_nfc = NFD.removesuffix(".py"), NFC.removesuffix(".py")
    for folder in (folder_nfd, folder_nfc):
        (root / folder).mkdir()
        (root / folder / "a.py").write_text(f"{folder}\n", encoding="utf-8")
    (root / "lnk").symlink_to(folder_nfd)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "start")
    made = ok_json(vf(root, "checkpoint", "create", "--json"))
    for folder in (folder_nfd, folder_nfc):
        (root / folder / "a.py").write_text("mine\n", encoding="utf-8")
    proc = vf(root, "checkpoint", "restore", made["checkpoint_id"], "--", "lnk/a.py", env=APPLY)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "decomposed_form" in proc.stderr
    for folder in (folder_nfd, folder_nfc):
        assert (root / folder / "a.py").read_text(encoding="utf-8") == "mine\n"
