"""Files whose names the path rules refuse are left out of every restore up front.

A file named with a tab (or an invisible mark, or a character Windows cannot
store) is a good file on Linux and git lists it as changed. Offered in a
restore, the confirmation's path guard refused the *whole* restore and said to
try again — forever. Now the plan leaves such names out of its restore options
and lists them in ``left_out`` with the reason in words, so everything else is
restored. A rename with one such name is left out whole (a rename is one change).
Real repository, real CLI.
"""

from __future__ import annotations

import time
from pathlib import Path

from vibflow_testing.apply import APPLY, choose, confirm, ok_json, start, stored_option
from vibflow_testing.cli import vf
from vibflow_testing.git import git
from vibflow_testing.repo import init_repo, write

TABBED = "notes\tdraft.md"
ZERO_WIDTH = "docs/re\u200bport.md"
WINDOWS = "docs/what?.md"
RENAMED_FROM, RENAMED_TO = "old_name.py", "new\tname.py"
PLAIN = ["src/a.py", "src/b.py"]
ORIGINAL = {
    TABBED: "draft\n",
    ZERO_WIDTH: "report\n",
    WINDOWS: "what\n",
    RENAMED_FROM: "value = 1\n",
} | {p: f"{p}\n" for p in PLAIN}


def _drifted(root: Path) -> Path:
    """Everything committed, a checkpoint; then every file edited (the odd names too),
    one renamed to a name with a tab, and a new odd-named file added."""
    init_repo(root, ORIGINAL)
    assert vf(root, "checkpoint", "create").returncode == 0
    time.sleep(0.05)
    for rel in (TABBED, ZERO_WIDTH, WINDOWS, *PLAIN):
        write(root, rel, ORIGINAL[rel] + "drifted\n")
    git(root, "mv", RENAMED_FROM, RENAMED_TO)
    write(root, "new\u202eevil.txt", "new\n")  # a text-direction mark, untracked
    return root


def test_names_the_path_rules_refuse_are_left_out_and_the_rest_is_restored(
    tmp_path: Path,
) -> None:
    """No restore option lists a refused name (nor the other name of a rename with
    one); each is in left_out with why in words; the explanation lists them apart;
    the full rollback is confirmed in one go and restores every other file, leaving
    the refused ones as they are — it used to be refused whole, again and again."""
    root = _drifted(tmp_path / "project")
    refused = [TABBED, ZERO_WIDTH, WINDOWS, RENAMED_FROM, RENAMED_TO, "new\u202eevil.txt"]
    plan = ok_json(vf(root, "recover", "--preview", "--json", env=APPLY))
    why = {x["path"]: x["why"] for x in plan["left_out"]}
    assert set(why) == set(refused), why
    assert why[TABBED] == (
        "its name has a control character (a tab, a line break …) or an invisible "
        "text-direction mark; restore it by hand"
    )
    assert why[ZERO_WIDTH].startswith("its name has an invisible character")
    assert why[WINDOWS].startswith("its name has a character Windows cannot store")
    assert why[RENAMED_FROM] == (
        f"renamed to a name vibflow cannot restore ({RENAMED_TO}), and a rename is one "
        "change; restore it by hand"
    )
    for opt in plan["options"]:
        if opt["level"] >= 3:
            listed = set(opt["affected_paths"]) | set(opt["deletes"])
            assert not listed & set(refused), (opt["level"], listed)
    explained = vf(root, "recover", "--explain", env=APPLY)
    assert "Names vibflow cannot restore, so no restore touches them (6):" in explained.stdout

    run = start(root)
    full = stored_option(root, run, 4)
    assert sorted(full["affected_paths"]) == PLAIN
    at = choose(root, run, 4)
    done = confirm(root, at)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    result = ok_json(done)
    assert (result["status"], result["state"]) == ("done", "result"), result
    for rel in PLAIN:
        assert (root / rel).read_text(encoding="utf-8") == ORIGINAL[rel]
    for rel in (TABBED, ZERO_WIDTH, WINDOWS):
        assert (root / rel).read_text(encoding="utf-8").endswith("drifted\n"), rel
    assert (root / RENAMED_TO).exists()
    assert not (root / RENAMED_FROM).exists()
    assert (root / "new\u202eevil.txt").exists()
