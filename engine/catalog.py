"""Where flows come from: the shipped ones and the project's own.

Shipped flows are package data (read through ``importlib.resources`` by the
front door, which hands the folder in); a project may add or override flows in
``<repo>/.vibflow/flows/*.yaml``. Both go through the same loader and verifier:
a project flow is never trusted more than a shipped one.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.loader import LoadedFlow, load_flow
from vibflow.engine.registry import Registry, nearest
from vibflow.engine.sourcefile import read_source


@dataclass(frozen=True)
class FlowEntry:
    name: str
    origin: str  # "builtin" | "project"
    display: str
    overrides_builtin: bool = False


class FlowCatalog:
    def __init__(
        self,
        registry: Registry,
        *,
        builtin: Traversable | None,
        project_dir: Path | None,
    ) -> None:
        self._registry = registry
        self._builtin = builtin
        self._project = project_dir

    def _builtin_files(self) -> dict[str, Traversable]:
        if self._builtin is None:
            return {}
        return {
            f.name[: -len(".yaml")]: f
            for f in self._builtin.iterdir()
            if f.name.endswith(".yaml") and f.is_file()
        }

    def _project_files(self) -> dict[str, Path]:
        if self._project is None or not self._project.is_dir():
            return {}
        # Every entry but a folder: a special file named like a flow is listed
        # and refused when loaded, rather than silently ignored.
        return {p.stem: p for p in sorted(self._project.glob("*.yaml")) if not p.is_dir()}

    def entries(self) -> list[FlowEntry]:
        builtin = self._builtin_files()
        project = self._project_files()
        out = [
            FlowEntry(name, "project", f".vibflow/flows/{name}.yaml", name in builtin)
            for name in project
        ]
        out += [
            FlowEntry(name, "builtin", f"vibflow/flows/{name}.yaml")
            for name in builtin
            if name not in project
        ]
        return sorted(out, key=lambda e: e.name)

    def load(self, name: str) -> LoadedFlow:
        project = self._project_files()
        if name in project:
            text = _read(project[name], f".vibflow/flows/{name}.yaml")
            return load_flow(
                text,
                f".vibflow/flows/{name}.yaml",
                self._registry,
                origin="project",
                expected_name=name,
            )
        builtin = self._builtin_files()
        if name in builtin:
            return load_flow(
                builtin[name].read_text(encoding="utf-8"),
                f"vibflow/flows/{name}.yaml",
                self._registry,
                origin="builtin",
                expected_name=name,
            )
        known = sorted({*project, *builtin})
        raise VibflowError(
            ErrorCode.FLOW_NOT_FOUND,
            f"there is no flow named '{name}'{nearest(name, known)}",
            hint="`vibflow flows list` shows the flows you can run.",
        )


def _read(path: Path, display: str) -> str:
    # Size-capped, regular files only: a FIFO or a link to /dev/zero named
    # like a flow is refused instead of hanging the command.
    return read_source(path, display, code=ErrorCode.YAML_SYNTAX)
