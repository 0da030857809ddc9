"""A whole session on a generated repository of more than 2,000 files, through the
real CLI: intent and relevant files → checkpoint → an AI-style drift (in-scope
edits, unrelated edits, a deleted file, a `git mv`, non-ASCII names, junk, a
`.env` with a key) → explain → the guided flow's file subset → apply → undo →
undo of the undo, with the working tree compared byte for byte at every step.
"""

from __future__ import annotations

import json
import os
import re
import stat
import time
from pathlib import Path
from typing import Any

import pytest
from vibflow_testing.apply import APPLY, commit_all, ok_json
from vibflow_testing.cli import vf
from vibflow_testing.git import git
from vibflow_testing.repo import write

pytestmark = pytest.mark.slow

PACKAGES = ("billing", "auth", "report", "catalog", "orders", "users", "search", "utils")
PER_PACKAGE = 250  # 8 x 250 modules + tests and docs: > 2,000 tracked files

REPORT = "shop/report/monthly.py"
REPORT_TEST = "tests/test_monthly.py"
INVOICE = "shop/billing/invoice.py"
LOGIN = "shop/auth/login.py"
SETTINGS = "config/settings.yaml"
GUIDE = "docs/guide.md"
CAFE = "docs/café.md"
OLD_NAME = "shop/utils/helpers.py"
NEW_NAME = "shop/utils/helpers_v2.py"
RESUME = "shop/données/résumé.py"
ENV = ".env"
KEY = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"


def tree(root: Path) -> dict[str, tuple[bytes, bool]]:
    """Every file of the working tree outside .git/ and .vibflow/: bytes and +x."""
    out: dict[str, tuple[bytes, bool]] = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in (".git", ".vibflow")]
        for name in files:
            path = Path(folder, name)
            rel = path.relative_to(root).as_posix()
            out[rel] = (path.read_bytes(), bool(path.stat().st_mode & stat.S_IXUSR))
    return out


def generate(root: Path) -> None:
    for package in PACKAGES:
        for i in range(PER_PACKAGE):
            write(root, f"shop/{package}/m{i:03d}.py", f"# {package} module {i}\nVALUE = {i}\n")
    for rel, text in {
        REPORT: "def monthly(rows):\n    return rows\n",
        REPORT_TEST: "def test_monthly():\n    assert True\n",
        INVOICE: "def total(lines):\n    return sum(lines)\n",
        LOGIN: "def login(user, password):\n    return check(user, password)\n",
        SETTINGS: "currency: EUR\nretries: 3\n",
        GUIDE: "# Guide\nHow to run the shop.\n",
        CAFE: "# Café\nLe menu.\n",
        OLD_NAME: "def helper():\n    return 42\n",
    }.items():
        write(root, rel, text)
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.email", "t@example.invalid")
    git(root, "config", "user.name", "t")
    git(root, "config", "core.quotepath", "false")
    commit_all(root, "the shop")


def drift(root: Path) -> None:
    """What a simulated agent leaves behind."""
    write(root, REPORT, "def monthly(rows):\n    return rows\n\ndef to_csv(rows):\n    return ''\n")
    write(root, REPORT_TEST, "def test_monthly():\n    assert True\n\ndef test_csv():\n    pass\n")
    write(root, INVOICE, "def total(lines):\n    return round(sum(lines))\n")
    write(root, LOGIN, "def login(user, password):\n    return True\n")
    write(root, SETTINGS, "currency: USD\nretries: 0\n")
    (root / GUIDE).unlink()
    git(root, "mv", OLD_NAME, NEW_NAME)
    write(root, CAFE, "# Café\nLe menu, réécrit.\n")
    write(root, RESUME, 'RÉSUMÉ = "écrit par l\'agent"\n')
    write(root, "shop/__pycache__/m000.cpython-311.pyc", b"\x00\x01junk")
    write(root, "build/bundle.js", "console.log('built')\n")
    write(root, ENV, f"STRIPE_KEY={KEY}\r\nDEBUG=1")


def run(root: Path, *args: str) -> dict[str, Any]:
    return ok_json(vf(root, *args, "--json", env=APPLY))


def stored_plan(root: Path, run_id: str) -> dict[str, Any]:
    path = root / ".vibflow" / "recovery" / "plans" / f"{run_id}.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def confirm(root: Path, at: dict[str, Any]) -> dict[str, Any]:
    assert (at["status"], at["state"]) == ("waiting", "confirm"), at
    done = run(
        root,
        "step",
        at["run_id"],
        "confirm",
        "--input",
        f"confirmation={at['confirmation_expected']}",
    )
    assert done["status"] == "done", done
    return done


def check_explain(root: Path) -> None:
    """What is in scope, what drifted, the rename as one change, the secret never shown."""
    proc = vf(root, "recover", "--explain", "--json")
    assert proc.returncode == 0, proc.stderr
    assert KEY not in proc.stdout
    plan = json.loads(proc.stdout)
    zone = {z["path"] for z in plan["intent_zone"]}
    drift_paths = {d["path"] for d in plan["drift_candidates"]}
    assert {REPORT, REPORT_TEST} <= zone
    assert {INVOICE, LOGIN, SETTINGS, GUIDE, CAFE, NEW_NAME} <= drift_paths
    assert not zone & drift_paths
    changed = {c["path"]: c for c in plan["changed"]}
    assert changed[NEW_NAME]["status"] == "renamed"
    assert changed[NEW_NAME]["old_path"] == OLD_NAME
    assert "build/bundle.js" in plan["excluded_generated"]
    text = vf(root, "recover", "--explain")
    assert re.search(rf"\bR\s+{re.escape(OLD_NAME)} → {re.escape(NEW_NAME)}", text.stdout)
    assert KEY not in text.stdout
    assert {x["path"] for x in plan["left_out"]} == {ENV}
    assert "likely secret" in plan["left_out"][0]["why"]
    assert "Not in the safe checkpoint, so no restore touches them" in text.stdout


def test_a_session_on_a_2000_file_repo_restores_a_subset_and_undoes_twice(
    tmp_path: Path,
) -> None:
    root = tmp_path / "shop"
    generate(root)
    assert len(git(root, "ls-files").splitlines()) >= 2000
    assert (
        vf(root, "memory", "intent", "Add a CSV export to the monthly report", "--yes").returncode
        == 0
    )
    for rel in (REPORT, REPORT_TEST):
        assert (
            vf(root, "memory", "relevant", rel, "the report being extended", "--yes").returncode
            == 0
        )
    run(root, "checkpoint", "create", "-m", "before the agent")
    before = tree(root)
    time.sleep(0.05)
    drift(root)
    drifted = tree(root)

    check_explain(root)

    # -- the flow, restoring a subset of the partial restore's files -----------------------
    started = run(root, "run", "recover")
    partial = next(o for o in stored_plan(root, started["run_id"])["options"] if o["level"] == 3)
    subset = [INVOICE, LOGIN, GUIDE, CAFE, OLD_NAME, NEW_NAME]
    assert set(subset) <= set(partial["affected_paths"])
    assert NEW_NAME in partial["deletes"]
    at = run(
        root,
        "step",
        started["run_id"],
        "choose",
        "--input",
        f"option={partial['option_id']}",
        *(f"--input=paths={p}" for p in subset),
    )
    assert at["paths_total"] == len(subset)
    assert at["restore"]["deletes"] == [NEW_NAME]
    applied = confirm(root, at)
    after = tree(root)
    expected = dict(drifted)
    for rel in (INVOICE, LOGIN, GUIDE, CAFE, OLD_NAME):
        expected[rel] = before[rel]
    del expected[NEW_NAME]
    assert after == expected  # in-scope work, settings, junk, the new file and .env kept
    assert after[ENV] == drifted[ENV]
    assert applied["result"]["files_modified"] == len(subset)

    # -- undo, then undo the undo ------------------------------------------------------------
    undo = run(root, "undo", applied["run_id"])
    undone = confirm(root, undo)
    assert tree(root) == drifted
    redo = confirm(root, run(root, "undo", undone["run_id"]))
    assert redo["status"] == "done"
    assert tree(root) == after
