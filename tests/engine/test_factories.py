"""Pydantic models build without tokenizing a builtin's signature (engine/factories.py)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import BaseModel

from vibflow.engine.factories import empty_dict, empty_list

ROOT = Path(__file__).resolve().parents[2]
BUILTIN_FACTORIES = (list, dict, set, frozenset, tuple)


def _models() -> list[type[BaseModel]]:
    """Every pydantic model of the engine and the steps (all their modules imported):
    the models every command builds. The MCP server's own schemas are built once
    per long-lived process."""
    for package in ("engine", "steps"):
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).with_suffix("")
            if "__pycache__" in rel.parts:
                continue
            parts = ("vibflow", *rel.parts)
            importlib.import_module(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    found: list[type[BaseModel]] = []
    stack: list[type[BaseModel]] = [BaseModel]
    while stack:
        cls = stack.pop()
        for sub in cls.__subclasses__():
            stack.append(sub)
            if sub.__module__.startswith(("vibflow.engine.", "vibflow.steps.")):
                found.append(sub)
    return found


def test_empty_factories_give_a_new_container_each_time() -> None:
    """Each call is a new empty list / dict, as ``list()`` and ``dict()`` are."""
    a, b = empty_list(), empty_list()
    assert (a, b) == ([], [])
    assert a is not b
    c, d = empty_dict(), empty_dict()
    assert (c, d) == ({}, {})
    assert c is not d


def test_no_model_uses_a_builtin_default_factory() -> None:
    """No vibflow model names ``list``/``dict``/... as a default factory: pydantic
    would read the builtin's text signature, and its first tokenize compiles a
    large regular expression in every fresh process."""
    offenders = [
        f"{model.__module__}.{model.__qualname__}.{name}"
        for model in _models()
        for name, info in model.model_fields.items()
        if info.default_factory in BUILTIN_FACTORIES
    ]
    assert offenders == []


@pytest.mark.cli
def test_preview_modules_never_tokenize(tmp_path: Path) -> None:
    """Loading the preview's models and services never imports ``tokenize``'s
    compiled token pattern (the builtin-signature path)."""
    probe = (
        "import sys, tokenize, json\n"
        "import vibflow.wiring, vibflow.steps.recovery.advisor, vibflow.steps.memory.service\n"
        "import vibflow.steps.checkpoints.store, vibflow.audit_wiring\n"
        "print(json.dumps(tokenize._compile.cache_info().currsize))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    assert json.loads(out.stdout) == 0
