"""Every fixture flow under ``tests/flows/``: the valid ones load, each broken one
fails with the error code, position and message its first line promises.

A broken fixture starts with ``# expect: CODE @ LINE:COL substring``; an optional
second line ``# known-bug: why`` marks an expectation the engine does not meet
yet (strict xfail, so fixing the bug turns it into a failure to clean up).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from vibflow_testing import FLOWS
from vibflow_testing.flows import register

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.loader import load_flow, problems_of
from vibflow.engine.registry import Registry
from vibflow.registry_wiring import build_registry

EXPECT = re.compile(r"^# expect: (?P<code>[A-Z_]+) @ (?P<line>\d+):(?P<col>\d+) (?P<text>.+)$")
KNOWN_BUG = re.compile(r"^# known-bug: (?P<why>.+)$")

INVALID = sorted((FLOWS / "invalid").glob("*.yaml"))
VALID = sorted((FLOWS / "valid").glob("*.yaml"))


@dataclass(frozen=True)
class Expectation:
    code: ErrorCode
    line: int
    col: int
    text: str
    known_bug: str | None


def expectation(path: Path) -> Expectation:
    lines = path.read_text(encoding="utf-8").splitlines()
    match = EXPECT.match(lines[0]) if lines else None
    assert match, f"{path.name}: first line must be '# expect: CODE @ LINE:COL text'"
    bug = KNOWN_BUG.match(lines[1]) if len(lines) > 1 else None
    return Expectation(
        ErrorCode[match["code"]],
        int(match["line"]),
        int(match["col"]),
        match["text"],
        bug["why"] if bug else None,
    )


def _cases() -> list[object]:
    out: list[object] = []
    for path in INVALID:
        exp = expectation(path)
        marks = [pytest.mark.xfail(strict=True, reason=exp.known_bug)] if exp.known_bug else []
        out.append(pytest.param(path, id=path.stem, marks=marks))
    return out


@pytest.fixture(scope="module")
def test_registry() -> Registry:
    return build_registry(register)


def test_there_are_enough_invalid_fixtures() -> None:
    """The broken-flow corpus keeps at least 20 files, each with a parsable expectation."""
    assert len(INVALID) >= 20
    for path in INVALID:
        expectation(path)


@pytest.mark.parametrize("path", _cases())
def test_invalid_fixture_fails_where_it_says(path: Path, test_registry: Registry) -> None:
    """A broken flow raises the promised code, at the promised line:col, with the message."""
    exp = expectation(path)
    with pytest.raises(VibflowError) as info:
        load_flow(path.read_text(encoding="utf-8"), path.name, test_registry)
    exc = info.value
    assert exc.code is exp.code, exc.render()
    assert exc.location is not None, exc.render()
    assert exc.location.file == path.name
    assert (exc.location.line, exc.location.col) == (exp.line, exp.col), exc.render()
    # With several problems the message counts them and render() lists each.
    assert exp.text in (exc.message if not exc.problems else exc.problems[0][1]), exc.render()
    assert "Traceback" not in exc.render()


@pytest.mark.parametrize("path", INVALID, ids=[p.stem for p in INVALID])
def test_problems_of_reports_the_same_first_problem(path: Path, test_registry: Registry) -> None:
    """`problems_of` (what `flows validate` prints) lists what `load_flow` raises."""
    text = path.read_text(encoding="utf-8")
    with pytest.raises(VibflowError) as info:
        load_flow(text, path.name, test_registry)
    problems = problems_of(text, path.name, test_registry)
    assert problems, "problems_of found nothing in a flow load_flow rejects"
    assert problems[0].location == info.value.location
    raised = list(info.value.problems) or [(info.value.location, info.value.message)]
    assert [(p.location, p.message) for p in problems] == raised


@pytest.mark.parametrize("path", VALID, ids=[p.stem for p in VALID])
def test_valid_fixture_loads(path: Path, test_registry: Registry) -> None:
    """A valid fixture loads, keeps its file's flow name and has no problems."""
    loaded = load_flow(path.read_text(encoding="utf-8"), path.name, test_registry)
    assert loaded.name == path.stem
    assert loaded.display == path.name
    assert problems_of(path.read_text(encoding="utf-8"), path.name, test_registry) == []
