"""Trigger logic is pure apart from its metric I/O: only ``repo.py`` reaches git, and
nothing under steps/triggers runs a process or writes memory (the write gate and the
memory service are not imported: triggers read memory through the store only)."""

from __future__ import annotations

import ast

from vibflow_testing import ROOT

TRIGGERS = ROOT / "steps" / "triggers"
EXECUTING = ("subprocess", "os.system", "vibflow.steps.workspace", "git")
MEMORY_WRITERS = ("vibflow.steps.memory.gate", "vibflow.steps.memory.service")


def imports(name: str) -> set[str]:
    tree = ast.parse((TRIGGERS / name).read_text("utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def hits(module: str, banned: tuple[str, ...]) -> bool:
    return any(module == b or module.startswith(b + ".") for b in banned)


def test_only_the_repo_facts_reach_git_or_processes() -> None:
    """Conditions, metrics, policy, session, baseline and service import nothing that runs."""
    modules = sorted(p.name for p in TRIGGERS.glob("*.py"))
    assert "conditions.py" in modules
    for name in modules:
        if name != "repo.py":
            assert not {m for m in imports(name) if hits(m, EXECUTING)}, name
        assert not {m for m in imports(name) if hits(m, MEMORY_WRITERS)}, name
