"""The path corpus's fixtures: its rows, and the symlinks its cases name.

The path contract's own corpus test and the MCP server's hostile-path test read
the same rows and build the same links (some escape the project, some loop, some
stay inside), so both live here once.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from vibflow_testing import PATHS_CORPUS

#: Each symlink the corpus names → its target (``<OUTSIDE>``: a folder beside the project).
LINKS = {
    "escape_file": "<OUTSIDE>/secret.txt",
    "escape_dir": "<OUTSIDE>",
    "src/parent_link": "../../outside",
    "chain1": "chain2",
    "chain2": "<OUTSIDE>",
    "abs_escape": "/etc",
    "rel_up": "../outside/secret.txt",
    "dangling_out": "/nonexistent-vibflow-test/x",
    "back_in": "../project/src",
    "loop_a": "loop_b",
    "loop_b": "loop_a",
    "self_loop": "self_loop",
    "into_git": ".git/config",
    "into_git_dir": ".git",
    "into_vibflow": ".vibflow/runs.db",
    "into_nm": "node_modules/pkg",
    "to_root": ".",
    "inside_link": "src",
    "inside_file_link": "src/a.py",
    "chain_in1": "chain_in2",
    "chain_in2": "src/a.py",
}


def corpus_rows(name: str) -> list[dict[str, Any]]:
    """The rows of one corpus file (``hostile.jsonl``, ``benign.jsonl``)."""
    lines = (PATHS_CORPUS / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip() and not line.startswith("#")]


def plant_links(root: Path, outside: Path) -> None:
    """Every symlink of :data:`LINKS` under ``root``, escaping ones pointing into ``outside``."""
    for link, target in LINKS.items():
        (root / link).symlink_to(target.replace("<OUTSIDE>", str(outside)))
