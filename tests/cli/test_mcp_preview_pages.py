"""recovery_preview answers one page of the plan: an agent reads an answer whole, and
the plan of a large drift is hundreds of KB (a 20,000-file repository's 600 changed
files made a 700 KB answer, far past what an agent's client takes in). Every page
keeps the summary and every option; the per-file lists are cut, counted in full, and
the pages together are the whole plan of `vibflow recover --preview --json`."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

from mcp import Client
from vibflow_testing.apply import drifted
from vibflow_testing.cli import vf
from vibflow_testing.mcp import call, with_servers
from vibflow_testing.repo import write

LISTS = ("changed", "drift_candidates", "feedback_paths", "intent_zone")


def flood(repo: Path, n: int) -> None:
    """The drifted app, then ``n`` more out-of-scope files the agent wrote."""
    drifted(repo)
    for i in range(n):
        write(repo, f"src/reports/r{i:03d}.py", f"ROWS = {i}\n")


def pages(repo: Path, limit: int) -> list[dict[str, Any]]:
    async def body(client: Client) -> list[dict[str, Any]]:
        got: list[dict[str, Any]] = []
        offset: int | None = 0
        while offset is not None:
            failed, data, text = await call(
                client, "recovery_preview", {"offset": offset, "limit": limit}
            )
            assert not failed, data
            assert json.loads(text) == data
            got.append(data)
            offset = data["page"]["next_offset"]
        return got

    result: list[dict[str, Any]] = with_servers(repo, body)
    return result


def assert_pages_join(whole: dict[str, Any], got: list[dict[str, Any]]) -> None:
    """The pages' per-file lists, one after the other, are the whole plan's."""
    for key in LISTS:
        assert [e for p in got for e in p[key]] == whole[key], key
        assert {p[f"{key}_total"] for p in got} == {len(whole[key])}, key
    for i, opt in enumerate(whole["options"]):
        for key in ("affected_paths", "deletes"):
            assert [e for p in got for e in p["options"][i][key]] == opt[key], (opt["level"], key)
    for before, after in itertools.pairwise(got):
        assert after["page"]["offset"] == before["page"]["next_offset"]
        assert before["page"]["next_offset"] == before["page"]["offset"] + before["page"]["shown"]
    assert got[-1]["page"]["next_offset"] is None


def whole_plan(repo: Path) -> dict[str, Any]:
    proc = vf(repo, "recover", "--preview", "--json")
    assert proc.returncode == 0, proc.stderr
    plan: dict[str, Any] = json.loads(proc.stdout)
    return plan


def test_the_pages_together_are_the_whole_plan(repo: Path) -> None:
    flood(repo, 30)
    whole = whole_plan(repo)
    assert len(whole["changed"]) > 30

    got = pages(repo, 7)
    assert_pages_join(whole, got)
    assert len(got) == -(-len(whole["changed"]) // 7)  # every list fits in the changed list's pages
    for key in LISTS:
        assert [e for p in got for e in p[key]] == whole[key], key
        assert {p[f"{key}_total"] for p in got} == {len(whole[key])}, key
        assert all(len(p[key]) <= 7 for p in got), key
    for i, opt in enumerate(whole["options"]):
        for key in ("affected_paths", "deletes"):
            joined = [e for p in got for e in p["options"][i][key]]
            assert joined == opt[key], (opt["level"], key)
            assert got[0]["options"][i][f"{key}_total"] == len(opt[key])
    # What is not a per-file list is whole on every page.
    for p in got:
        assert p["summary"] == whole["summary"]
        assert [o["label"] for o in p["options"]] == [o["label"] for o in whole["options"]]
    assert [p["page"]["offset"] for p in got] == list(range(0, 7 * len(got), 7))
    assert [p["page"]["shown"] for p in got[:-1]] == [7] * (len(got) - 1)
    assert got[-1]["page"]["next_offset"] is None


def test_a_large_drift_answers_a_bounded_first_page(repo: Path) -> None:
    """Without paging arguments the answer holds 25 entries per list and says how many
    there are; the answer's size no longer grows with the drift."""
    flood(repo, 200)

    async def body(client: Client) -> tuple[Any, str]:
        _, data, text = await call(client, "recovery_preview", {})
        return data, text

    data, text = with_servers(repo, body)
    assert data["changed_total"] > 200
    assert data["drift_candidates_total"] > 200
    assert len(data["changed"]) == len(data["drift_candidates"]) == 25
    assert _paging(data["page"]) == {"offset": 0, "limit": 25, "shown": 25, "next_offset": 25}
    recommended = next(o for o in data["options"] if o["recommended"])
    assert recommended["affected_paths_total"] > 200
    assert len(recommended["affected_paths"]) == 25
    assert len(text.encode()) < 32_000


def test_paging_arguments_out_of_range_are_typed_errors(repo: Path) -> None:
    drifted(repo)

    async def body(client: Client) -> list[tuple[bool, Any, str]]:
        return [
            await call(client, "recovery_preview", args)
            for args in ({"limit": 0}, {"limit": 201}, {"offset": -1}, {"page": 2})
        ]

    for failed, data, text in with_servers(repo, body):
        assert failed, data
        assert "Traceback" not in text


def test_long_paths_make_shorter_pages_not_bigger_answers(repo: Path) -> None:
    """With paths hundreds of characters long, a page of the largest limit (200) shows
    only as many entries as fit its byte budget (page.shown < limit, next_offset =
    offset + shown); every answer stays small enough for an agent's client, and the
    pages still join to the whole plan."""
    drifted(repo)
    deep = "/".join(["a_rather_long_folder_name_for_the_generated_reports_" + "x" * 40] * 3)
    for i in range(240):
        write(repo, f"src/{deep}/report_{i:03d}_{'y' * 60}.py", f"ROWS = {i}\n")
    whole = whole_plan(repo)
    assert len(whole["changed"]) > 240

    got = pages(repo, 200)
    assert_pages_join(whole, got)
    assert len(got) > 2
    for page in got:
        assert page["page"]["limit"] == 200
        assert len(json.dumps(page, ensure_ascii=False).encode()) < 64_000
    assert all(0 < p["page"]["shown"] < 200 for p in got)


def test_a_page_of_a_changed_plan_is_refused_not_mixed_in(repo: Path) -> None:
    """Every page carries the plan's digest, the same for an unchanged tree (ids aside);
    the next page asked with the first page's digest after the tree moved is refused
    with a typed error that says to start again, never a page of another plan."""
    flood(repo, 30)

    async def body(client: Client) -> list[tuple[bool, dict[str, Any]]]:
        out = []
        failed, first, _ = await call(client, "recovery_preview", {"limit": 7})
        out.append((failed, first))
        assert "page" in first, first
        digest = first["page"]["plan_digest"]
        failed, again, _ = await call(
            client, "recovery_preview", {"offset": 7, "limit": 7, "plan_digest": digest}
        )
        out.append((failed, again))
        write(repo, "src/reports/late.py", "LATE = 1\n")
        failed, moved, _ = await call(
            client, "recovery_preview", {"offset": 14, "limit": 7, "plan_digest": digest}
        )
        out.append((failed, moved))
        return out

    (ok1, first), (ok2, second), (refused, moved) = with_servers(repo, body)
    assert not ok1, first
    assert not ok2, second
    assert first["page"]["plan_digest"] == second["page"]["plan_digest"]
    assert first["plan_id"] != second["plan_id"]  # ids are minted per preview; the digest is not
    assert refused, moved
    assert moved["error"]["code"] == "E209", moved
    assert "offset 0" in json.dumps(moved)


def _paging(page: dict[str, Any]) -> dict[str, Any]:
    """A page's paging fields, its plan digest aside (another test pins that)."""
    return {k: v for k, v in page.items() if k != "plan_digest"}
