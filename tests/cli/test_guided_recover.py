"""`vibflow run recover` at a terminal: the guided flow a person walks through.

Driven on a real pseudo-terminal against a real repository: the explanation
comes before the menu, Enter never picks a restore, typos are asked again, a
restore's files can be narrowed by number ranges and globs, the deletions
are listed before the confirmation, a wrong confirmation is asked again (a
few times, then refused with exit 3, the run left waiting), and only the chosen files change —
byte for byte. Scripts and agents (no terminal) see no prompt.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from vibflow_testing.cli import as_json, vf
from vibflow_testing.repo import init_repo, write
from vibflow_testing.terminal import drive

APPLY = {"VIBFLOW_RECOVERY_APPLY": "1"}
MODULES = [f"src/app/m{i:02d}.py" for i in range(1, 26)]
ORIGINAL = {p: f"value = {n}\n" for n, p in enumerate(MODULES, start=1)} | {
    "docs/guide.md": "# Guide\n",
}
TOKEN = re.compile(r"Type exactly '(APPLY ckpt_[0-9a-f]{32})'")
ROW = re.compile(r"^\s+(\d+)\. (\S) (\S+)", re.MULTILINE)


@pytest.fixture
def drifted(tmp_path: Path) -> Path:
    """A project whose intent is the guide, a checkpoint, then an agent's drift:
    25 modules edited, a new module, the guide edited and a new doc it links."""
    root = init_repo(tmp_path / "project", ORIGINAL)
    for args in (
        ("memory", "intent", "Write the user guide", "--yes"),
        ("memory", "relevant", "docs/guide.md", "the guide", "--yes"),
        ("checkpoint", "create"),
    ):
        done = vf(root, *args)
        assert done.returncode == 0, done.stdout + done.stderr
    for n, rel in enumerate(MODULES, start=1):
        write(root, rel, f"value = {n}  # drifted\n")
    write(root, "src/app/extra.py", "extra = True\n")
    # The guide links the new page: that reference puts it in scope with the guide.
    write(root, "docs/guide.md", "# Guide\n\nNew chapter: see [the new page](new.md).\n")
    write(root, "docs/new.md", "a new page\n")
    return root


def _tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git" not in p.parts and ".vibflow" not in p.parts
    }


def _token(seen: str) -> str:
    return str(TOKEN.findall(seen)[-1])


def test_guided_restore_of_a_subset_restores_only_the_chosen_files(drifted: Path) -> None:
    """Explanation → menu (Enter and a typo asked again) → full rollback → a
    subset by range and glob (out of range asked again) → restore and DELETE
    lists → a wrong confirmation asked again → only the chosen files change."""
    before = _tree(drifted)
    code, text = drive(
        drifted,
        ["run", "recover"],
        [
            ("Which one (", ""),  # a restore is recommended, so Enter picks nothing
            ("Which one (", "restore"),
            ("Which one (", "9"),
            ("Which one (", "4"),  # full rollback
            ("Which files (", "40"),
            ("Which files (", "1-3, docs/**"),
            ("c cancels, q stops)", "APPLY ckpt_nope"),
            ("c cancels, q stops)", _token),
        ],
        env=APPLY,
    )
    assert code == 0, text
    flat = text.replace("\r\n", "\n")

    # The explanation (in scope vs drift, capped) comes before the menu.
    assert flat.index("What happened:") < flat.index("Ways back:")
    assert "In scope (2):" in flat
    assert "Outside what you are working on — please review (26):" in flat
    assert "use --all to list them" in flat
    asked = re.findall(r"Which one \([^\n]*", flat)
    assert len(asked) == 4
    assert not any("Enter =" in q for q in asked)
    assert "a restore is never what Enter picks" in flat
    assert "'restore' is not one of the choices" in flat
    assert "'9' is not one of the choices" in flat

    # The files are numbered (capped at 20 with a way to see all), then narrowed.
    rows = {int(n): path for n, _letter, path in ROW.findall(flat.split("This restores")[1])}
    assert "This restores 28 file(s):" in flat
    assert "… and 8 more — 'list' numbers them all" in flat
    assert "'40' is out of range: the files are numbered 1-28" in flat
    chosen = {rows[1], rows[2], rows[3], "docs/guide.md", "docs/new.md"}

    # What will be deleted is said apart from what is put back, with the sandwich.
    confirm = flat.split(f"Restore {len(chosen)} file(s) from checkpoint")[1]
    put_back, deleted = confirm.split("DELETED — they did not exist at the checkpoint (1):")
    assert "docs/guide.md" in put_back
    assert "docs/new.md" not in put_back
    assert "docs/new.md" in deleted.split("Safety checkpoint")[0]
    assert "src/app/extra.py" not in confirm.split("Type exactly")[0]
    assert re.search(r"Safety checkpoint of your tree as it is now: ckpt_[0-9a-f]{32}", confirm)
    assert "(2 tries left)" in flat
    assert "finished at 'result'" in flat

    # Only the chosen files changed, byte for byte; everything else is as it was.
    after = _tree(drifted)
    for rel in chosen - {"docs/new.md"}:
        assert after[rel] == ORIGINAL[rel].encode(), rel
    assert "docs/new.md" not in after
    for rel, data in before.items():
        if rel not in chosen:
            assert after[rel] == data, rel


def test_three_wrong_confirmations_are_refused_and_leave_the_run_waiting(drifted: Path) -> None:
    """After a few wrong confirmations the prompt refuses (exit 3, as a refused
    confirmation by `vibflow step` does): nothing restored, nothing sent, the run
    still waiting at confirm, and the message names the exact commands that go on."""
    before = _tree(drifted)
    code, text = drive(
        drifted,
        ["run", "recover"],
        [
            ("Which one (", "1"),
            ("Which files (", ""),
            ("c cancels, q stops)", "list"),  # not a try: every file, then asked again
            ("c cancels, q stops)", "yes"),
            ("c cancels, q stops)", "APPLY"),
            ("c cancels, q stops)", "apply it"),
        ],
        env=APPLY,
    )
    assert code == 3, text
    token = _token(text)
    assert "… and 5 more — 'list' shows them all" in text
    after_list = text.split("Type exactly")[1]
    assert all(m in after_list for m in MODULES)
    assert "(1 try left)" in text
    assert "is waiting at 'confirm'" in text
    run_id = re.findall(r"run (run_[0-9a-f]{32})", text)[0]
    flat = " ".join(text.split())
    assert (
        f"vibflow: the confirmation did not match '{token}' in 3 tries, so nothing was "
        f"restored; run {run_id} is still waiting for it." in flat
    )
    assert f"Run `vibflow resume {run_id}` to be asked again" in flat
    assert f'`vibflow step {run_id} confirm --input confirmation="{token}"`' in flat
    assert _tree(drifted) == before
    shown = as_json(vf(drifted, "runs", "show", run_id, "--json"))
    assert shown["status"] == "waiting"
    assert shown["refusals"] == []


def test_q_at_the_confirmation_only_stops_asking(drifted: Path) -> None:
    """`q` is not a refusal: the prompt stops, the run waits, exit 0 as before."""
    code, text = drive(
        drifted,
        ["run", "recover"],
        [("Which one (", "1"), ("Which files (", ""), ("c cancels, q stops)", "q")],
        env=APPLY,
    )
    assert code == 0, text
    assert "(stopped: the run keeps waiting;" in text
    assert "did not match" not in text


def test_a_wrong_confirmation_by_input_is_refused_the_same_way(drifted: Path) -> None:
    """Without a terminal, `step … confirm --input confirmation=WRONG` is refused with
    exit 3 too; its text says nothing changed and the run still waits, with the exact
    command, and --json carries the same: blocked at the confirmation wait, the
    reason, and the command."""
    started = as_json(vf(drifted, "run", "recover", "--json", env=APPLY))
    run_id = started["run_id"]
    option = started["recommended_option"]
    chose = as_json(vf(drifted, "step", run_id, "choose", "-i", f"option={option}", "--json"))
    token = chose["confirmation_expected"]
    text = vf(drifted, "step", run_id, "confirm", "-i", "confirmation=APPLY", env=APPLY)
    assert text.returncode == 3, text.stdout
    assert (
        "nothing was changed; the run is still waiting for confirmation (a `next:` "
        "command below answers it)" in text.stdout
    )
    assert f'next: vibflow step {run_id} confirm --input confirmation="{token}"' in text.stdout
    answer = vf(drifted, "step", run_id, "confirm", "-i", "confirmation=nope", "--json", env=APPLY)
    assert answer.returncode == 3, answer.stderr
    shown = as_json(answer)
    assert (shown["status"], shown["state"]) == ("blocked", "confirm")
    assert shown["waiting_for"]["wait"] == "confirmation"
    assert "the confirmation does not match" in shown["blocked_reason"]
    assert (
        f'vibflow step {run_id} confirm --input confirmation="{token}"' in (shown["next_commands"])
    )


def test_resume_at_a_terminal_asks_a_refused_confirmation_again(drifted: Path) -> None:
    """A confirmation refused by `step --input` leaves the run blocked at its wait;
    `vibflow resume RUN` at a terminal asks it again (it used to re-send the same
    wrong text and stop, refused), and the right text restores."""
    started = as_json(vf(drifted, "run", "recover", "--json", env=APPLY))
    run_id = started["run_id"]
    option = started["recommended_option"]
    chose = as_json(vf(drifted, "step", run_id, "choose", "-i", f"option={option}", "--json"))
    token = chose["confirmation_expected"]
    wrong = vf(drifted, "step", run_id, "confirm", "-i", "confirmation=APPLY", env=APPLY)
    assert wrong.returncode == 3, wrong.stdout
    code, text = drive(drifted, ["resume", run_id], [("c cancels, q stops)", token)], env=APPLY)
    assert code == 0, text
    assert "finished at 'result'" in text
    shown = as_json(vf(drifted, "runs", "show", run_id, "--json"))
    assert shown["status"] == "done"
    assert len(shown["refusals"]) == 1  # the one by --input; resume sent nothing wrong


def test_enter_never_picks_a_restore_and_a_read_only_choice_ends_without_changes(
    drifted: Path,
) -> None:
    """The recommendation (a partial restore, blocked while restoring is switched off)
    is not what Enter picks: Enter asks again; a read-only choice ends the run and no
    file changes."""
    before = _tree(drifted)
    code, text = drive(
        drifted, ["run", "recover"], [("Which one (", ""), ("Which one (", "2")], env={}
    )
    assert code == 0, text
    assert "a restore is never what Enter picks" in text
    assert "finished at 'result'" in text
    assert _tree(drifted) == before


def test_all_lists_every_file_in_the_explanation_and_the_file_list(drifted: Path) -> None:
    """`--all` shows every file where the guided flow would cap the list."""
    code, text = drive(
        drifted,
        ["run", "recover", "--all"],
        [
            ("Which one (", "4"),
            ("Which files (", "b"),  # back to the menu
            ("Which one (", "4"),
            ("Which files (", "q"),
        ],
        env=APPLY,
    )
    assert code == 0, text
    assert text.count("This restores 28 file(s):") == 2
    assert "use --all to list them" not in text
    assert "more — 'list' numbers them all" not in text
    assert all(m in text for m in MODULES)
    assert "is waiting at 'choose'" in text


def test_without_a_terminal_nothing_is_asked_and_the_paths_input_is_named(
    drifted: Path,
) -> None:
    """A script's `run recover` (stdin not a terminal) gets the run and its commands,
    told how to pass a subset; the confirmation wait counts the files plainly."""
    started = vf(drifted, "run", "recover", env=APPLY)
    assert started.returncode == 0, started.stderr
    assert "What happened:" not in started.stdout
    assert "Which one" not in started.stdout
    assert "--input paths=PATH once per file" in started.stdout
    run_id = re.findall(r"run (run_[0-9a-f]{32})", started.stdout)[0]
    plan = as_json(vf(drifted, "runs", "show", run_id, "--json"))["plan"]
    full = next(o for o in plan["options"] if o["level"] == 4)
    chose = vf(
        drifted,
        "step",
        run_id,
        "choose",
        "--input",
        f"option={full['option_id']}",
        "--input",
        "paths=docs/new.md",
        "--input",
        "paths=src/app/m01.py",
        env=APPLY,
    )
    assert chose.returncode == 0, chose.stderr
    assert "restoring 2 file(s), 1 of them DELETED (not in the checkpoint)" in chose.stdout
    assert f"`vibflow resume {run_id} --all` lists them all" in chose.stdout
    assert "the JSON lists" not in chose.stdout
    helped = vf(drifted, "step", "--help")
    assert "--input paths=a.py --input paths=src/b.py" in " ".join(helped.stdout.split())


def test_a_subset_of_thousands_of_files_is_restored(tmp_path: Path) -> None:
    """A subset too long for the run's context (2,600 paths) is saved beside the run
    and sent as a selection: the restore puts back exactly those files and leaves
    the one file not chosen as the agent left it."""
    files = {f"src/pkg/module_number_{i:05d}.py": f"v = {i}\n" for i in range(2600)}
    root = init_repo(tmp_path / "big", files | {"README": "r\n"})
    assert vf(root, "checkpoint", "create").returncode == 0
    for rel, text in files.items():
        write(root, rel, text + "# drifted\n")
    write(root, "README", "changed\n")
    code, text = drive(
        root,
        ["run", "recover"],
        [
            ("Which one (", "2"),  # full rollback
            ("Which files (", "src/**"),  # every file but README: 2,600 paths
            ("c cancels, q stops)", _token),
        ],
        env=APPLY,
    )
    assert code == 0, text
    assert "finished at 'result'" in text
    assert "files modified by vibflow: 2600" in text
    assert _tree(root) == files | {"README": b"changed\n"} | {
        rel: text.encode() for rel, text in files.items()
    }


def test_cancel_at_the_confirmation_ends_the_run_without_changes(drifted: Path) -> None:
    """`c` at the confirmation cancels: the run ends, saying nothing was changed."""
    before = _tree(drifted)
    code, text = drive(
        drifted,
        ["run", "recover"],
        [("Which one (", "1"), ("Which files (", "src/app/m0*"), ("c cancels, q stops)", "c")],
        env=APPLY,
    )
    assert code == 0, text
    assert "Restore 9 file(s) from checkpoint" in text
    assert "No file is deleted." in text
    assert "finished at 'result'" in text
    assert _tree(drifted) == before
