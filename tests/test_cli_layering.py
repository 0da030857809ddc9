"""The CLI's imports go one way: ``app`` mounts the command modules, which share
``context`` and the renderers, and nothing in ``vibflow/cli`` imports ``app`` back."""

from __future__ import annotations

import ast
from pathlib import Path

CLI = Path(__file__).resolve().parent.parent / "vibflow" / "cli"


def cli_imports(path: Path) -> set[str]:
    """The ``vibflow.cli`` modules one file imports, at any depth (lazy imports too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
    return {m for m in found if m.startswith("vibflow.cli.")}


def graph() -> dict[str, set[str]]:
    modules = {f"vibflow.cli.{p.stem}": p for p in CLI.glob("*.py") if p.stem != "__init__"}
    return {name: cli_imports(path) & modules.keys() for name, path in modules.items()}


def test_nothing_in_the_cli_imports_app() -> None:
    """No module of vibflow/cli imports vibflow.cli.app (only entry points do)."""
    importers = sorted(m for m, deps in graph().items() if "vibflow.cli.app" in deps)
    assert importers == []


def test_the_cli_has_no_import_cycle() -> None:
    """The vibflow.cli modules import each other without a cycle."""
    deps = graph()
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, " -> ".join((*path, module))
        if module in done:
            return
        for dep in sorted(deps[module]):
            visit(dep, (*path, module))
        done.add(module)

    for module in sorted(deps):
        visit(module, ())
    assert "vibflow.cli.app" in deps, "the walker found no CLI modules?"
