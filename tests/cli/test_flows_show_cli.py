"""`vibflow flows show --json`: the flow's definition and its drawing as one object, also
for a run's path; a run of another flow is bad input."""

from __future__ import annotations

from vibflow_testing.cli import Cli, as_json


def test_flows_show_json_has_the_definition_and_the_drawing(cli: Cli) -> None:
    """The JSON names the flow and where it comes from, holds its definition (start
    inputs too) and the same text the plain command prints."""
    data = as_json(cli("flows", "show", "crash_slow", "--json"))
    assert set(data) == {
        "flow",
        "version",
        "origin",
        "file",
        "definition",
        "format",
        "rendered",
        "run",
    }
    assert (data["flow"], data["version"], data["format"], data["run"]) == (
        "crash_slow",
        1,
        "text",
        None,
    )
    assert data["definition"]["inputs"] == {"sleep": "float?"}
    assert data["definition"]["states"]["nap"]["step"] == "t.slow"
    assert data["rendered"] == cli("flows", "show", "crash_slow").stdout
    assert (
        "inputs at start (vibflow run crash_slow --input KEY=VALUE): sleep: float?"
        in (data["rendered"])
    )
    mermaid = as_json(cli("flows", "show", "recover", "--format", "mermaid", "--json"))
    assert (mermaid["origin"], mermaid["format"]) == ("builtin", "mermaid")
    assert mermaid["rendered"].startswith(
        cli("flows", "show", "recover", "--format", "mermaid").stdout[:20]
    )


def test_flows_show_json_with_a_run_marks_its_path(cli: Cli) -> None:
    """--run adds the run's status, state and visited states; a run of another flow is
    bad input."""
    run_id = as_json(cli("run", "waits", "--json"))["run_id"]
    data = as_json(cli("flows", "show", "waits", "--run", run_id, "--json"))
    assert data["format"] == "mermaid"
    assert data["run"] == {
        "run_id": run_id,
        "status": "waiting",
        "state": "ask",
        "visited": ["ask"],
    }
    wrong = cli("flows", "show", "recover", "--run", run_id)
    assert wrong.returncode == 2
    assert "is a run of flow 'waits', not 'recover'" in wrong.stderr
