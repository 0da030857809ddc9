"""The dependency direction of DESIGN §2, checked on the source's import statements.

``engine`` knows nothing of the domain, the front doors, git or processes;
``steps`` never reaches back into the front doors; and nothing anywhere imports
the bare folder names ``engine`` / ``steps`` (they are never installed).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from vibflow_testing import ROOT

ENGINE = ROOT / "engine"
STEPS = ROOT / "steps"
EVERYWHERE = [ROOT / "engine", ROOT / "steps", ROOT / "vibflow", ROOT / "tests"]

ENGINE_BANNED = (
    "vibflow.steps",
    "vibflow.cli",
    "vibflow.wiring",
    "vibflow.mcp",
    "git",
    "subprocess",
)
STEPS_BANNED = ("vibflow.cli", "vibflow.wiring", "vibflow.mcp")
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


def test_engine_imports_no_domain_front_door_git_or_processes() -> None:
    """Nothing under engine/ imports steps, the CLI, wiring, MCP, git or subprocess."""
    assert sources(ENGINE), "engine/ has no Python files?"
    assert violations(ENGINE, ENGINE_BANNED) == []


def test_steps_never_import_the_front_doors() -> None:
    """Nothing under steps/ imports the CLI, the wiring or the MCP server."""
    assert sources(STEPS), "steps/ has no Python files?"
    assert violations(STEPS, STEPS_BANNED) == []


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
    for module in ("subprocess", "git", "vibflow.steps.workspace", "vibflow.cli.app"):
        assert module in found
    assert "vibflow.wiring" in found
    assert any(hits(m, BARE) for m in found)
    assert not hits("gitdb", ENGINE_BANNED)
    assert not hits("vibflow.engine", BARE)
