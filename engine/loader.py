"""Load a flow: YAML text → frozen IR → verified, or a located error.

The pipeline is ``yamlsource.parse_yaml`` → :class:`FlowDefinition` (pydantic)
→ :func:`verifier.verify`. Every failure is a :class:`VibflowError` that names
``file:line:col``, what is wrong and what would be right.
"""

from __future__ import annotations

from dataclasses import dataclass

from vibflow.engine.definition import FlowDefinition
from vibflow.engine.errors import ErrorCode, SourceLocation, VibflowError
from vibflow.engine.registry import Registry
from vibflow.engine.verifier import Problem, verify
from vibflow.engine.yamlsource import YamlDocument, located_error, parse_yaml, problems_in


@dataclass(frozen=True)
class LocatedProblem:
    location: SourceLocation
    message: str

    def __str__(self) -> str:
        return f"{self.location}: {self.message}"


@dataclass(frozen=True)
class LoadedFlow:
    definition: FlowDefinition
    display: str
    origin: str  # "builtin" | "project" | "file"

    @property
    def name(self) -> str:
        return self.definition.flow


SCHEMA_HINT = "See `vibflow flows schema` for the expected shape."


def parse_flow(text: str, display: str) -> tuple[FlowDefinition, YamlDocument]:
    """Syntax and schema only (no registry needed); every schema mistake at once."""
    doc = parse_yaml(text, display)
    found = problems_in(doc, FlowDefinition, what="flow definition")
    if isinstance(found, list):
        raise located_error(ErrorCode.SCHEMA, found, hint=SCHEMA_HINT)
    return found, doc


def problems_of(text: str, display: str, registry: Registry) -> list[LocatedProblem]:
    """Every problem in a flow file, located; empty when it loads."""
    try:
        defn, doc = parse_flow(text, display)
    except VibflowError as exc:
        if exc.problems:
            return [LocatedProblem(loc, message) for loc, message in exc.problems]
        loc = exc.location or SourceLocation(display, 1, 1)
        return [LocatedProblem(loc, exc.message)]
    return [_locate(doc, p) for p in verify(defn, registry)]


def load_flow(
    text: str,
    display: str,
    registry: Registry,
    *,
    origin: str = "file",
    expected_name: str | None = None,
) -> LoadedFlow:
    """Parse, validate and verify; raise the first problem, located."""
    defn, doc = parse_flow(text, display)
    if expected_name is not None and defn.flow != expected_name:
        raise VibflowError(
            ErrorCode.FLOW_INVALID,
            f"this file defines flow '{defn.flow}' but is named '{expected_name}.yaml'",
            hint=f"Rename the file to '{defn.flow}.yaml' or set 'flow: {expected_name}'.",
            location=doc.locate(("flow",)),
        )
    problems = [_locate(doc, p) for p in verify(defn, registry)]
    if problems:
        raise located_error(ErrorCode.FLOW_INVALID, [(p.location, p.message) for p in problems])
    return LoadedFlow(defn, display, origin)


def _locate(doc: YamlDocument, problem: Problem) -> LocatedProblem:
    return LocatedProblem(doc.locate(problem.path), problem.message)
