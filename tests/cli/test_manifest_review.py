"""Issue 12's zone rules at the terminal: the agent adds the library the intent's
change imports to package.json and, in the same edit, bumps the package's own
version. The manifest stays in scope (a restore cannot take half of it), but the
version bump no longer disappears: `recover` quotes the lines the dependency does
not explain, the zone entry needs review, and the summary says so."""

from __future__ import annotations

from pathlib import Path

import pytest
from vibflow_testing.cli import as_json, vf
from vibflow_testing.repo import init_repo, write

pytestmark = pytest.mark.cli

PACKAGE = """{
  "name": "shop-api",
  "version": "1.2.0",
  "dependencies": {
    "express": "^4.18.2"
  }
}
"""
SERVER = """const express = require('express');
const app = express();
app.get('/orders', (req, res) => res.json([]));
module.exports = app;
"""
LIMITED = SERVER.replace(
    "const app = express();\n",
    "const rateLimit = require('express-rate-limit');\nconst app = express();\n"
    "app.use(rateLimit({ windowMs: 60000, max: 100 }));\n",
)
WITH_DEP = PACKAGE.replace('"^4.18.2"', '"^4.18.2",\n    "express-rate-limit": "^7.1.5"')


def _project(tmp_path: Path, package_now: str) -> Path:
    root = init_repo(
        tmp_path / "api",
        {"package.json": PACKAGE, "src/server.js": SERVER, "README.md": "# api\n"},
        old=True,
    )
    for args in (
        ("memory", "intent", "add rate limiting to the orders API", "--yes"),
        ("memory", "relevant", "src/server.js", "the API", "--yes"),
        ("checkpoint", "create", "-m", "before"),
    ):
        done = vf(root, *args)
        assert done.returncode == 0, done.stderr
    write(root, "src/server.js", LIMITED)
    write(root, "package.json", package_now)
    write(root, "README.md", "# api\n\nretitled by the agent\n")  # real drift
    return root


def _zone(plan: dict[str, object]) -> dict[str, dict[str, object]]:
    entries = plan["intent_zone"]
    assert isinstance(entries, list)
    return {e["path"]: e for e in entries}


def test_a_version_bump_beside_the_dependency_is_shown_and_needs_review(tmp_path: Path) -> None:
    """The explorer's repro: package.json was "in scope" with the bump out of sight.
    Now its reason quotes both sides of the bump, it needs review, the summary counts
    it, and the partial restore still leaves the manifest (and your file) alone."""
    root = _project(tmp_path, WITH_DEP.replace('"1.2.0"', '"1.3.0"'))
    plan = as_json(vf(root, "recover", "--preview", "--json"))
    entry = _zone(plan)["package.json"]
    assert entry["source"] == "reference"
    assert entry["requires_user_review"] is True
    reason = str(entry["reason"])
    assert "add 'express-rate-limit'" in reason
    assert '2 other changed line(s) are not explained by it: `- "version": "1.2.0"`; ' in reason
    assert '`+ "version": "1.3.0"`' in reason
    assert "1 in-scope file(s) also hold changes your work does not explain" in str(plan["summary"])
    assert [d["path"] for d in plan["drift_candidates"]] == ["README.md"]  # type: ignore[union-attr]
    partial = next(o for o in plan["options"] if o["level"] == 3)  # type: ignore[union-attr]
    assert partial["affected_paths"] == ["README.md"]
    text = vf(root, "recover").stdout
    assert "please review (the file is restored whole or not at all)" in text
    assert '`+ "version": "1.3.0"`' in text


def test_the_dependency_alone_needs_no_review(tmp_path: Path) -> None:
    """Without the bump the manifest is in scope as before: no review mark, no count."""
    root = _project(tmp_path, WITH_DEP)
    plan = as_json(vf(root, "recover", "--json"))
    entry = _zone(plan)["package.json"]
    assert "requires_user_review" not in entry
    assert "not explained" not in str(entry["reason"])
    assert "in-scope file(s) also hold" not in str(plan["summary"])
