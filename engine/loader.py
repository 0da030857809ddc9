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
from vibflow.engine.yamlsource import YamlDocument, parse_yaml, validate


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


def parse_flow(text: str, display: str) -> tuple[FlowDefinition, YamlDocument]:
    """Syntax and schema only (no registry needed)."""
    doc = parse_yaml(text, display)
    defn = validate(doc, FlowDefinition, what="flow definition")
    return defn, doc


def problems_of(text: str, display: str, registry: Registry) -> list[LocatedProblem]:
    """Every problem in a flow file, located; empty when it loads."""
    try:
        defn, doc = parse_flow(text, display)
    except VibflowError as exc:
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
    problems = verify(defn, registry)
    if problems:
        first = _locate(doc, problems[0])
        more = len(problems) - 1
        raise VibflowError(
            ErrorCode.FLOW_INVALID,
            first.message,
            hint=(
                f"({more} more problem{'s' if more > 1 else ''}: run `vibflow flows validate "
                f"{display}`.)"
            )
            if more
            else None,
            location=first.location,
        )
    return LoadedFlow(defn, display, origin)


def _locate(doc: YamlDocument, problem: Problem) -> LocatedProblem:
    return LocatedProblem(doc.locate(problem.path), problem.message)
