"""The boundary's absolute-path check with kept verdicts decides exactly as the
contract's: a cleared text is skipped next time, an absolute path anywhere (a value, a
key, a new text beside cleared ones, an object) is still refused naming no path."""

from __future__ import annotations

from pathlib import Path

import pytest

from vibflow.engine.errors import VibflowError
from vibflow.mcp.leakcheck import AbsolutePathCheck


def test_kept_verdicts_never_let_an_absolute_path_through(tmp_path: Path) -> None:
    """Clean answers pass (and their texts are kept); each leak is refused afterwards too."""
    check = AbsolutePathCheck(tmp_path)
    clean = {"changed": [{"path": f"src/m{i}.py"} for i in range(50)], "summary": "ok"}
    check(clean)
    check(clean)  # all kept: nothing searched
    leak = str(tmp_path / "src" / "m1.py")
    for bad in (
        {**clean, "summary": leak},
        {leak: 1},
        {"changed": [*clean["changed"], {"path": leak}]},
        {"where": tmp_path / "x"},
        {"home": str(Path.home() / "notes.txt")},
    ):
        with pytest.raises(VibflowError) as err:
            check(bad)
        assert str(tmp_path) not in err.value.message
    check(clean)  # still clean after the refusals
