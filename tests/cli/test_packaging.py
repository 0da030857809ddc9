"""Packaging: the folders install as ``vibflow.*`` and nothing else (DESIGN §2).

The fast tests read ``pyproject.toml``. The slow ones build a real, non-editable
install with the venv's pip into a temporary ``--target`` folder and import it
from a folder outside the repository, with ``python -S`` so the venv's editable
finder (which maps ``vibflow.*`` onto this source tree and would resolve a
forgotten subpackage from it) is not loaded; the venv's site-packages is put on
``PYTHONPATH`` after the install only so the dependencies resolve.
"""

from __future__ import annotations

import ast
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path
from typing import Any

import pytest
from vibflow_testing import ROOT

# setuptools builds in the tree it is given (build/, *.egg-info): the install is made
# from a copy of the shipped sources, so nothing else that writes the checkout's build/
# (`make lint`'s type-check tree, a developer's own build) can race with it; one worker
# runs this module so the copy is made once.
pytestmark = pytest.mark.xdist_group("packaging")
#: What a source distribution holds: the package folders and the files pyproject names.
SHIPPED = ("pyproject.toml", "README.md", "vibflow", "engine", "steps", "flows", "policies")

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]
# setuptools understands `project.license` as an SPDX string (PEP 639) from 77 on.
PEP639_SETUPTOOLS = (77, 0)


def _version(text: str) -> tuple[int, int]:
    """(major, minor) of the first version in ``text``; a missing minor is 0."""
    parts = [int(x) for x in re.findall(r"\d+", text)[:2]]
    return (parts[0], parts[1] if len(parts) > 1 else 0)


def mapped_packages() -> dict[str, Path]:
    """Every folder with an ``__init__.py`` under a package-dir root, by dotted name."""
    out: dict[str, Path] = {}
    for top, folder in SETUPTOOLS["package-dir"].items():
        base = ROOT / folder
        for init in sorted(base.rglob("__init__.py")):
            if "__pycache__" in init.parts:
                continue
            rel = init.parent.relative_to(base).parts
            out[".".join((top, *rel))] = init.parent
    return out


# -- pyproject.toml ------------------------------------------------------------------


def test_package_dir_maps_owner_folders_under_vibflow() -> None:
    """engine/, steps/, flows/ and policies/ install only as vibflow.* packages."""
    assert SETUPTOOLS["package-dir"] == {
        "vibflow": "vibflow",
        "vibflow.engine": "engine",
        "vibflow.steps": "steps",
        "vibflow.flows": "flows",
        "vibflow.policies": "policies",
    }
    assert all(p == "vibflow" or p.startswith("vibflow.") for p in SETUPTOOLS["packages"])


def test_every_subpackage_is_listed() -> None:
    """Each folder with an __init__.py under a package-dir root is a listed package."""
    missing = sorted(set(mapped_packages()) - set(SETUPTOOLS["packages"]))
    assert missing == []


def test_listed_packages_exist() -> None:
    """Every package pyproject lists is a folder with an __init__.py."""
    assert set(SETUPTOOLS["packages"]) <= set(mapped_packages())


def test_data_packages_ship_their_yaml() -> None:
    """flows and policies are regular packages whose YAML is declared package data."""
    data = SETUPTOOLS["package-data"]
    for pkg, folder in (("vibflow.flows", "flows"), ("vibflow.policies", "policies")):
        assert (ROOT / folder / "__init__.py").is_file()
        assert "*.yaml" in data[pkg]
    assert (ROOT / "policies" / "engine.yaml").is_file()


def test_build_requirement_understands_the_license_field() -> None:
    """The declared build backend version can read the project's license field."""
    project: dict[str, Any] = PYPROJECT["project"]
    if not isinstance(project.get("license"), str):
        return
    [req] = [r for r in PYPROJECT["build-system"]["requires"] if r.startswith("setuptools")]
    assert _version(req) >= PEP639_SETUPTOOLS, req


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _imported_top_levels() -> set[str]:
    found: set[str] = set()
    for folder in ("engine", "steps", "vibflow"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if isinstance(node, ast.Import):
                    found.update(alias.name.split(".")[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    found.add(node.module.split(".")[0])
    return found


def test_every_runtime_dependency_is_imported() -> None:
    """No declared dependency is dead weight: the shipped code imports each one somewhere."""
    providers = importlib.metadata.packages_distributions()
    used = {
        _normalized(dist) for module in _imported_top_levels() for dist in providers.get(module, [])
    }
    declared = {
        _normalized(re.split(r"[<>=!~\[; ]", req, maxsplit=1)[0])
        for req in PYPROJECT["project"]["dependencies"]
    }
    assert sorted(declared - used) == []


# -- a real non-editable install ---------------------------------------------------------


def _backend_problem() -> str | None:
    """Why the venv cannot build vibflow without build isolation (None if it can)."""
    problems = []
    try:
        have = importlib.metadata.version("setuptools")
    except importlib.metadata.PackageNotFoundError:
        problems.append("setuptools is not installed")
    else:
        if _version(have) < PEP639_SETUPTOOLS:
            problems.append(f'setuptools {have} is older than 77 (needed for `license = "MIT"`)')
    try:
        importlib.metadata.version("wheel")
    except importlib.metadata.PackageNotFoundError:
        problems.append("wheel is not installed")
    return "; ".join(problems) or None


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """vibflow installed (not editable) into a temporary --target folder."""
    problem = _backend_problem()
    isolated = os.environ.get("VIBFLOW_TEST_BUILD_ISOLATION") == "1"
    if problem and not isolated:
        pytest.skip(
            f"the venv cannot build vibflow with --no-build-isolation: {problem} "
            "(set VIBFLOW_TEST_BUILD_ISOLATION=1 to let pip fetch the backend)"
        )
    target = tmp_path_factory.mktemp("install") / "site"
    source = tmp_path_factory.mktemp("source")
    for name in SHIPPED:
        if (ROOT / name).is_dir():
            shutil.copytree(
                ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__")
            )
        else:
            shutil.copy2(ROOT / name, source / name)
    cmd = [sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", str(target)]
    if not isolated:
        cmd.append("--no-build-isolation")
    proc = subprocess.run(
        [*cmd, str(source)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        cwd=tmp_path_factory.mktemp("build_cwd"),
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (target / "vibflow" / "__init__.py").is_file()
    return target


@pytest.fixture(scope="module")
def outside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("outside_repo")
    assert ROOT not in where.parents
    return where


def run_installed(
    site: Path, cwd: Path, *args: str, code: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the venv's python with only the install (then the dependencies) importable."""
    deps = sysconfig.get_paths()["purelib"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIBFLOW_", "PYTHON"))}
    env["PYTHONPATH"] = os.pathsep.join([str(site), deps])
    argv = [sys.executable, "-S", *(["-c", code] if code is not None else args)]
    return subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.slow
def test_installed_namespace_imports(site: Path, outside: Path) -> None:
    """vibflow.engine and vibflow.steps import from the install, not from the repo."""
    proc = run_installed(
        site,
        outside,
        code="import vibflow.engine, vibflow.steps, vibflow.wiring, vibflow.cli.app\n"
        "print(vibflow.engine.__file__)\nprint(vibflow.steps.__file__)",
    )
    assert proc.returncode == 0, proc.stderr
    for line in proc.stdout.splitlines():
        assert Path(line).is_relative_to(site), line


@pytest.mark.slow
@pytest.mark.parametrize("bare", ["engine", "steps", "flows", "policies"])
def test_bare_folder_names_are_not_importable(bare: str, site: Path, outside: Path) -> None:
    """`import engine` (or steps, flows, policies) fails with ModuleNotFoundError."""
    proc = run_installed(
        site,
        outside,
        code=f"try:\n    import {bare}\nexcept ModuleNotFoundError:\n    print('absent')\n"
        f"else:\n    print('present', {bare}.__file__)",
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "absent"


@pytest.mark.slow
def test_policies_and_flows_are_package_data(site: Path, outside: Path) -> None:
    """policies/engine.yaml is readable via importlib.resources; vibflow.flows is a package."""
    proc = run_installed(
        site,
        outside,
        code="from importlib.resources import files\nimport vibflow.flows\n"
        "p = files('vibflow.policies')\n"
        "print((p / 'engine.yaml').is_file())\n"
        "init = vibflow.flows.__file__\n"
        "print(init is not None and init.endswith('__init__.py'))\n"
        "print(len((p / 'engine.yaml').read_text('utf-8')) > 0)",
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["True", "True", "True"]


@pytest.mark.slow
def test_installed_tree_matches_the_source(site: Path) -> None:
    """Every .py and .yaml under a mapped source folder is present in the install."""
    missing = []
    for top, folder in SETUPTOOLS["package-dir"].items():
        base = ROOT / folder
        dest = site.joinpath(*top.split("."))
        for path in sorted(base.rglob("*")):
            if path.suffix not in {".py", ".yaml"} or "__pycache__" in path.parts:
                continue
            if not (dest / path.relative_to(base)).is_file():
                missing.append(f"{top}:{path.relative_to(base)}")
    assert missing == []


@pytest.mark.slow
def test_installed_cli_help(site: Path, outside: Path) -> None:
    """`python -m vibflow --help` works from the install outside the repository."""
    proc = run_installed(site, outside, "-m", "vibflow", "--help")
    assert proc.returncode == 0, proc.stderr
    assert "flows" in proc.stdout


@pytest.mark.slow
def test_installed_cli_flows_list(site: Path, outside: Path) -> None:
    """`python -m vibflow flows list` exits 0 from the install outside the repository."""
    proc = run_installed(site, outside, "-m", "vibflow", "flows", "list", "--json")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
