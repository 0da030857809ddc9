"""Run inputs are sanitized before a run stores them (issue 16): the engine
offers a seam (``Runner(sanitize_inputs=...)``) and knows nothing of secrets;
the wiring fills it with the redaction contract, so a token pasted into
``--input`` never reaches ``runs.db``."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from vibflow_testing import FLOWS
from vibflow_testing.cli import Cli, as_json

from vibflow.engine.loader import load_flow
from vibflow.engine.registry import Registry
from vibflow.engine.runner import Runner
from vibflow.engine.testing import MemoryAudit, MemoryJournal

# Shaped like real credentials, made up for the test.
GITHUB_TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
STRIPE_KEY = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"


def test_runner_stores_what_its_sanitizer_returns(tmp_path: Path, registry: Registry) -> None:
    """Both a start's and a wait's inputs go through the seam before they are stored."""
    seen: list[dict[str, Any]] = []

    def sanitize(inputs: Mapping[str, Any]) -> dict[str, Any]:
        seen.append(dict(inputs))
        return {k: "[MASKED]" if isinstance(v, str) else v for k, v in inputs.items()}

    journal = MemoryJournal()
    runner = Runner(
        registry=registry,
        journal=journal,
        audit=MemoryAudit(),
        project_root=tmp_path,
        env={},
        sanitize_inputs=sanitize,
    )
    path = FLOWS / "valid" / "waits.yaml"
    loaded = load_flow(path.read_text("utf-8"), path.name, registry)
    run = runner.start(loaded, {"note": "secret-1"})
    assert run.context["inputs"] == {"note": "[MASKED]"}
    run = runner.send(run.run_id, "stop", {"next": "secret-2", "count": "3"})
    assert run.context["inputs"] == {"note": "[MASKED]", "next": "[MASKED]", "count": 3}
    assert seen == [{"note": "secret-1"}, {"next": "secret-2", "count": 3}]


def _stored_bytes(repo: Path) -> bytes:
    state = repo / ".vibflow"
    return b"".join(p.read_bytes() for p in sorted(state.glob("runs.db*")) if p.is_file())


def test_pasted_token_never_reaches_the_journal(cli: Cli, repo: Path) -> None:
    """A token given as a wait's input is masked in the stored run, and nowhere in runs.db."""
    run = as_json(cli("run", "waits", "--json"))
    proc = cli(
        "step", run["run_id"], "stop", "--input", f"next=use {GITHUB_TOKEN} and {STRIPE_KEY}"
    )
    assert "was aborted at 'stopped'" in proc.stdout, proc.stderr  # the flow's 'stop' branch
    shown = as_json(cli("runs", "show", run["run_id"], "--json"))
    assert shown["status"] == "aborted"
    raw = _stored_bytes(repo)
    assert GITHUB_TOKEN.encode() not in raw
    assert STRIPE_KEY.encode() not in raw
    assert b"[REDACTED:github_token]" in raw


def test_path_inputs_inside_the_project_stay_usable(cli: Cli, repo: Path) -> None:
    """Redaction keeps ordinary inputs as they are and makes an in-project absolute path
    relative, so what the guards check is what the steps later use."""
    run = as_json(cli("run", "waits", "--json"))
    proc = cli("step", run["run_id"], "stop", "--input", f"next={repo / 'src' / 'a.py'}")
    assert "was aborted at 'stopped'" in proc.stdout, proc.stderr
    raw = _stored_bytes(repo)
    assert str(repo).encode() not in raw
    assert b"src/a.py" in raw
