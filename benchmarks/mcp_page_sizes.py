"""How big one ``recovery_preview`` answer is when the drift's paths are long.

An agent's client takes an answer of roughly 25,000 tokens whole; a page bounded
by entry count alone grows with the paths' length. This builds a drift of
``--files`` files (default 3,000) whose paths are about 95 characters
(``src/deep/very/long/…/component_with_long_name_N.ts``), serves it with
``vibflow mcp serve`` through the official MCP client, and reports the text size
of the first page at ``limit`` 25, 100, 200 and 1000, then pages through the
whole plan at ``limit`` 200 (page count, largest page) — for this checkout and,
with ``--base-python``, another checkout's interpreter on the same repository in
the same run (e.g. main's venv: the baseline).

Usage (from the repository root, with the dev venv)::

    .venv/bin/python benchmarks/mcp_page_sizes.py [--files 3000]
        [--base-python /path/to/other/venv/bin/python] [--out benchmarks/results/NAME.md]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio
from benchkit import GIT_ENV, REPO, VIBFLOW, git
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

DEEP = "src/deep/very/long/directory/name/that/goes/on/and/on"
LIMITS = (25, 100, 200, 1000)


def build(root: Path, files: int) -> None:
    """``files`` committed modules under one deep folder, then every one touched."""
    folder = root / DEEP
    folder.mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    for i in range(1, files + 1):
        (folder / f"component_with_long_name_{i}.ts").write_text(f"export const v{i} = {i};\n")
    (root / "src/main.ts").write_text("main\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "init")
    for args in (
        ("memory", "intent", "Fix the main entry", "--yes"),
        ("memory", "relevant", "src/main.ts", "entry", "--yes"),
    ):
        subprocess.run([*VIBFLOW, *args], cwd=root, env=GIT_ENV, check=True, capture_output=True)
    for i in range(1, files + 1):
        with (folder / f"component_with_long_name_{i}.ts").open("a") as fh:
            fh.write("// touched\n")
    (root / "src/main.ts").write_text("main2\n")


def _text(result: Any) -> str:
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


async def sizes(root: Path, python: str) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VIBFLOW_")}
    args = ["-m", "vibflow", "mcp", "serve", "--client", "bench", "--rescan-rate", "0"]
    params = StdioServerParameters(command=python, args=args, cwd=str(root), env=env)
    out: dict[str, Any] = {"first_page": {}}
    with Path(os.devnull).open("w") as errlog:
        async with Client(stdio_client(params, errlog=errlog)) as client:
            for limit in LIMITS:
                result = await client.call_tool("recovery_preview", {"limit": limit})
                page = (result.structured_content or {}).get("page") or {}
                out["first_page"][limit] = {
                    "bytes": len(_text(result).encode()),
                    "refused": bool(result.is_error),
                    "shown": page.get("shown", None if result.is_error else limit),
                }
            offset: int | None = 0
            count = largest = 0
            while offset is not None:
                result = await client.call_tool(
                    "recovery_preview", {"offset": offset, "limit": 200}
                )
                assert not result.is_error, _text(result)[:300]
                count += 1
                largest = max(largest, len(_text(result).encode()))
                offset = result.structured_content["page"]["next_offset"]
            out["pages_at_200"] = count
            out["largest_page_at_200"] = largest
    return out


def _cell(found: dict[str, Any]) -> str:
    if found["refused"]:
        return "refused"
    return f"{found['bytes']:,} bytes ({found['shown']} shown)"


def report(files: int, head: dict[str, Any], base: dict[str, Any] | None, command: str) -> str:
    commit = git(REPO, "rev-parse", "--short", "HEAD")
    lines = [
        "# `recovery_preview` page sizes with long paths (`benchmarks/mcp_page_sizes.py`)",
        "",
        f"Command: `{command}` — {datetime.now(UTC):%Y-%m-%d}, commit {commit}, "
        f"Python {sys.version.split()[0]}.",
        "",
        f"Repository: {files:,} modified files whose paths are ~95 characters. Sizes are the "
        "answer's text (the JSON an agent reads), first page at each `limit`.",
        "",
        "| `limit` | this checkout | baseline (`--base-python`) |",
        "|---|---|---|",
    ]
    for limit in LIMITS:
        right = _cell(base["first_page"][limit]) if base else "—"
        lines.append(f"| {limit} | {_cell(head['first_page'][limit])} | {right} |")
    pages = (
        f"{base['pages_at_200']} pages, largest {base['largest_page_at_200']:,} bytes"
        if base
        else "—"
    )
    lines.append(
        f"| whole plan at 200 | {head['pages_at_200']} pages, largest "
        f"{head['largest_page_at_200']:,} bytes | {pages} |"
    )
    raw = {"head": head, "base": base}
    return "\n".join([*lines, "", f"Raw: `{json.dumps(raw)}`", ""])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=3000)
    parser.add_argument("--base-python", default=None)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="vibflow-pages-") as tmp:
        root = Path(tmp) / "project"
        root.mkdir()
        build(root, args.files)
        head = anyio.run(sizes, root, sys.executable)
        base = anyio.run(sizes, root, args.base_python) if args.base_python else None
    command = " ".join([".venv/bin/python", *sys.argv])
    text = report(args.files, head, base, command)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
