"""Every hostile path of the corpus (``tests/paths/hostile.jsonl``), given to each MCP
tool that takes a path, is refused with a typed error naming the rule — never the
path — and nothing is written: no file, no run, no memory entry."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from mcp import Client
from vibflow_testing.apply import APPLY, tree_state
from vibflow_testing.cli import vf
from vibflow_testing.mcp import call, with_servers
from vibflow_testing.paths import corpus_rows, plant_links

from vibflow.steps.paths.rules import PathRule


def _tree(repo: Path) -> Path:
    outside = repo.parent / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("secret\n", encoding="utf-8")
    for folder in ["src", "node_modules/pkg", "docs"]:
        (repo / folder).mkdir(parents=True, exist_ok=True)
    for rel in ["src/a.py", "node_modules/pkg/index.js", ".vibflow/runs.db"]:
        (repo / rel).write_text("x\n", encoding="utf-8")
    plant_links(repo, outside)
    return outside


def test_hostile_paths_are_refused_by_rule_and_nothing_is_written(repo: Path) -> None:
    """handoff_export, recovery_apply and memory_write (granted, flag on) refuse each
    hostile path with the corpus's rule when it is relative (absolute ones are refused
    too: MCP takes project-relative paths only), without echoing it."""
    (repo / ".vibflow" / "runs.db").unlink(missing_ok=True)
    outside = _tree(repo)
    for tool in ("handoff_export", "recovery_apply", "memory_write"):
        assert vf(repo, "grant", tool).returncode == 0
    rows = corpus_rows("hostile.jsonl")
    root = os.path.realpath(repo)
    before = tree_state(repo)
    memory = repo / ".vibflow" / "memory.json"
    memory_before = memory.read_bytes() if memory.exists() else None

    def expand(raw: str) -> str:
        return raw.replace("<ROOT>", root).replace("<OUTSIDE>", str(outside))

    async def body(client: Client) -> list[tuple[dict[str, Any], str, tuple[bool, Any, str]]]:
        out = []
        for row in rows:
            raw = expand(row["path"])
            for tool, args in (
                ("handoff_export", {"path": raw}),
                ("recovery_apply", {"paths": ["README.md", raw]}),
                ("memory_write", {"field": "relevant_file", "path": raw, "why": "x"}),
            ):
                out.append((row, tool, await call(client, tool, args)))
        return out

    answers = with_servers(repo, body, env=APPLY)
    assert len(answers) == 3 * len(rows)
    rules = {r.value for r in PathRule}
    for row, tool, (failed, data, text) in answers:
        raw = expand(row["path"])
        assert failed, (tool, row)
        error = data["error"]
        assert error["kind"] == "bad_input", (tool, row, error)
        assert error["rule"] in rules, (tool, row, error)
        if not row["allow_absolute"]:
            assert error["rule"] == row["rule"], (tool, row, error)
        # At most one short offending name is quoted (the contract's rule); a whole
        # path, absolute or of several names, never.
        if "/" in raw.strip("/") or "\\" in raw:
            assert raw not in text, (tool, row)
        assert root not in text
    assert tree_state(repo) == before
    assert json.loads(vf(repo, "runs", "list", "--json").stdout)["runs"] == []
    assert (memory.read_bytes() if memory.exists() else None) == memory_before
