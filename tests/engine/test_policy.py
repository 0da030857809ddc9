"""Policy: shipped defaults, the project's `.vibflow/policy.yaml` override, located
errors for bad edits, and the digest that records which policy a run used.

Broken overrides live in ``tests/flows/policies/*.yaml``, each starting with
``# expect: CODE @ LINE:COL substring`` (and optionally ``# known-bug: why``).
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import pytest
from vibflow_testing import FLOWS
from vibflow_testing.cli import Cli

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.policy import USER_POLICY_DISPLAY, EnginePolicy, PolicySet
from vibflow.engine.yamlsource import parse_yaml
from vibflow.wiring import Project

EXPECT = re.compile(r"^# expect: (?P<code>[A-Z_]+) @ (?P<line>\d+):(?P<col>\d+) (?P<text>.+)$")
KNOWN_BUG = re.compile(r"^# known-bug: (?P<why>.+)$")
BROKEN = sorted((FLOWS / "policies").glob("*.yaml"))
NORMAL = "engine:\n  journal:\n    synchronous: NORMAL\n"


def defaults() -> PolicySet:
    return PolicySet(files("vibflow.policies"), None)


def with_user(tmp_path: Path, text: str) -> PolicySet:
    path = tmp_path / "policy.yaml"
    path.write_text(text, encoding="utf-8")
    return PolicySet(files("vibflow.policies"), path)


def _cases() -> list[object]:
    out: list[object] = []
    for path in BROKEN:
        lines = path.read_text("utf-8").splitlines()
        bug = KNOWN_BUG.match(lines[1]) if len(lines) > 1 else None
        marks = [pytest.mark.xfail(strict=True, reason=bug["why"])] if bug else []
        out.append(pytest.param(path, id=path.stem, marks=marks))
    return out


def test_shipped_defaults_load() -> None:
    """The shipped policy files parse and the engine section has its documented defaults."""
    policy = defaults().section("engine", EnginePolicy)
    assert policy.journal.synchronous == "FULL"
    assert policy.context_max_bytes == 65536
    assert (files("vibflow.policies") / "engine.yaml").is_file()


def test_missing_user_file_means_defaults(tmp_path: Path) -> None:
    """A project without `.vibflow/policy.yaml` gets exactly the shipped defaults."""
    absent = PolicySet(files("vibflow.policies"), tmp_path / "nope.yaml")
    assert absent.raw() == defaults().raw()
    assert absent.digest() == defaults().digest()


def test_user_override_takes_effect(tmp_path: Path) -> None:
    """`synchronous: NORMAL` in the user file overrides FULL and keeps the other defaults."""
    policy = with_user(tmp_path, NORMAL).section("engine", EnginePolicy)
    assert policy.journal.synchronous == "NORMAL"
    assert policy.context_max_bytes == 65536


def test_empty_user_file_changes_nothing(tmp_path: Path) -> None:
    """An empty or comment-only policy file is the same as none."""
    policy = with_user(tmp_path, "# nothing yet\n")
    assert policy.raw() == defaults().raw()


def test_override_reaches_the_sqlite_journal(project: Project, repo: Path) -> None:
    """The project's override sets PRAGMA synchronous on the real journal connection."""
    (repo / ".vibflow" / "policy.yaml").write_text(NORMAL, encoding="utf-8")
    assert project.engine_policy.journal.synchronous == "NORMAL"
    journal = project.journal
    try:
        # PRAGMA synchronous is per connection: read it on the journal's own one.
        level = journal._db.execute("PRAGMA synchronous").fetchone()[0]
    finally:
        journal.close()
    assert level == 1  # NORMAL


def test_default_journal_is_synchronous_full(project: Project) -> None:
    """Without an override the journal connection runs with PRAGMA synchronous=FULL."""
    journal = project.journal
    try:
        level = journal._db.execute("PRAGMA synchronous").fetchone()[0]
    finally:
        journal.close()
    assert level == 2  # FULL


@pytest.mark.parametrize("path", _cases())
def test_broken_override_is_located(path: Path, tmp_path: Path) -> None:
    """A broken user policy raises POLICY_INVALID at `.vibflow/policy.yaml:LINE:COL`."""
    match = EXPECT.match(path.read_text("utf-8").splitlines()[0])
    assert match, f"{path.name}: first line must be '# expect: CODE @ LINE:COL text'"
    with pytest.raises(VibflowError) as info:
        with_user(tmp_path, path.read_text("utf-8")).section("engine", EnginePolicy)
    exc = info.value
    assert exc.code is ErrorCode[match["code"]]
    assert exc.code is ErrorCode.POLICY_INVALID
    assert exc.location is not None, exc.render()
    assert exc.location.file == USER_POLICY_DISPLAY
    assert (exc.location.line, exc.location.col) == (int(match["line"]), int(match["col"]))
    assert match["text"] in exc.message, exc.render()


def test_invalid_synchronous_points_at_its_key(tmp_path: Path) -> None:
    """`synchronous: FAST` is reported at the `synchronous` key with the allowed values."""
    text = "# tuned by hand\nengine:\n  journal:\n    synchronous: FAST\n"
    with pytest.raises(VibflowError) as info:
        with_user(tmp_path, text).section("engine", EnginePolicy)
    assert str(info.value.location) == ".vibflow/policy.yaml:4:5"
    assert info.value.render().startswith(".vibflow/policy.yaml:4:5: ")
    assert "'FULL' or 'NORMAL'" in info.value.message


def test_unknown_key_suggests_the_nearest(tmp_path: Path) -> None:
    """A misspelled key inside a section gets a did-you-mean."""
    text = "engine:\n  journal:\n    synchronus: NORMAL\n"
    with pytest.raises(VibflowError) as info:
        with_user(tmp_path, text).section("engine", EnginePolicy)
    assert "unknown key 'synchronus'" in info.value.message
    assert "(did you mean 'synchronous'?)" in info.value.message


@pytest.mark.parametrize("text", ["- engine\n", "[engine, journal]\n", "just words\n"])
def test_policy_file_that_is_not_a_mapping(text: str, tmp_path: Path) -> None:
    """A policy file that is a list or a scalar fails at once with a clear message."""
    with pytest.raises(VibflowError) as info:
        with_user(tmp_path, text)
    assert info.value.code is ErrorCode.POLICY_INVALID
    assert "must be a mapping of sections (for example 'engine:')" in info.value.message
    assert info.value.location is not None
    assert info.value.location.file == USER_POLICY_DISPLAY


def test_non_utf8_policy_is_policy_invalid(tmp_path: Path) -> None:
    """A policy file that is not UTF-8 text is POLICY_INVALID, not a crash."""
    path = tmp_path / "policy.yaml"
    path.write_bytes("engine:\n  note: caf\xe9\n".encode("latin-1"))
    with pytest.raises(VibflowError) as info:
        PolicySet(files("vibflow.policies"), path)
    assert info.value.code is ErrorCode.POLICY_INVALID


def test_error_names_the_full_section_path(tmp_path: Path) -> None:
    """A bad key under `engine.journal` is named with its full dotted path."""
    with pytest.raises(VibflowError) as info:
        with_user(tmp_path, "engine:\n  jurnal: {}\n").section("engine", EnginePolicy)
    assert "at engine" in info.value.message
    assert "top level" not in info.value.message


def test_misspelled_section_is_reported(cli: Cli, repo: Path) -> None:
    """A misspelled section name in `.vibflow/policy.yaml` is an error with a did-you-mean."""
    (repo / ".vibflow" / "policy.yaml").write_text(
        "enigne:\n  journal:\n    synchronous: NORMAL\n", encoding="utf-8"
    )
    proc = cli("runs", "list")
    assert proc.returncode == 2, proc.stderr
    assert ".vibflow/policy.yaml:1:1" in proc.stderr
    assert "did you mean 'engine'" in proc.stderr


def test_cli_reports_a_bad_policy_located(cli: Cli, repo: Path) -> None:
    """Any command that opens the journal refuses a bad policy with exit 2, file:line:col."""
    (repo / ".vibflow" / "policy.yaml").write_text(
        (FLOWS / "policies" / "synchronous_fast.yaml").read_text("utf-8"), encoding="utf-8"
    )
    proc = cli("run", "linear")
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("vibflow: .vibflow/policy.yaml:4:5: ")
    assert "Traceback" not in proc.stderr
    assert not (repo / ".vibflow" / "runs.db").exists() or _no_runs(repo / ".vibflow" / "runs.db")


def _no_runs(db: Path) -> bool:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT count(*) FROM runs").fetchone()[0] == 0
    finally:
        con.close()


def test_digest_follows_the_override(tmp_path: Path) -> None:
    """The digest changes when the override changes a value, and only then."""
    base = defaults().digest()
    normal = with_user(tmp_path, NORMAL).digest()
    assert normal != base
    assert with_user(tmp_path, "# a comment\n" + NORMAL).digest() == normal
    assert with_user(tmp_path, "engine: {journal: {synchronous: NORMAL}}\n").digest() == normal
    assert with_user(tmp_path, "engine:\n  journal:\n    synchronous: FULL\n").digest() == base
    bigger = with_user(tmp_path, "engine:\n  context_max_bytes: 131072\n").digest()
    assert len({base, normal, bigger}) == 3
    assert re.fullmatch(r"[0-9a-f]{64}", base)


# -- the shipped policies, parsed ahead of time ---------------------------------------------


def test_the_pre_parsed_defaults_are_exactly_the_shipped_yaml() -> None:
    """policies/parsed.json must equal parsing each policies/*.yaml (regenerate it with
    `python -c "from pathlib import Path; from vibflow.engine.policy import
    write_parsed_defaults; write_parsed_defaults(Path('policies'))"`)."""
    folder = files("vibflow.policies")
    parsed = json.loads(folder.joinpath("parsed.json").read_text("utf-8"))
    names = sorted(f.name for f in folder.iterdir() if f.name.endswith(".yaml"))
    assert sorted(parsed) == names, "policies/parsed.json is out of date: regenerate it"
    for name in names:
        text = folder.joinpath(name).read_text("utf-8")
        doc = parse_yaml(text, f"vibflow/policies/{name}")
        entry = parsed[name]
        assert entry["sha256"] == hashlib.sha256(text.encode()).hexdigest(), (
            f"policies/parsed.json is out of date for {name}: regenerate it"
        )
        assert entry["data"] == doc.data
        assert {tuple(p): (line, col) for p, line, col in entry["positions"]} == dict(doc.positions)


def test_an_edited_shipped_policy_is_parsed_again_not_taken_from_parsed_json(
    tmp_path: Path,
) -> None:
    folder = Path(str(files("vibflow.policies")))
    copy = tmp_path / "policies"
    copy.mkdir()
    for f in folder.iterdir():
        if f.name.endswith((".yaml", ".json")):
            (copy / f.name).write_bytes(f.read_bytes())
    engine = (copy / "engine.yaml").read_text(encoding="utf-8")
    (copy / "engine.yaml").write_text(
        engine.replace("synchronous: FULL", "synchronous: NORMAL"), encoding="utf-8"
    )
    assert "synchronous: NORMAL" in (copy / "engine.yaml").read_text(encoding="utf-8")
    policy = PolicySet(copy, None)
    assert policy.section("engine", EnginePolicy).journal.synchronous == "NORMAL"


@pytest.mark.cli
def test_reading_the_shipped_policies_needs_no_yaml_parser() -> None:
    code = (
        "import sys; from importlib.resources import files\n"
        "from vibflow.engine.policy import PolicySet\n"
        "PolicySet(files('vibflow.policies'), None).raw()\n"
        "print(any(m.startswith('ruamel') for m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "False"
