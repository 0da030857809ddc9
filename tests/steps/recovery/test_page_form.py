"""One page of a recover plan is bounded by count and by bytes: every per-file list
shows the same entries from the page's offset, as many as ``limit`` allows and the
byte budget holds (at least one), and the pages one after another are the plan."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from vibflow.steps.recovery.plans import page_form, plan_digest
from vibflow.steps.redaction.shapes import is_vibflow_id

_PATH = st.text(alphabet="abcxyz/_.", min_size=1, max_size=300)


def _plan(changed: list[str], extra: list[str]) -> dict[str, Any]:
    return {
        "summary": "what changed",
        "changed": [{"path": p, "status": "modified"} for p in changed],
        "drift_candidates": changed,
        "intent_zone": extra,
        "options": [
            {"option_id": "opt_a", "level": 3, "affected_paths": changed, "deletes": extra},
            {"option_id": "opt_b", "level": 1},
        ],
    }


def _entry_bytes(page: dict[str, Any]) -> int:
    lists = [page["changed"], page["drift_candidates"], page["intent_zone"]]
    lists += [page["options"][0]["affected_paths"], page["options"][0]["deletes"]]
    return sum(len(json.dumps(e, ensure_ascii=False).encode()) + 2 for x in lists for e in x)


@given(
    st.lists(_PATH, max_size=60),
    st.lists(_PATH, max_size=60),
    st.integers(1, 40),
    st.integers(200, 6000),
)
def test_pages_fit_their_budget_and_join_to_the_plan(
    changed: list[str], extra: list[str], limit: int, budget: int
) -> None:
    """Each page's entries fit the budget (or are a single position), no page shows
    more than limit, next_offset is offset + shown, and the pages join to the plan."""
    plan = _plan(changed, extra)
    pages, offset = [], 0
    while True:
        page = page_form(plan, offset, limit, budget)
        shown = page["page"]["shown"]
        assert 1 <= shown <= limit or (shown == 0 and not changed and not extra)
        assert shown == 1 or _entry_bytes(page) <= budget
        pages.append(page)
        if page["page"]["next_offset"] is None:
            break
        assert page["page"]["next_offset"] == offset + shown
        offset = page["page"]["next_offset"]
    assert [e for p in pages for e in p["changed"]] == plan["changed"]
    assert [e for p in pages for e in p["intent_zone"]] == extra
    assert [e for p in pages for e in p["options"][0]["deletes"]] == extra
    assert all(p["changed_total"] == len(changed) for p in pages)
    assert all(p["options"][1] == {"option_id": "opt_b", "level": 1} for p in pages)


def test_one_path_longer_than_the_budget_is_still_shown() -> None:
    """A page never shows nothing while entries remain: one over-long path is a page."""
    plan = _plan(["a" * 5000, "b"], [])
    page = page_form(plan, 0, 25, budget=1000)
    assert _paging(page["page"]) == {"offset": 0, "limit": 25, "shown": 1, "next_offset": 1}
    assert page_form(plan, 1, 25, budget=1000)["page"]["next_offset"] is None


def test_an_offset_past_the_end_shows_nothing() -> None:
    """Past the longest list a page is empty and the last one."""
    page = page_form(_plan(["a", "b"], []), 10, 25)
    assert _paging(page["page"]) == {"offset": 10, "limit": 25, "shown": 0, "next_offset": None}
    assert page["changed"] == []
    assert page["changed_total"] == 2


def test_the_plan_digest_ignores_ids_and_changes_with_the_plan() -> None:
    """Two previews of one tree (fresh plan and option ids, another summary time) share
    a digest; a path more or a level changed does not; every page carries it."""
    plan = _plan(["a.py", "b.py"], ["c.py"])
    again = {**plan, "plan_id": "rec_other", "generated_at": "later"}
    again["options"] = [{**o, "option_id": o["option_id"] + "2"} for o in plan["options"]]
    assert plan_digest(plan) == plan_digest(again)
    assert plan_digest(plan) != plan_digest(_plan(["a.py", "b.py", "d.py"], ["c.py"]))
    bumped = {**plan, "options": [{**plan["options"][0], "level": 4}, plan["options"][1]]}
    assert plan_digest(plan) != plan_digest(bumped)
    digest = plan_digest(plan)
    assert page_form(plan, 0, 1)["page"]["plan_digest"] == digest
    assert page_form(plan, 1, 1)["page"]["plan_digest"] == digest
    # One of vibflow's own id shapes, which the redaction contract passes as it is.
    assert is_vibflow_id(digest)


def _paging(page: dict[str, Any]) -> dict[str, Any]:
    """A page's paging fields, its plan digest aside (another test pins that)."""
    return {k: v for k, v in page.items() if k != "plan_digest"}
