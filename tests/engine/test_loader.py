"""The loader's contract with users and editors, through the real CLI.

The exported JSON Schema describes the YAML dialect (shorthands included); every
broken fixture is reported as ``file:line:col`` with exit 2 and never a
traceback; ``flows show`` draws every state; ``flows list`` names project flows.
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from vibflow_testing import FLOWS
from vibflow_testing.cli import Cli, as_json, clean_env, cli_runner, harness_cmd
from vibflow_testing.flows import register
from vibflow_testing.repo import make_repo

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.loader import load_flow
from vibflow.engine.registry import Registry
from vibflow.engine.yamlsource import parse_yaml
from vibflow.registry_wiring import build_registry

INVALID = sorted((FLOWS / "invalid").glob("*.yaml"))
VALID = sorted((FLOWS / "valid").glob("*.yaml"))
EXPECT = re.compile(r"^# expect: [A-Z_]+ @ (?P<line>\d+):(?P<col>\d+) ")


@pytest.fixture(scope="module")
def reg() -> Registry:
    return build_registry(register)


@pytest.fixture(scope="module")
def schema(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """`flows schema` from the real CLI in a fresh project, once per module (read-only)."""
    proc = cli_runner(make_repo(tmp_path_factory.mktemp("schema") / "project"))("flows", "schema")
    assert proc.returncode == 0, proc.stderr
    return as_json(proc)


def _yaml(path: Path) -> Any:
    return parse_yaml(path.read_text("utf-8"), path.name).data


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if ref is None:
        return node
    assert isinstance(ref, str)
    assert ref.startswith("#/$defs/")
    resolved = schema["$defs"][ref.removeprefix("#/$defs/")]
    assert isinstance(resolved, dict)
    return resolved


def _branches(node: dict[str, Any]) -> list[dict[str, Any]]:
    return list(node.get("anyOf", [node]))


# -- the JSON Schema ---------------------------------------------------------------


@pytest.mark.cli
def test_schema_is_json_with_dialect_header(schema: dict[str, Any]) -> None:
    """`flows schema` prints one JSON object declaring its draft, title and required keys."""
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["title"] == "vibflow flow definition"
    assert schema["type"] == "object"
    assert set(schema["required"]) == {"flow", "version", "initial", "states"}
    assert schema["additionalProperties"] is False
    assert {"StateSpec", "TransitionSpec", "GuardRef"} <= set(schema["$defs"])


@pytest.mark.cli
def test_schema_every_ref_resolves(schema: dict[str, Any]) -> None:
    """Every `$ref` in the schema names a definition that exists."""
    refs = re.findall(r'"\$ref": "([^"]+)"', json.dumps(schema))
    assert refs
    for ref in refs:
        assert ref.removeprefix("#/$defs/") in schema["$defs"], ref


@pytest.mark.cli
def test_schema_accepts_the_shorthand_forms(schema: dict[str, Any]) -> None:
    """Transitions may be a bare target name and guards a bare name or a one-key mapping."""
    transition = _branches(schema["$defs"]["TransitionSpec"])
    assert any(b.get("type") == "string" and "pattern" in b for b in transition)
    assert any(b.get("type") == "object" and b.get("required") == ["target"] for b in transition)
    guard = _branches(schema["$defs"]["GuardRef"])
    assert any(b.get("type") == "string" and "pattern" in b for b in guard)
    assert any(
        b.get("type") == "object" and b.get("minProperties") == 1 and b.get("maxProperties") == 1
        for b in guard
    )


@pytest.mark.cli
@pytest.mark.parametrize("path", VALID, ids=[p.stem for p in VALID])
def test_schema_structure_covers_valid_fixtures(path: Path, schema: dict[str, Any]) -> None:
    """Each key and shorthand a valid fixture uses has a matching branch in the schema."""
    data = _yaml(path)
    assert set(data) <= set(schema["properties"])
    [state_ref] = schema["properties"]["states"]["patternProperties"].values()
    state_schema = _resolve(schema, state_ref)
    transition = _branches(schema["$defs"]["TransitionSpec"])
    name_pattern = next(b["pattern"] for b in transition if b.get("type") == "string")
    guard = _branches(schema["$defs"]["GuardRef"])
    for name, state in data["states"].items():
        assert re.match(name_pattern, name)
        assert set(state) <= set(state_schema["properties"]), name
        for event, spec in state.get("on", {}).items():
            assert re.match(name_pattern, event)
            if isinstance(spec, str):
                assert re.match(name_pattern, spec)
                continue
            obj = next(b for b in transition if b.get("type") == "object")
            assert set(spec) <= set(obj["properties"])
            for ref in spec.get("guards", []):
                if isinstance(ref, str):
                    assert any(b.get("type") == "string" for b in guard)
                    assert re.match(name_pattern, ref)
                else:
                    assert isinstance(ref, dict)
                    assert len(ref) == 1


@pytest.mark.cli
@pytest.mark.skipif(
    importlib.util.find_spec("jsonschema") is None, reason="jsonschema is not installed"
)
@pytest.mark.parametrize("path", VALID, ids=[p.stem for p in VALID])
def test_schema_validates_valid_fixtures(path: Path, schema: dict[str, Any]) -> None:
    """With `jsonschema` available, every valid fixture validates against the schema."""
    import jsonschema  # type: ignore[import-untyped]

    jsonschema.Draft202012Validator(schema).validate(_yaml(path))


@pytest.mark.cli
def test_schema_rejects_names_the_loader_rejects(schema: dict[str, Any]) -> None:
    """Maps keyed by names (states, on, inputs) forbid keys outside the name pattern."""
    state = schema["$defs"]["StateSpec"]
    for node in (schema["properties"]["states"], state["properties"]["on"]):
        assert node.get("additionalProperties") is False
    assert state["properties"]["inputs"].get("additionalProperties") is False


# -- errors through the CLI --------------------------------------------------------


@pytest.fixture(scope="module")
def outside(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    """The harness CLI run from a folder that is not a project (validate needs none)."""
    where = tmp_path_factory.mktemp("outside")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            harness_cmd(*args),
            cwd=where,
            env=clean_env(),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    return run


@pytest.mark.cli
@pytest.mark.parametrize("path", INVALID, ids=[p.stem for p in INVALID])
def test_invalid_fixture_cli_is_located_and_clean(path: Path, outside: Cli) -> None:
    """`flows validate` on a broken file exits 2 with file:line:col lines, never a traceback."""
    proc = outside("flows", "validate", str(path))
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    lines = proc.stderr.splitlines()
    assert lines
    for line in lines:
        assert re.match(rf"{re.escape(str(path))}:\d+:\d+: \S", line), line
    text = path.read_text("utf-8")
    match = EXPECT.match(text)
    assert match
    if "\n# known-bug:" not in text:
        assert lines[0].startswith(f"{path}:{match['line']}:{match['col']}: "), lines[0]

    proc = outside("flows", "validate", str(path), "--json")
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    data = as_json(proc)
    assert data["ok"] is False
    assert [f"{p['location']}: {p['message']}" for p in data["problems"]] == lines


def test_running_a_broken_project_flow_prints_no_traceback(cli: Cli, repo: Path) -> None:
    """`vibflow run` on a broken project flow exits 2 with a one-line located error."""
    for path in INVALID:
        if path.stem.startswith(("yaml_", "duplicate")):
            target = repo / ".vibflow" / "flows" / path.name
            target.write_text(path.read_text("utf-8"), encoding="utf-8")
            proc = cli("run", path.stem)
            assert proc.returncode == 2, (path.name, proc.stderr)
            assert "Traceback" not in proc.stderr
            assert proc.stderr.startswith(f"vibflow: .vibflow/flows/{path.name}:")


def test_unreadable_and_non_utf8_files_are_bad_input(cli: Cli, tmp_path: Path) -> None:
    """A missing or non-UTF-8 flow file exits 2 with a message, not a traceback."""
    proc = cli("flows", "validate", str(tmp_path / "missing.yaml"))
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    latin = tmp_path / "latin.yaml"
    latin.write_bytes("flow: caf\xe9\n".encode("latin-1"))
    proc = cli("flows", "validate", str(latin))
    assert proc.returncode == 2
    assert "not UTF-8" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_several_problems_are_reported_at_once(reg: Registry) -> None:
    """`load_flow` raises one error that lists every problem, each located (issue 11)."""
    text = (FLOWS / "invalid" / "dead_end_cycle.yaml").read_text("utf-8")
    with pytest.raises(VibflowError) as info:
        load_flow(text, "dead_end_cycle.yaml", reg)
    assert len(info.value.problems) == 2
    assert info.value.location == info.value.problems[0][0]
    rendered = info.value.render()
    assert rendered.startswith("2 problems in dead_end_cycle.yaml")
    for loc, message in info.value.problems:
        assert f"  {loc}: {message}" in rendered


def test_file_name_must_match_flow_name(reg: Registry) -> None:
    """A file named after another flow is refused, pointing at the `flow` key."""
    text = (FLOWS / "valid" / "linear.yaml").read_text("utf-8")
    with pytest.raises(VibflowError) as info:
        load_flow(text, "other.yaml", reg, expected_name="other")
    assert info.value.code is ErrorCode.FLOW_INVALID
    assert info.value.location is not None
    assert (info.value.location.line, info.value.location.col) == (1, 1)
    assert "'other.yaml'" in info.value.message


def test_control_character_is_reported_plainly_where_it_is(reg: Registry) -> None:
    """A control character in a flow file is named in words at its real line and column."""
    text = "flow: fine\nversion: 1\ninitial: a\x07b\n"
    with pytest.raises(VibflowError) as info:
        load_flow(text, "bell.yaml", reg)
    assert info.value.location is not None
    assert info.value.location.line == 3
    assert "ReaderError" not in info.value.message


def test_bad_names_are_explained_in_words(reg: Registry) -> None:
    """A state name that breaks the naming rule is explained without a regular expression."""
    path = FLOWS / "invalid" / "bad_state_name.yaml"
    with pytest.raises(VibflowError) as info:
        load_flow(path.read_text("utf-8"), path.name, reg)
    assert "pattern" not in info.value.message
    assert "^[" not in info.value.message


# -- show and list -----------------------------------------------------------------


@pytest.mark.parametrize("path", VALID, ids=[p.stem for p in VALID])
def test_mermaid_draws_every_state(path: Path, cli: Cli) -> None:
    """`flows show NAME --format mermaid` is a stateDiagram-v2 naming every state."""
    proc = cli("flows", "show", path.stem, "--format", "mermaid")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("stateDiagram-v2\n")
    data = _yaml(path)
    declared = {line.strip().split(":")[0] for line in proc.stdout.splitlines()[2:]}
    assert set(data["states"]) <= declared
    assert f"[*] --> {data['initial']}" in proc.stdout
    for name, state in data["states"].items():
        if state.get("final"):
            assert f"{name} --> [*]" in proc.stdout


def test_show_text_and_unknown_format(cli: Cli) -> None:
    """`flows show` prints text by default and refuses an unknown format with exit 2."""
    proc = cli("flows", "show", "linear")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("flow linear (version 1)")
    proc = cli("flows", "show", "linear", "--format", "dot")
    assert proc.returncode == 2
    assert "unknown format 'dot'" in proc.stderr


def test_show_unknown_flow_suggests_nearest(cli: Cli) -> None:
    """`flows show` of a misspelled flow exits 2 and suggests the nearest name."""
    proc = cli("flows", "show", "linaer")
    assert proc.returncode == 2
    assert "did you mean 'linear'" in proc.stderr


def test_flows_list_json_names_project_flows(cli: Cli) -> None:
    """`flows list --json` lists each project flow with origin "project" and its file."""
    proc = cli("flows", "list", "--json")
    assert proc.returncode == 0, proc.stderr
    flows = {f["name"]: f for f in as_json(proc)["flows"]}
    assert set(flows) >= {p.stem for p in VALID}
    for path in VALID:
        entry = flows[path.stem]
        assert entry["origin"] == "project"
        assert entry["file"] == f".vibflow/flows/{path.name}"
        assert entry["overrides_builtin"] is False


def test_flows_list_outside_a_project(cli: Cli, tmp_path: Path) -> None:
    """Outside a git project `flows list` still works and shows no project flows."""
    outside = tmp_path / "outside"
    outside.mkdir()
    proc = cli("flows", "list", "--json", cwd=outside)
    assert proc.returncode == 0, proc.stderr
    assert all(f["origin"] != "project" for f in as_json(proc)["flows"])
