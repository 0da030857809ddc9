"""Choosing some of a restore's files never splits a rename, and never widens to all.

A renamed module is one change with two names: the restore puts the old name
back and deletes the new one. Choosing only one of them — at the terminal's
file menu, with ``--input paths=`` or a saved selection, or as MCP ``paths`` —
used to delete the new name and bring nothing back (or leave two copies). Now
either name takes the other, and the confirmation, the wait text and the result
say so. An explicitly empty ``paths`` is refused rather than read as "the whole
option". Real repositories, the real CLI on a pseudo-terminal, and the official
MCP client against a real server.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from vibflow_testing.apply import APPLY, ok_json, option, start, tree_state
from vibflow_testing.cli import as_json, vf
from vibflow_testing.git import git
from vibflow_testing.mcp import call, with_servers
from vibflow_testing.repo import init_repo, write
from vibflow_testing.terminal import drive

from vibflow.steps.recovery.plans import RunPlans

OLD, NEW = "legacy_utils.py", "helpers_v2.py"
MODULE = "def helper():\n    return 1\n"
DRIFTED = [f"src/m{i}.py" for i in range(1, 5)]
ORIGINAL = {OLD: MODULE, "app.py": "# app\n"} | {p: f"x = {n}\n" for n, p in enumerate(DRIFTED)}
TOKEN = re.compile(r"Type exactly '(APPLY ckpt_[0-9a-f]{32})'")
#: A numbered file row of the terminal's file menu: number, status letter (maybe blank), path.
ROW = re.compile(r"^\s+(\d+)\. (.) (\S+)", re.MULTILINE)


def _renamed(root: Path, how: str) -> Path:
    """The app committed, the intent on app.py, a checkpoint; then an agent renames
    legacy_utils.py to helpers_v2.py (``git mv``, or a plain ``mv`` vibflow pairs),
    edits four modules and app.py, and adds a file."""
    init_repo(root, ORIGINAL)
    for args in (
        ("memory", "intent", "Polish the app", "--yes"),
        ("memory", "relevant", "app.py", "the app", "--yes"),
        ("checkpoint", "create"),
    ):
        done = vf(root, *args)
        assert done.returncode == 0, done.stdout + done.stderr
    time.sleep(0.05)  # the agent's changes come strictly after the checkpoint
    if how == "git mv":
        git(root, "mv", OLD, NEW)
    else:
        (root / OLD).rename(root / NEW)
    for n, rel in enumerate(DRIFTED):
        write(root, rel, f"x = {n}  # drifted\n")
    write(root, "app.py", "# app, polished\n")
    write(root, "src/new.py", "new = True\n")
    return root


@pytest.fixture(params=["git mv", "mv"])
def renamed(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    return _renamed(tmp_path / "project", request.param)


def _token(seen: str) -> str:
    return str(TOKEN.findall(seen)[-1])


def _partial_number(seen: str) -> str:
    return re.findall(r"^\s+(\d+)\. Partial restore", seen, re.MULTILINE)[-1]


def test_a_terminal_subset_with_the_new_name_restores_the_old_name_too(renamed: Path) -> None:
    """The menu marks both names of the rename R; picking the new name and three other
    files (not the old name) says the old name is restored with it, the confirmation
    puts it back and deletes the new name, and after APPLY the module is back under
    its old name — not lost. The result counts the files chosen, not the option's."""
    rows: dict[str, tuple[str, str]] = {}

    def files(seen: str) -> str:
        listed = seen.rsplit("This restores", maxsplit=1)[-1]
        rows.update({path: (n, letter) for n, letter, path in ROW.findall(listed)})
        picked = [rows[NEW][0]] + [rows[p][0] for p in DRIFTED[:3]]
        return ",".join(picked)

    code, text = drive(
        renamed,
        ["run", "recover"],
        [
            ("Which one (", _partial_number),
            ("Which files (", files),
            ("c cancels, q stops)", _token),
        ],
        env=APPLY,
    )
    assert code == 0, text
    flat = text.replace("\r\n", "\n")
    assert rows[OLD][1] == "R", rows  # was a blank letter: the old name is not a changed path
    assert rows[NEW][1] == "R", rows
    assert f"{OLD}  (old name of {NEW})" in flat
    picked = flat.split("Which files (")[1]
    assert f"{NEW} — and its old name {OLD}, restored with it" in picked

    confirm = flat.split("Restore 5 file(s) from checkpoint")[1].split("Type exactly")[0]
    put_back, deleted = confirm.split("DELETED — they did not exist at the checkpoint (1):")
    assert "Added to your choice, because a rename is one change (1):" in put_back
    assert re.search(rf"^\s+R {re.escape(OLD)}\b", put_back, re.MULTILINE), put_back
    assert NEW in deleted

    result = flat.split("finished at 'result'")[1]
    assert "put back the 5 out-of-scope file(s)" not in result
    assert (
        "you chose: Partial restore — restore the 4 file(s) you chose and the other name of "
        "1 renamed file(s) (a rename is one change) from the safe checkpoint, of the 7 this "
        "option covers; the others are left as they are." in result
    )
    assert (renamed / OLD).read_text(encoding="utf-8") == MODULE
    assert not (renamed / NEW).exists()
    for rel in DRIFTED[:3]:
        assert (renamed / rel).read_text(encoding="utf-8") == ORIGINAL[rel]
    assert "drifted" in (renamed / DRIFTED[3]).read_text(encoding="utf-8")
    assert (renamed / "src/new.py").exists()


def _choose(root: Path, run: dict[str, Any], *inputs: str) -> Any:
    return vf(
        root,
        "step",
        run["run_id"],
        "choose",
        "--input",
        f"option={option(run, 3)['option_id']}",
        *(f"--input={i}" for i in inputs),
        env=APPLY,
    )


def _confirm(root: Path, run_id: str) -> Any:
    at = ok_json(vf(root, "runs", "show", run_id, "--json"))
    return vf(
        root,
        "step",
        run_id,
        "confirm",
        "--input",
        f"confirmation={at['confirmation_expected']}",
        "--json",
        env=APPLY,
    )


@pytest.mark.parametrize("given", ["paths", "selection"])
def test_choosing_the_old_name_by_input_deletes_the_new_name_with_it(
    renamed: Path, given: str
) -> None:
    """`--input paths=legacy_utils.py` (or a saved selection of it) takes the new name
    too: the wait says so, the restore deletes helpers_v2.py and puts legacy_utils.py
    back — one module, not two copies."""
    run = start(renamed)
    if given == "paths":
        chose = _choose(renamed, run, f"paths={OLD}", f"paths={DRIFTED[0]}")
    else:
        plans = RunPlans(renamed / ".vibflow" / "recovery" / "plans")
        ident = plans.save_selection(run["run_id"], [OLD, DRIFTED[0]])
        chose = _choose(renamed, run, f"selection={ident}")
    assert chose.returncode == 0, chose.stdout + chose.stderr
    assert "restoring 3 file(s), 1 of them DELETED" in chose.stdout
    assert (
        f"added, as a rename is one change: {OLD} — and its new name {NEW}, deleted with it"
        in chose.stdout
    )
    shown = ok_json(vf(renamed, "runs", "show", run["run_id"], "--json"))
    assert shown["restore"]["partners"] == [
        {
            "path": NEW,
            "chosen": OLD,
            "side": "new",
            "action": "delete",
            "why": f"{OLD} — and its new name {NEW}, deleted with it",
        }
    ]
    done = _confirm(renamed, run["run_id"])
    assert done.returncode == 0, done.stdout + done.stderr
    assert as_json(done)["applied"]["changed_files"] == 3
    assert (renamed / OLD).read_text(encoding="utf-8") == MODULE
    assert not (renamed / NEW).exists()
    assert (renamed / DRIFTED[0]).read_text(encoding="utf-8") == ORIGINAL[DRIFTED[0]]
    assert "drifted" in (renamed / DRIFTED[1]).read_text(encoding="utf-8")


def test_an_empty_paths_input_is_refused_not_read_as_every_file(renamed: Path) -> None:
    """`--input paths=` (an empty list) is refused with what to do instead; the run stays
    at its choice and no file changes — it used to restore the whole option."""
    run = start(renamed)
    before = tree_state(renamed)
    refused = _choose(renamed, run, "paths=")
    assert refused.returncode == 3, refused.stdout + refused.stderr
    assert (
        "an empty list chooses no file; leave paths out to take the whole option" in refused.stdout
    )
    shown = ok_json(vf(renamed, "runs", "show", run["run_id"], "--json"))
    assert (shown["status"], shown["state"]) == ("blocked", "choose")
    assert tree_state(renamed) == before
    assert "restore" not in shown  # no restore was routed, no sandwich taken
    assert "sandwich_checkpoint_id" not in shown
    chose = _choose(renamed, run, f"paths={DRIFTED[0]}")  # the run can still be chosen
    assert chose.returncode == 0, chose.stdout + chose.stderr


def _grant(root: Path) -> None:
    done = vf(root, "grant", "recovery_apply", "--json")
    assert done.returncode == 0, done.stderr


async def _partial(client: Client, **args: Any) -> tuple[bool, Any, str]:
    """Start a recover run and answer its choice with the partial restore and ``args``."""
    failed, run, _ = await call(client, "recovery_apply", {})
    assert not failed, run
    partial = next(o for o in run["plan"]["options"] if o["level"] == 3)
    safe = run["plan"]["safe_checkpoint_candidate"]["checkpoint_id"]
    if args.pop("confirm", False):
        args["confirmation"] = f"APPLY {safe}"
    step = {"run_id": run["run_id"], "option_id": partial["option_id"], **args}
    return await call(client, "recovery_apply", step)


def test_mcp_paths_with_the_new_name_restore_the_old_name_too(tmp_path: Path) -> None:
    """An agent's recovery_apply with `paths: [helpers_v2.py]`, chosen and confirmed in
    one call (the same paths at the confirmation), restores the module under its old
    name and says the old name was added."""
    root = _renamed(tmp_path / "project", "mv")
    _grant(root)

    async def subset(client: Client) -> tuple[bool, Any, str]:
        return await _partial(client, paths=[NEW], confirm=True)

    failed, done, _ = with_servers(root, subset, env=APPLY)
    assert not failed, done
    assert (done["status"], done["state"]) == ("done", "result"), done
    assert done["restore"]["partners"][0]["why"] == (
        f"{NEW} — and its old name {OLD}, restored with it"
    )
    assert done["applied"]["changed_files"] == 2
    assert (root / OLD).read_text(encoding="utf-8") == MODULE
    assert not (root / NEW).exists()
    assert all("drifted" in (root / p).read_text(encoding="utf-8") for p in DRIFTED)


def test_mcp_empty_paths_are_refused_not_read_as_every_file(tmp_path: Path) -> None:
    """`paths: []` at the choice is refused with what to do instead (the run waits at its
    choice, blocked; no restore routed, no sandwich) and no file changes."""
    root = _renamed(tmp_path / "project", "mv")
    _grant(root)
    before = tree_state(root)

    async def empty(client: Client) -> tuple[bool, Any, str]:
        return await _partial(client, paths=[], confirm=True)

    failed, refused, _ = with_servers(root, empty, env=APPLY)
    # The MCP boundary refuses it as bad input before the run moves.
    assert failed, refused
    error = refused["error"]
    assert error["kind"] == "bad_input", error
    assert error["message"] == (
        "an empty list chooses no file; leave paths out to take the whole option"
    )
    assert tree_state(root) == before
