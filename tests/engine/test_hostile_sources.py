"""Hostile flow and policy files (issue 16): alias bombs, deep nesting, huge
documents and special files are refused at ``file:line:col`` with exit 2, in
bounded memory and time; a files-changing state must be switched on by the
one apply flag; a file with several mistakes reports all of them (issue 11).
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from vibflow_testing import FLOWS
from vibflow_testing.cli import Cli, as_json, vf_bounded

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.sourcefile import MAX_SOURCE_BYTES, read_source
from vibflow.engine.yamlsource import MAX_ALIASES, MAX_DEPTH, parse_yaml

MEMORY_LIMIT = 200 * 1024 * 1024


def bomb(levels: int = 9, width: int = 9) -> str:
    """The classic nine-line 'billion laughs', in YAML."""
    names = "abcdefghijklmnop"
    lines = [f"{names[0]}: &{names[0]} [{', '.join(['lol'] * width)}]"]
    for i in range(1, levels):
        ref = ", ".join([f"*{names[i - 1]}"] * width)
        lines.append(f"{names[i]}: &{names[i]} [{ref}]")
    return "\n".join(lines) + "\n"


def bounded(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The CLI as a real process under a 200 MB address-space limit."""
    return vf_bounded(root, *args, max_bytes=MEMORY_LIMIT)


def refused(proc: subprocess.CompletedProcess[str], where: str) -> None:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert where in proc.stderr, proc.stderr


# -- alias bombs, nesting, size --------------------------------------------------------------


def test_alias_bomb_in_the_policy_is_refused_by_recap(repo: Path) -> None:
    """A nine-line alias bomb in the policy: recap exits 2 at the alias, in bounded memory."""
    (repo / ".vibflow" / "policy.yaml").write_text(bomb(), encoding="utf-8")
    proc = bounded(repo, "recap")
    refused(proc, ".vibflow/policy.yaml:")
    assert "alias" in proc.stderr


@pytest.mark.parametrize("command", [("run", "boom"), ("flows", "show", "boom"), ("runs", "list")])
def test_alias_bomb_in_a_flow_is_refused(repo: Path, command: tuple[str, ...]) -> None:
    """The bomb in a project flow: run/show refuse it located; other commands are unaffected."""
    (repo / ".vibflow" / "flows" / "boom.yaml").write_text(
        "flow: boom\n" + bomb(), encoding="utf-8"
    )
    proc = bounded(repo, *command)
    if command == ("runs", "list"):
        assert proc.returncode == 0, proc.stderr
        return
    refused(proc, ".vibflow/flows/boom.yaml:")


def test_alias_bomb_validate_is_refused(repo: Path) -> None:
    """`flows validate` on a bomb lists the problem at its line instead of hanging."""
    path = repo / "boom.yaml"
    path.write_text("flow: boom\n" + bomb(), encoding="utf-8")
    proc = bounded(repo, "flows", "validate", str(path), "--json")
    assert proc.returncode == 2, proc.stderr
    problems = as_json(proc)["problems"]
    assert len(problems) == 1
    assert problems[0]["location"].startswith(f"{path}:")
    assert "alias" in problems[0]["message"]


def test_alias_bomb_is_located_at_the_alias() -> None:
    """The limit is reported at the alias that crosses it, not at line 1."""
    with pytest.raises(VibflowError) as info:
        parse_yaml(bomb(), "p.yaml")
    assert info.value.location is not None
    assert info.value.location.line > 1
    assert str(MAX_ALIASES) in info.value.message


def test_a_few_aliases_are_fine() -> None:
    """Ordinary anchors (a shared guard list) still work."""
    doc = parse_yaml("g: &g [a, b]\nx: *g\ny: *g\n", "ok.yaml")
    assert doc.data == {"g": ["a", "b"], "x": ["a", "b"], "y": ["a", "b"]}


def test_scalar_alias_expansion_is_bounded() -> None:
    """A long string repeated by many aliases is refused before it is copied out."""
    big = "x" * (MAX_SOURCE_BYTES // 2)
    refs = ", ".join(["*s"] * 50)
    with pytest.raises(VibflowError) as info:
        parse_yaml(f"s: &s {big}\nl: [{refs}]\n", "p.yaml")
    assert "characters" in info.value.message


def test_deep_nesting_is_refused_located() -> None:
    """Nesting beyond the limit is bad input with a location, never a RecursionError."""
    deep = "a:\n" + "".join("  " * i + "- \n" for i in range(1, 3)) + "[" * 5000 + "]" * 5000
    for text in ("[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5), deep, "{a: " * 3000 + "}" * 3000):
        with pytest.raises(VibflowError) as info:
            parse_yaml(text, "deep.yaml")
        assert info.value.code.outcome == 2
        assert info.value.location is not None


def test_deep_brackets_are_refused_where_they_cross_the_limit() -> None:
    """The bracket that nests one level too deep is the location; brackets in quotes and
    comments nest nothing, so a file full of them still parses."""
    with pytest.raises(VibflowError) as info:
        parse_yaml("x: 1\nflow: " + "[" * 5000 + "]" * 5000 + "\n", "deep.yaml")
    loc = info.value.location
    assert loc is not None
    assert (loc.line, loc.col) == (2, 7 + MAX_DEPTH)
    quoted = "a: '" + "[" * 100 + "'\nb: \"" + "{" * 100 + '"  # ' + "[" * 100 + "\nc: [1]\n"
    assert parse_yaml(quoted, "ok.yaml").data["c"] == [1]


def test_oversized_document_is_refused() -> None:
    """A document over the size cap is refused before it is parsed."""
    with pytest.raises(VibflowError) as info:
        parse_yaml("a: " + "x" * MAX_SOURCE_BYTES + "\n", "big.yaml")
    assert "larger than" in info.value.message


# -- special files -----------------------------------------------------------------------------


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _dev_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _folder(path: Path) -> None:
    path.mkdir()


def _huge(path: Path) -> None:
    path.write_bytes(b"a: b\n" * (MAX_SOURCE_BYTES // 4))


SPECIAL: dict[str, Callable[[Path], None]] = {
    "fifo": _fifo,
    "dev_zero": _dev_zero,
    "folder": _folder,
    "huge": _huge,
}


@pytest.mark.parametrize("kind", sorted(SPECIAL))
def test_special_policy_file_is_refused(repo: Path, kind: str) -> None:
    """A policy path that is a FIFO, /dev/zero, a folder or huge: exit 2, no hang."""
    SPECIAL[kind](repo / ".vibflow" / "policy.yaml")
    refused(bounded(repo, "runs", "list"), ".vibflow/policy.yaml")


@pytest.mark.parametrize("kind", sorted(SPECIAL))
def test_special_flow_file_is_refused(repo: Path, kind: str) -> None:
    """A project flow that is a FIFO, /dev/zero, a folder or huge: run and validate exit 2."""
    path = repo / ".vibflow" / "flows" / "odd.yaml"
    SPECIAL[kind](path)
    if kind != "folder":  # a folder is not a flow at all (no flow named 'odd')
        refused(bounded(repo, "run", "odd"), ".vibflow/flows/odd.yaml")
    refused(bounded(repo, "flows", "validate", str(path)), "odd.yaml")


def test_read_source_refuses_a_fifo_without_blocking(tmp_path: Path) -> None:
    """read_source on a FIFO with no writer returns at once with a clear error."""
    fifo = tmp_path / "p.yaml"
    os.mkfifo(fifo)
    with pytest.raises(VibflowError) as info:
        read_source(fifo, "p.yaml", code=ErrorCode.POLICY_INVALID)
    assert "named pipe" in info.value.message


# -- the one apply flag (spec §12) -------------------------------------------------------------


MUTATING = (FLOWS / "valid" / "mutating.yaml").read_text("utf-8")


@pytest.mark.parametrize("flag", ["HOME", "PATH", "TEST_APPLYX"])
def test_files_changing_state_needs_the_apply_flag(cli: Cli, repo: Path, flag: str) -> None:
    """A project flow whose apply is switched by another variable fails to load, at the guard."""
    text = MUTATING.replace("flow: mutating", "flow: sneaky").replace(
        "{feature_flag: TEST_APPLY}", "{feature_flag: " + flag + "}"
    )
    (repo / ".vibflow" / "flows" / "sneaky.yaml").write_text(text, encoding="utf-8")
    proc = cli("run", "sneaky", env={f"VIBFLOW_{flag}": "1"})
    assert proc.returncode == 2, proc.stderr
    assert ".vibflow/flows/sneaky.yaml:14:29:" in proc.stderr  # the guard itself
    # (the test kit's registry declares TEST_APPLY beside the product's RECOVERY_APPLY)
    assert "so its feature flag must be RECOVERY_APPLY or TEST_APPLY" in proc.stderr
    assert f"not '{flag}'" in proc.stderr
    assert not (repo / ".vibflow" / "effects.log").exists()


def test_shipped_recover_flow_with_another_flag_is_refused(cli: Cli, repo: Path) -> None:
    """The shipped recover flow copied with `feature_flag: HOME` names RECOVERY_APPLY as the fix."""
    from importlib.resources import files

    text = (files("vibflow.flows") / "recover.yaml").read_text("utf-8")
    assert "{feature_flag: RECOVERY_APPLY}" in text
    path = repo / ".vibflow" / "flows" / "recover.yaml"
    path.write_text(text.replace("RECOVERY_APPLY", "HOME"), encoding="utf-8")
    proc = cli("flows", "validate", str(path))
    assert proc.returncode == 2
    assert "feature flag must be RECOVERY_APPLY" in proc.stdout + proc.stderr


# -- the whole policy, every mistake at once ---------------------------------------------------


SEVERAL = """\
engine:
  journal: [FULL]
  context_max_bytes: lots
recovery:
  lease_seconds: 1
  checkpoints: {keep_last: many}
memory:
  caps: 3
enigne: {}
"""


def test_policy_with_several_mistakes_reports_all(cli: Cli, repo: Path) -> None:
    """Every mistake is listed with file:line:col, in YAML's words, sorted by line."""
    (repo / ".vibflow" / "policy.yaml").write_text(SEVERAL, encoding="utf-8")
    proc = cli("runs", "list", "--json")
    assert proc.returncode == 2, proc.stderr
    err = as_json(proc)["error"]
    found = [(p["location"], p["message"]) for p in err["problems"]]
    where = [loc for loc, _ in found]
    assert where == [
        ".vibflow/policy.yaml:2:3",
        ".vibflow/policy.yaml:3:3",
        ".vibflow/policy.yaml:5:3",
        ".vibflow/policy.yaml:6:17",
        ".vibflow/policy.yaml:8:3",
        ".vibflow/policy.yaml:9:1",
    ], found
    text = " ".join(message for _, message in found)
    assert "expected a mapping (key: value lines), found a list" in text
    assert "expected a whole number, found text" in text
    assert "did you mean 'engine'" in text
    for jargon in ("valid tuple", "valid dict", "valid integer", "Input should"):
        assert jargon not in text
    assert proc.stderr.startswith("vibflow: 6 problems in .vibflow/policy.yaml")
    for loc, message in found:
        assert f"  {loc}: {message}" in proc.stderr


@pytest.mark.parametrize("section", ["recovery", "memory", "paths"])
def test_invalid_section_refuses_run_recover_before_a_run_exists(
    cli: Cli, repo: Path, section: str
) -> None:
    """An invalid recovery:/memory:/paths: section is exit 2 before `run recover` starts a run."""
    bad = {
        "recovery": "recovery:\n  lease_seconds: 1\n",
        "memory": "memory:\n  caps: {events: -1}\n",
        "paths": "paths:\n  generated: /abs\n",
    }[section]
    (repo / ".vibflow" / "policy.yaml").write_text(bad, encoding="utf-8")
    proc = cli("run", "recover")
    assert proc.returncode == 2, proc.stderr
    assert ".vibflow/policy.yaml:2:" in proc.stderr
    db = repo / ".vibflow" / "runs.db"
    if db.exists():
        with sqlite3.connect(db) as con:
            assert con.execute("SELECT count(*) FROM runs").fetchone()[0] == 0


def test_every_shipped_section_is_validated() -> None:
    """The wiring checks a model for every section the shipped policies define."""
    from importlib.resources import files

    from vibflow.engine.policy import PolicySet
    from vibflow.registry_wiring import policy_sections

    shipped = set(PolicySet(files("vibflow.policies"), None).raw())
    assert set(policy_sections()) == shipped


def test_shipped_defaults_are_valid_for_every_section() -> None:
    """Without a project policy nothing is validated up front: safe because this holds."""
    from importlib.resources import files

    from vibflow.engine.policy import PolicySet
    from vibflow.registry_wiring import policy_sections

    shipped = PolicySet(files("vibflow.policies"), None)
    for name, model in policy_sections().items():
        assert isinstance(shipped.section(name, model), model)


def test_flow_with_several_schema_mistakes_reports_all(cli: Cli, repo: Path) -> None:
    """`flows validate` lists each schema mistake of a flow, not only the first."""
    path = repo / "bad.yaml"
    path.write_text(
        "flow: bad\nversion: one\ninitial: a\nstates:\n  a: {step: t.noop, on: [done]}\n"
        "  b: {final: true, colour: red}\n",
        encoding="utf-8",
    )
    proc = cli("flows", "validate", str(path), "--json")
    assert proc.returncode == 2
    problems = as_json(proc)["problems"]
    assert len(problems) == 3, problems
    assert [p["location"].rsplit(":", 2)[1] for p in problems] == ["2", "5", "6"]
    assert "expected a whole number, found text" in problems[0]["message"]


@pytest.mark.parametrize(
    "command",
    [("runs", "list"), ("recap",), ("audit", "verify"), ("run", "linear"), ("memory", "show")],
)
def test_every_command_reports_the_same_policy_problems(
    cli: Cli, repo: Path, command: tuple[str, ...]
) -> None:
    """Read-only or not, every command that uses the policy lists all its mistakes alike."""
    (repo / ".vibflow" / "policy.yaml").write_text(SEVERAL, encoding="utf-8")
    proc = cli(*command)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stderr.startswith("vibflow: 6 problems in .vibflow/policy.yaml"), proc.stderr
    assert ".vibflow/policy.yaml:9:1: unknown policy section 'enigne'" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_flows_list_still_works_with_a_broken_policy(cli: Cli, repo: Path) -> None:
    """Listing flows needs no policy: a broken policy does not stop it."""
    (repo / ".vibflow" / "policy.yaml").write_text(bomb(), encoding="utf-8")
    proc = cli("flows", "list")
    assert proc.returncode == 0, proc.stderr
    assert "recover" in proc.stdout
