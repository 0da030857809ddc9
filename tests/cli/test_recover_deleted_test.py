"""The issue's repro through the CLI: an agent that deletes the existing test of your
explicit Go file is reported as drift, not "the test named for your file" in scope —
and when the intent says the test is being removed, the deletion is the work."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from vibflow_testing.cli import as_json, vf
from vibflow_testing.repo import init_repo

pytestmark = pytest.mark.cli

ORDERS = "package orders\n\nfunc Total(items []int) int {\n\treturn 0\n}\n"
ORDERS_TEST = (
    'package orders\n\nimport "testing"\n\nfunc TestTotal(t *testing.T) {\n'
    "\tif Total(nil) != 0 {\n\t\tt.Fatal()\n\t}\n}\n"
)


def _plan(tmp_path: Path, intent: str) -> dict[str, Any]:
    root = init_repo(
        tmp_path / "svc",
        {
            "go.mod": "module example.com/svc\n\ngo 1.22\n",
            "internal/orders/orders.go": ORDERS,
            "internal/orders/orders_test.go": ORDERS_TEST,
        },
        old=True,
    )
    for args in (
        ("memory", "intent", intent, "--yes"),
        ("memory", "relevant", "internal/orders/orders.go", "the orders", "--yes"),
    ):
        assert vf(root, *args).returncode == 0
    (root / "internal/orders/orders.go").write_text(
        ORDERS.replace(
            "return 0",
            "total := 0\n\tfor _, i := range items {\n\t\ttotal += i\n\t}\n\treturn total",
        ),
        encoding="utf-8",
    )
    (root / "internal/orders/orders_test.go").unlink()
    proc = vf(root, "recover", "--preview", "--json")
    assert proc.returncode == 0, proc.stderr
    return as_json(proc)


def test_the_agent_deleting_your_files_test_is_drift(tmp_path: Path) -> None:
    """`D internal/orders/orders_test.go` is a drift candidate the recommended restore
    brings back; the reason says it is the deleted test of your file."""
    plan = _plan(tmp_path, "Make the order total add up the items")
    assert "internal/orders/orders_test.go" not in {z["path"] for z in plan["intent_zone"]}
    (flagged,) = plan["drift_candidates"]
    assert flagged["path"] == "internal/orders/orders_test.go"
    assert "deleted" in flagged["why_outside_zone"]
    # Your Go file has no category: the reason compares none (it used to say "same").
    assert "same category" not in flagged["why_outside_zone"]
    best = next(o for o in plan["options"] if o["recommended"])
    assert best["affected_paths"] == ["internal/orders/orders_test.go"]


def test_an_intent_that_removes_the_test_keeps_its_deletion_in_scope(tmp_path: Path) -> None:
    """An intent to remove the obsolete orders test: the deletion is what you asked for."""
    plan = _plan(tmp_path, "Sum the order items and remove the obsolete orders test")
    zone = {z["path"]: z["source"] for z in plan["intent_zone"]}
    assert zone["internal/orders/orders_test.go"] == "test_of"
    assert plan["drift_candidates"] == []
