"""The explorer's repro at the terminal: edit a file, run the check, `memory verify`
it — all inside one second — and `memory show` called it stale. A verification
recorded after the last edit it covers is fresh; an older seconds-only record in
the edit's second is shown as UNSURE with the reason (never STALE); a later edit
makes it stale."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from vibflow_testing.cli import as_json, vf
from vibflow_testing.repo import init_repo

from vibflow.engine.clock import parse_stamp

pytestmark = pytest.mark.cli

SECOND_NS = 1_000_000_000


def _ns(text: str) -> int:
    when = parse_stamp(text)
    assert when is not None
    return int(when.timestamp()) * SECOND_NS + when.microsecond * 1_000


def _verify(root: Path) -> str:
    proc = vf(root, "memory", "verify", "pytest", "--result", "pass", "--files", "a.py", "--json")
    assert proc.returncode == 0, proc.stderr
    stamp = as_json(proc)["entry"]["timestamp"]
    assert isinstance(stamp, str)
    return stamp


def _freshness(root: Path) -> dict[str, object]:
    shown = as_json(vf(root, "memory", "show", "--json"))["freshness"]
    assert isinstance(shown, dict)
    return shown


def test_an_edit_in_the_same_second_before_the_verification_is_fresh(tmp_path: Path) -> None:
    """The edit's time is placed in the verification's own second, just before it (the
    old seconds-only stamp put such an edit "after" and called the check stale)."""
    root = init_repo(tmp_path / "r", {"a.py": "a = 1\n"})
    (root / "a.py").write_text("a = 2\n")
    stamp = _verify(root)
    ran = _ns(stamp)
    # Just before the recorded moment, in its second; a stamp cut to the second (as
    # they were) puts the edit a millisecond into that second, where it really was.
    edit = ran - 1_000 if ran % SECOND_NS >= 1_000 else ran + 1_000_000
    os.utime(root / "a.py", ns=(edit, edit))
    fresh = _freshness(root)
    assert fresh["stale_verification"] == 0, fresh
    assert fresh["unsure_verification"] == 0, fresh
    text = vf(root, "memory", "show").stdout
    assert "pytest: pass [fresh]" in text
    later = ran + SECOND_NS
    os.utime(root / "a.py", ns=(later, later))
    assert _freshness(root)["stale_verification"] == 1


def test_an_old_seconds_only_record_in_the_edits_second_is_unsure(tmp_path: Path) -> None:
    """A record kept to the second (written by an older vibflow) and an edit in that
    second cannot be ordered: `memory show` says UNSURE and why, counts it apart from
    the stale ones, and the handoff labels it the same way."""
    root = init_repo(tmp_path / "r", {"a.py": "a = 1\n"})
    stamp = _verify(root)
    memory = root / ".vibflow" / "memory.json"
    data = json.loads(memory.read_text("utf-8"))
    whole = stamp.split(".")[0].rstrip("Z") + "Z"
    data["verification"][0]["timestamp"] = whole
    memory.write_text(json.dumps(data), "utf-8")
    edit = _ns(whole) + SECOND_NS // 2
    os.utime(root / "a.py", ns=(edit, edit))
    fresh = _freshness(root)
    assert fresh["stale_verification"] == 0, fresh
    assert fresh["unsure_verification"] == 1, fresh
    text = vf(root, "memory", "show").stdout
    assert "Verification: 1 (0 stale, 1 unsure)" in text
    assert "pytest: pass [UNSURE — 1 related file(s) changed in the same second" in text
    assert "rerun it to be sure" in text
    handoff = vf(root, "handoff").stdout
    assert "[UNSURE — " in handoff
