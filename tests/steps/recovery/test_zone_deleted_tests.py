"""A deleted test named for your file is no evidence of scope: deleting the test of
the code you work on is classic agent drift, so neither the test-name rule nor the
name rules (proximity) put ``D orders_test.go`` in scope next to your
``orders.go`` — unless the intent's words say tests are being removed."""

from __future__ import annotations

import pytest
from vibflow_testing.recovery_inputs import changed

from vibflow.steps.recovery import evidence_links
from vibflow.steps.recovery.evidence import Evidence, by_reference, judge, removes_tests
from vibflow.steps.recovery.zone import MemorySignals, drift, infer_zone

MINE = "internal/orders/orders.go"
TEST = "internal/orders/orders_test.go"
EV = Evidence(
    tested=evidence_links.tested_stems([MINE]),
    folders={"internal/orders": ("orders.go", "orders_test.go", "cancel.go")},
    intent_words=frozenset({"cancel", "orders"}),
)


def test_a_deleted_test_of_your_file_is_drift_with_a_hint() -> None:
    """Deleted: no source (not test_of, not name_proximity), a hint naming your file;
    the plan lists it as drift. Edited, the same test is in scope as before."""
    found, hint = judge(changed(TEST, "deleted"), [MINE], EV)
    assert found.source is None
    assert "the test named for your file 'internal/orders/orders.go', deleted" in hint
    assert by_reference(changed(TEST, "deleted"), EV) is None
    edited, _ = judge(changed(TEST), [MINE], Evidence(tested=EV.tested))
    assert edited.source == "test_of"
    files = [changed(MINE), changed(TEST, "deleted")]
    memory = MemorySignals({MINE: "the orders"}, [], True)
    zone = infer_zone(files, memory, {}, (), EV)
    assert [z.path for z in zone] == [MINE]
    (flagged,) = drift(files, zone, memory, {}, EV)
    assert flagged.path == TEST
    assert "deleted" in flagged.why_outside_zone


def test_when_the_intent_removes_tests_the_deleted_test_is_in_scope() -> None:
    """An intent to remove the flaky orders test: deleting it is the work, so the test-name rule
    holds again."""
    ev = Evidence(tested=EV.tested, removes_tests=True)
    found, _ = judge(changed(TEST, "deleted"), [MINE], ev)
    assert found.source == "test_of"


@pytest.mark.parametrize(
    ("intent", "says"),
    [
        ("Remove the flaky orders test", True),
        ("delete orders_test.go, it tests nothing", True),
        ("Drop the OrdersTest suite", True),
        ("get rid of the old specs", True),
        ("tests: prune the ones for the retired API", True),
        ("Add order cancellation", False),
        ("remove the cancel button", False),
        ("test the latest orders", False),
        ("fix the dropdown in the test page", False),
    ],
)
def test_the_intent_says_tests_are_being_removed(intent: str, says: bool) -> None:
    """A word of removal and a word for tests, in any order and spelling."""
    assert removes_tests(intent) is says
