"""Shared fixtures: real git repositories, the real journal, real processes."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from vibflow_testkit import register
from vibflow_testutil import FLOWS, Cli, clean_env, git, harness_cmd

from vibflow.engine.registry import Registry
from vibflow.wiring import Project, build_registry


def make_repo(root: Path) -> Path:
    root.mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.email", "dev@example.invalid")
    git(root, "config", "user.name", "Dev")
    (root / "README.md").write_text("hello\n", encoding="utf-8")
    git(root, "add", "README.md")
    git(root, "commit", "-q", "-m", "init")
    flows = root / ".vibflow" / "flows"
    flows.mkdir(parents=True)
    for f in (FLOWS / "valid").glob("*.yaml"):
        shutil.copy(f, flows / f.name)
    return root


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A fresh git repository with one commit and the fixture flows installed."""
    return make_repo(tmp_path / "project")


@pytest.fixture
def registry() -> Registry:
    return build_registry(register)


@pytest.fixture
def project(repo: Path) -> Project:
    return Project(repo, register, env=clean_env())


@pytest.fixture
def cli(repo: Path) -> Cli:
    """Run the real CLI (plus the test kit) as a subprocess inside ``repo``."""

    def run(
        *args: str,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
        stdin: str | None = None,
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            harness_cmd(*args),
            cwd=cwd or repo,
            env=clean_env(**(env or {})),
            capture_output=True,
            text=True,
            input=stdin,
            timeout=120,
            check=False,
        )

    return run
