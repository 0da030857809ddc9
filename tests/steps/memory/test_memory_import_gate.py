"""`memory import` passes the write gate like every other write: paths that break the path
contract (traversal, NUL, .git, a right-to-left override) are left out and reported by
rule, never stored or shown in the intent zone; secrets anywhere in the legacy file —
texts, observed events, unknown fields and their keys — are redacted before storage."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from vibflow_testing.cli import Cli, as_json

from vibflow.wiring import Project

STRIPE = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"  # Stripe's documented test-shaped key
PASSWORD = "correct-horse-battery-staple-42"  # noqa: S105 - a fake the test must not find
BAD_PATHS = ["../../etc/passwd", "src/a\x00b.py", ".git/config", "src/\u202egnp.exe"]


def _legacy(tmp_path: Path) -> Path:
    src = tmp_path / "work_memory.json"
    src.write_text(
        json.dumps(
            {
                "decisions": [{"text": f"Rotate the key {STRIPE} next week"}],
                "relevant_files": [
                    *({"path": p, "why": "imported", "source": "user"} for p in BAD_PATHS),
                    {"path": "README.md", "why": "the docs", "source": "user"},
                ],
                "verification": [
                    {"command": "pytest", "result": "pass", "files": ["../outside.py", "README.md"]}
                ],
                "recent_events": [{"type": "note", "summary": f"pasted {STRIPE}"}],
                "legacy_settings": {
                    "db": {"password": PASSWORD, "host": "localhost"},
                    STRIPE: "a key used as a key",
                    "tokens": [f"token={STRIPE}"],
                },
            }
        ),
        encoding="utf-8",
    )
    return src


def test_import_leaves_out_bad_paths_and_redacts_every_secret(cli: Cli, tmp_path: Path) -> None:
    """The four hostile paths are not stored (reported by rule, exit 0), README.md is; the
    Stripe key and the password appear nowhere in `memory show --json` or memory.json."""
    proc = cli("memory", "import", str(_legacy(tmp_path)), "--yes")
    assert proc.returncode == 0, proc.stderr
    assert "left out 5 path(s)" in proc.stderr
    for rule in ("traversal", "nul_byte", "vcs_dir", "control_char"):
        assert rule in proc.stderr
    assert "etc/passwd" not in proc.stderr
    shown = cli("memory", "show", "--json")
    data = as_json(shown)
    assert [f["path"] for f in data["relevant_files"]] == ["README.md"]
    [check] = data["verification"]
    assert check["related_files"] == ["README.md"]
    blob = shown.stdout
    raw_file = (tmp_path / "project" / ".vibflow" / "memory.json").read_text(encoding="utf-8")
    for text in (blob, raw_file):
        assert STRIPE not in text
        assert PASSWORD not in text
        assert "etc/passwd" not in text
        assert ".git/config" not in text
        assert "\u202e" not in text
        assert "\\u202e" not in text
    assert data["unknown_fields"]["legacy_settings"]["db"]["host"] == "localhost"
    assert "REDACTED" in data["unknown_fields"]["legacy_settings"]["db"]["password"]


def test_imported_bad_paths_never_reach_the_intent_zone(cli: Cli, tmp_path: Path) -> None:
    """`recover --explain --json` after the import names none of the hostile paths."""
    assert cli("memory", "import", str(_legacy(tmp_path)), "--yes").returncode == 0
    explained = cli("recover", "--explain", "--json")
    assert explained.returncode == 0, explained.stderr
    for bad in ("etc/passwd", ".git/config", "\\u202e", "\u202e", "\\u0000"):
        assert bad not in explained.stdout


def test_a_second_import_of_a_secret_decision_adds_no_duplicate(cli: Cli, tmp_path: Path) -> None:
    """Imported texts are compared after redaction, so importing twice keeps one decision."""
    src = _legacy(tmp_path)
    assert cli("memory", "import", str(src), "--yes").returncode == 0
    assert cli("memory", "import", str(src), "--yes").returncode == 0
    data = as_json(cli("memory", "show", "--json"))
    assert len(data["decisions"]) == 1


@pytest.mark.parametrize("bad", [p for p in BAD_PATHS if "\x00" not in p])  # argv has no NUL
def test_a_direct_relevant_write_of_a_bad_path_is_refused(cli: Cli, bad: str) -> None:
    """The single-entry write refuses the same paths with exit 2 (the import only drops)."""
    proc = cli("memory", "relevant", bad, "why", "--yes")
    assert proc.returncode == 2, proc.stderr
    assert "path rejected" in proc.stderr


def test_observed_lists_are_redacted_like_observed_texts(project: Project) -> None:
    """An observed event's list values (touched files from a hook) pass the same redaction
    as its text values; a commit sha is kept as it is."""
    sha = "0123456789abcdef0123456789abcdef01234567"
    project.memory.observe(
        "touched_files", {"files": ["src/a.py", f"notes/{STRIPE}.txt"], "sha": sha}
    )
    [event] = project.memory.read().state.observed_context
    assert event.detail["sha"] == sha
    files = event.detail["files"]
    assert isinstance(files, list)
    assert files[0] == "src/a.py"
    assert STRIPE not in files[1]
