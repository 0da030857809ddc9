"""Legacy import (spec Appendix A), the Layer-4 boundary, hooks and the memory CLI."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from vibflow_testing import MEMORY_FIXTURES, ROOT
from vibflow_testing.cli import Cli, as_json
from vibflow_testing.git import git

from vibflow.steps.memory.migrations import migrate_v0_to_v1
from vibflow.steps.memory.models import MemoryState
from vibflow.steps.memory.service import MemoryService
from vibflow.steps.memory.store import MemoryStore

FIXTURES = MEMORY_FIXTURES
MEMORY_PKG = ROOT / "steps" / "memory"


def _fixture(name: str) -> dict[str, object]:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


# -- Appendix A fixtures ------------------------------------------------------------------


def test_legacy_decisions_only_become_explicit_decisions_and_a_proposed_intent() -> None:
    """Decisions keep their order; the intent is only *proposed* from the latest one."""
    state = MemoryState.model_validate(migrate_v0_to_v1(_fixture("legacy_decisions_only.json")))
    assert [d.text for d in state.decisions] == [
        "Use SQLite for the local store",
        "Keep the CLI offline-first",
    ]
    assert all(d.source == "explicit" and d.updated_by == "import" for d in state.decisions)
    assert state.active_intent is not None
    assert state.active_intent.proposed
    assert state.next_action is None


def test_legacy_verification_without_scope_is_kept_stale_and_scope_unknown() -> None:
    """Verification without files is kept, marked stale and scope_unknown, text verbatim."""
    state = MemoryState.model_validate(
        migrate_v0_to_v1(_fixture("legacy_verification_no_scope.json"))
    )
    first, second = state.verification
    assert (first.command, first.result) == ("pytest -q", "pass")
    assert second.command == "npm test"
    assert second.result == "unknown"
    assert second.result_text == "3 failures"
    assert all(v.stale and v.scope_unknown and v.source == "observed" for v in state.verification)


def test_new_verification_write_with_explicit_scope(repo: Path) -> None:
    """A new verification with --files is explicit, scoped and fresh."""
    svc = MemoryService(MemoryStore(repo / ".vibflow" / "memory.json"))
    svc.verify("pytest tests/test_login.py", "pass", files=["README.md"])
    [v] = svc.read().state.verification
    assert v.source == "explicit"
    assert v.related_files == ["README.md"]
    assert not v.scope_unknown
    assert not v.stale


def test_guard_capture_becomes_observed_verification_and_risks() -> None:
    """Passing guard summaries → observed verification (scope inferred); warnings → risks."""
    state = MemoryState.model_validate(migrate_v0_to_v1(_fixture("legacy_guard_capture.json")))
    [ver] = state.verification
    assert ver.source == "observed"
    assert ver.related_files == ["src/pages/Login.tsx"]
    assert not ver.scope_unknown
    kinds = sorted(r.kind for r in state.risks)
    assert kinds == ["skipped_check", "warning"]
    files = {f.path: f.source for f in state.relevant_files}
    assert files == {"src/pages/Login.tsx": "explicit", "src/services/auth.ts": "observed"}
    events = [e.kind for e in state.observed_context]
    assert events == ["commit", "checkpoint", "legacy_event"]
    assert state.decisions == []  # recent events are never promoted to decisions
    assert state.next_action is not None
    assert state.unknown_fields == {"editor_settings": {"theme": "dark"}}


def test_malformed_file_is_backed_up_with_minimal_memory(repo: Path) -> None:
    """A malformed memory.json is preserved as a backup; memory starts minimal."""
    path = repo / ".vibflow" / "memory.json"
    shutil.copy(FIXTURES / "malformed.json", path)
    loaded = MemoryStore(path).load()
    assert loaded.state == MemoryState()
    assert loaded.backup is not None
    assert loaded.backup.read_bytes() == (FIXTURES / "malformed.json").read_bytes()


def test_newer_schema_opens_read_only(repo: Path) -> None:
    """A newer schema_version opens read-only, showing the fields this version knows."""
    path = repo / ".vibflow" / "memory.json"
    shutil.copy(FIXTURES / "newer_schema.json", path)
    loaded = MemoryStore(path).load()
    assert loaded.read_only
    assert loaded.warning is not None
    assert "schema_version=7" in loaded.warning
    assert loaded.state.active_intent is not None
    assert loaded.state.active_intent.text == "From the future"


def test_import_cli_merges_without_promoting_events(cli: Cli) -> None:
    """`memory import PATH --yes` merges a legacy file; a second import adds no duplicates."""
    src = FIXTURES / "legacy_guard_capture.json"
    first = cli("memory", "import", str(src), "--yes")
    assert first.returncode == 0, first.stderr
    again = cli("memory", "import", str(src), "--yes")
    assert again.returncode == 0, again.stderr
    data = as_json(cli("memory", "show", "--json"))
    assert data["decisions"] == []
    paths = sorted(f["path"] for f in data["relevant_files"])
    assert paths == ["src/pages/Login.tsx", "src/services/auth.ts"]
    no_yes = cli("memory", "import", str(src))
    assert no_yes.returncode == 3


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


# -- hooks ------------------------------------------------------------------------------


def _commit(repo: Path, name: str) -> None:
    (repo / name).write_text(name, encoding="utf-8")
    git(repo, "add", name)
    git(repo, "commit", "-q", "-m", f"add {name}")


def test_post_commit_hook_appends_observed_context_only(cli: Cli, repo: Path) -> None:
    """The installed hook records commits; intent, decisions and next action survive."""
    assert cli("memory", "intent", "keep this intent", "--yes").returncode == 0
    assert cli("memory", "decide", "keep this decision", "--yes").returncode == 0
    assert cli("memory", "next", "keep this next step", "--yes").returncode == 0
    assert cli("hooks", "install").returncode == 0
    _commit(repo, "a.txt")
    _commit(repo, "b.txt")
    data = as_json(cli("memory", "show", "--json"))
    commits = [e for e in data["observed_context"] if e["kind"] == "commit"]
    assert [e["detail"]["sha"] for e in commits] == [
        git(repo, "rev-parse", "HEAD~1").strip(),
        git(repo, "rev-parse", "HEAD").strip(),
    ]
    assert data["active_intent"]["text"] == "keep this intent"
    assert [d["text"] for d in data["decisions"]] == ["keep this decision"]
    assert data["next_action"]["text"] == "keep this next step"


def test_hook_install_chains_an_existing_hook_and_uninstall_restores_it(
    cli: Cli, repo: Path
) -> None:
    """An existing post-commit hook keeps running; uninstall puts it back untouched."""
    hooks = repo / ".git" / "hooks"
    mine = hooks / "post-commit"
    original = '#!/bin/sh\necho ran >> "$(git rev-parse --show-toplevel)/.git/mine.log"\n'
    mine.write_text(original, encoding="utf-8")
    mine.chmod(0o755)
    assert "still runs first" in cli("hooks", "install").stdout
    assert "already installed" in cli("hooks", "install").stdout
    _commit(repo, "c.txt")
    assert (repo / ".git" / "mine.log").read_text() == "ran\n"
    data = as_json(cli("memory", "show", "--json"))
    assert any(e["kind"] == "commit" for e in data["observed_context"])
    assert cli("hooks", "uninstall").returncode == 0
    assert mine.read_text(encoding="utf-8") == original
    assert not (hooks / "post-commit.pre-vibflow").exists()


def test_hook_never_blocks_a_commit_even_without_vibflow(repo: Path) -> None:
    """With the interpreter gone, the hook exits 0 and the commit succeeds."""
    from vibflow.steps.hooks.post_commit import install

    install(repo, python="/nonexistent/python")
    env_path = "/usr/bin:/bin"
    _commit_env = subprocess.run(
        ["git", "-C", str(repo), "commit", "-q", "--allow-empty", "-m", "x"],
        env={
            "PATH": env_path,
            "HOME": str(repo),
            "GIT_AUTHOR_NAME": "a",
            "GIT_AUTHOR_EMAIL": "a@b.c",
            "GIT_COMMITTER_NAME": "a",
            "GIT_COMMITTER_EMAIL": "a@b.c",
        },
        capture_output=True,
        text=True,
        check=False,
    )
    assert _commit_env.returncode == 0, _commit_env.stderr


# -- CLI contract -------------------------------------------------------------------------


def test_memory_cli_confirmation_and_freshness_json(cli: Cli) -> None:
    """Without --yes (no TTY) intent writes exit 3; show --json carries freshness."""
    refused = cli("memory", "intent", "do the thing")
    assert refused.returncode == 3
    assert "--yes" in refused.stderr
    assert cli("memory", "intent", "do the thing", "--yes").returncode == 0
    assert cli("memory", "verify", "pytest -q", "--result", "pass").returncode == 0
    data = as_json(cli("memory", "show", "--json"))
    assert data["active_intent"]["text"] == "do the thing"
    assert data["freshness"]["intent_stale"] is False
    assert data["freshness"]["stale_verification"] == 1
    assert data["schema_version"] == 1
    schema = json.loads(cli("memory", "schema").stdout)
    assert schema["title"].startswith("vibflow project memory")


def test_memory_relevant_goes_through_the_path_contract(cli: Cli, repo: Path) -> None:
    """Relevant paths are stored project-relative; escapes are refused without echoing."""
    ok = cli("memory", "relevant", str(repo / "README.md"), "the readme", "--yes")
    assert ok.returncode == 0, ok.stderr
    data = as_json(cli("memory", "show", "--json"))
    assert data["relevant_files"][0]["path"] == "README.md"
    bad = cli("memory", "relevant", "../../etc/passwd", "nope", "--yes")
    assert bad.returncode == 2
    assert str(repo) not in bad.stderr
    assert "Traceback" not in bad.stderr


@pytest.mark.cli
def test_memory_cli_runs_from_python_module(repo: Path) -> None:
    """`python -m vibflow memory show` works inside a project (smoke)."""
    proc = subprocess.run(
        [sys.executable, "-m", "vibflow", "memory", "show"],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Intent: (none)" in proc.stdout
