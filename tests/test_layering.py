"""The dependency direction of DESIGN §2, checked on the source's import statements.

``engine`` imports nothing of vibflow but itself (no domain, no front door) and
no git or processes; ``steps`` imports nothing of vibflow but the engine and
itself (never a front door); the CLI's modules import each other one way, with
no cycle and nothing importing ``app`` back; and nothing anywhere imports the
bare folder names ``engine`` / ``steps`` (they are never installed). That memory
code reaches nothing that executes is pinned beside the memory tests.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from vibflow_testing import ROOT

ENGINE = ROOT / "engine"
STEPS = ROOT / "steps"
CLI = ROOT / "vibflow" / "cli"
EVERYWHERE = [ROOT / "engine", ROOT / "steps", ROOT / "vibflow", ROOT / "tests"]

ENGINE_BANNED = ("git", "subprocess")
BARE = ("engine", "steps")


def sources(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def imported_modules(path: Path) -> Iterator[tuple[int, str]]:
    """Every absolute module an import statement (or a literal import_module call) names."""
    tree = ast.parse(path.read_text("utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module:
                yield node.lineno, node.module
                for alias in node.names:
                    yield node.lineno, f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            first = node.args[0]
            if (
                called in {"import_module", "__import__"}
                and isinstance(first, ast.Constant)
                and isinstance(first.value, str)
            ):
                yield node.lineno, first.value


def hits(module: str, banned: tuple[str, ...]) -> bool:
    return any(module == b or module.startswith(b + ".") for b in banned)


def violations(folder: Path, banned: tuple[str, ...]) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{line}: imports {module}"
        for path in sources(folder)
        for line, module in imported_modules(path)
        if hits(module, banned)
    ]


def foreign(path: Path, allowed: tuple[str, ...]) -> list[tuple[int, str]]:
    """The ``vibflow`` modules one file imports from outside the ``allowed`` packages."""
    return [
        (line, module)
        for line, module in imported_modules(path)
        if (module == "vibflow" or module.startswith("vibflow.")) and not hits(module, allowed)
    ]


def outside(folder: Path, allowed: tuple[str, ...]) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{line}: imports {module}"
        for path in sources(folder)
        for line, module in foreign(path, allowed)
    ]


def test_engine_imports_nothing_of_vibflow_but_itself_and_no_git_or_processes() -> None:
    """Nothing under engine/ imports steps, a front door, git or subprocess."""
    assert sources(ENGINE), "engine/ has no Python files?"
    assert outside(ENGINE, ("vibflow.engine",)) == []
    assert violations(ENGINE, ENGINE_BANNED) == []


def test_steps_import_nothing_of_vibflow_but_the_engine_and_themselves() -> None:
    """Nothing under steps/ imports the CLI, the wiring, the demo or any other front door."""
    assert sources(STEPS), "steps/ has no Python files?"
    assert outside(STEPS, ("vibflow.engine", "vibflow.steps")) == []


def cli_graph() -> dict[str, set[str]]:
    """Which vibflow.cli modules each vibflow.cli module imports (lazy imports too)."""
    modules = {f"vibflow.cli.{p.stem}": p for p in CLI.glob("*.py") if p.stem != "__init__"}
    return {
        name: {m for _, m in imported_modules(path)} & modules.keys()
        for name, path in modules.items()
    }


def test_nothing_in_the_cli_imports_app() -> None:
    """No module of vibflow/cli imports vibflow.cli.app (only entry points do)."""
    importers = sorted(m for m, deps in cli_graph().items() if "vibflow.cli.app" in deps)
    assert importers == []


def test_the_cli_has_no_import_cycle() -> None:
    """The vibflow.cli modules import each other without a cycle."""
    deps = cli_graph()
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


@pytest.mark.parametrize("folder", EVERYWHERE, ids=lambda p: p.name)
def test_no_bare_folder_imports(folder: Path) -> None:
    """No file imports `engine` or `steps` by the bare folder name."""
    assert violations(folder, BARE) == []


def test_checker_sees_the_import_forms_it_bans(tmp_path: Path) -> None:
    """The import walker catches plain, from-, nested and import_module forms."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import subprocess\n"
        "from git import Repo\n"
        "def f():\n"
        "    from vibflow.steps.workspace import root\n"
        "    import importlib\n"
        "    importlib.import_module('vibflow.cli.app')\n"
        "from vibflow import wiring\n"
        "import engine.loader\n",
        encoding="utf-8",
    )
    found = {m for _, m in imported_modules(probe)}
    assert hits("subprocess", ENGINE_BANNED)
    assert {m for _, m in foreign(probe, ("vibflow.engine", "vibflow.steps"))} >= {
        "vibflow.cli.app",
        "vibflow.wiring",
    }
    for module in ("subprocess", "git", "vibflow.steps.workspace", "vibflow.cli.app"):
        assert module in found
    assert "vibflow.wiring" in found
    assert any(hits(m, BARE) for m in found)
    assert not hits("gitdb", ENGINE_BANNED)
    assert not hits("vibflow.engine", BARE)
