"""The Layer-4 boundary: memory text never becomes an instruction — memory's import graph
reaches nothing that runs commands, its code calls no destructive operation, and hostile
memory text never reaches a command, a path or an event."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from vibflow_testing import ROOT
from vibflow_testing.cli import Cli, as_json
from vibflow_testing.git import git

MEMORY_PKG = ROOT / "steps" / "memory"


# -- Layer 4: memory text never becomes an instruction -------------------------------------

FORBIDDEN_MODULES = {"subprocess", "shutil", "git", "pty", "multiprocessing", "socket"}
FORBIDDEN_VIBFLOW = (
    "vibflow.steps.checkpoints",
    "vibflow.steps.recovery",
    "vibflow.steps.hooks",
    "vibflow.steps.workspace",
    "vibflow.engine.runner",
    "vibflow.engine.recorder",
    "vibflow.engine.claims",
    "vibflow.engine.dryrun",
    "vibflow.cli",
    "vibflow.wiring",
)
FORBIDDEN_CALLS = {
    ("os", "system"),
    ("os", "popen"),
    ("os", "remove"),
    ("os", "unlink"),
    ("os", "rmdir"),
    ("os", "execv"),
    ("os", "execvp"),
    ("os", "spawnv"),
    ("shutil", "rmtree"),
}


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


def _closure() -> set[str]:
    """Every vibflow module reachable by imports from vibflow.steps.memory."""
    repo = MEMORY_PKG.parent.parent
    folders = {"vibflow.steps": repo / "steps", "vibflow.engine": repo / "engine"}

    def file_of(module: str) -> Path | None:
        for prefix, folder in folders.items():
            if module == prefix or module.startswith(prefix + "."):
                rest = module[len(prefix) :].lstrip(".").replace(".", "/")
                base = folder / rest if rest else folder
                for cand in (base.with_suffix(".py"), base / "__init__.py"):
                    if cand.exists():
                        return cand
        return None

    seen: set[str] = set()
    todo = [f"vibflow.steps.memory.{p.stem}" for p in MEMORY_PKG.glob("*.py")]
    while todo:
        mod = todo.pop()
        if mod in seen:
            continue
        seen.add(mod)
        f = file_of(mod)
        if f is not None:
            todo += [m for m in _imports(f) if m.startswith("vibflow.")]
    return seen


def test_memory_import_graph_reaches_nothing_that_runs_commands() -> None:
    """The import closure of vibflow.steps.memory has no command runner or apply code."""
    closure = _closure()
    bad = [m for m in closure if m.startswith(FORBIDDEN_VIBFLOW)]
    assert bad == []
    repo = MEMORY_PKG.parent.parent
    for mod in closure:
        rel = mod.replace("vibflow.steps", "steps").replace("vibflow.engine", "engine")
        path = (repo / rel.replace(".", "/")).with_suffix(".py")
        if not path.exists():
            path = repo / rel.replace(".", "/") / "__init__.py"
        if not path.exists():
            continue
        top = {m.split(".")[0] for m in _imports(path)}
        assert not (top & FORBIDDEN_MODULES), f"{mod} imports {top & FORBIDDEN_MODULES}"


def test_memory_code_calls_no_destructive_operation() -> None:
    """No os.system / os.remove / shutil.rmtree / Path.unlink anywhere in memory code."""
    for path in MEMORY_PKG.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                assert (node.value.id, node.attr) not in FORBIDDEN_CALLS, path.name
            if isinstance(node, ast.Attribute):
                assert node.attr not in {"unlink", "rmtree", "rmdir", "system"}, (
                    f"{path.name}: .{node.attr}"
                )


HOSTILE = [
    "; rm -rf / && git reset --hard",
    "$(touch PWNED)",
    "`touch PWNED`",
    "APPLY ckpt_" + "0" * 32,
    "../../../../etc/passwd",
    "confirm",
    "then run vibflow memory intent x --yes --overwrite",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_memory_text_never_reaches_a_command_a_path_or_an_event(
    cli: Cli, repo: Path, text: str
) -> None:
    """Shell-like memory text is stored as data: no file appears, no run moves, nothing runs."""
    before = sorted(p.name for p in repo.iterdir())
    head = git(repo, "rev-parse", "HEAD")
    for args in (["intent", text], ["decide", text], ["next", text], ["risk", text]):
        proc = cli("memory", *args, "--yes") if args[0] != "risk" else cli("memory", *args)
        assert proc.returncode == 0, proc.stderr
    run = as_json(cli("run", "guarded_apply", "--json"))
    shown = as_json(cli("memory", "show", "--json"))
    assert shown["active_intent"]["text"] == text
    assert sorted(p.name for p in repo.iterdir()) == before
    assert not (repo / "PWNED").exists()
    assert git(repo, "rev-parse", "HEAD") == head
    assert git(repo, "status", "--porcelain") == ""
    after = as_json(cli("runs", "show", str(run["run_id"]), "--json"))
    assert after["state"] == "choose"  # memory text did not become a flow event
