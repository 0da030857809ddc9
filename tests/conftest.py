"""Shared fixtures: real git repositories, the real journal, real processes."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings
from vibflow_testing.cli import Cli, clean_env, cli_runner
from vibflow_testing.flows import register
from vibflow_testing.repo import make_repo

from vibflow.engine.registry import Registry
from vibflow.wiring import Project, build_registry

CLI_TESTS = Path(__file__).parent / "cli"

# Hypothesis's per-example deadline is a wall-clock assertion: on a shared 2-core
# machine an example that takes 25 ms alone takes 250 ms under load, and the test
# fails for the machine's sake. Speed is measured in benchmarks/, never asserted here.
settings.register_profile("vibflow", deadline=None)
settings.load_profile("vibflow")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``cli`` every test that spawns the CLI: all of ``tests/cli/`` and every test
    using the ``cli`` fixture (directly or through another fixture). Tests that spawn it
    another way carry the marker themselves (``pytestmark`` or ``@pytest.mark.cli``)."""
    for item in items:
        if item.path.is_relative_to(CLI_TESTS) or "cli" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.cli)


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
    return cli_runner(repo)
