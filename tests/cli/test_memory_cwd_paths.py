"""Memory commands read a relative path in the folder you run them in, as git does:
`memory relevant orders_test.go` in internal/orders records
internal/orders/orders_test.go (not a missing file at the root), and so do
`--remove` and `verify --files`; at the root and from outside the project nothing
changes, and a path climbing out of the project is still refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from vibflow_testing.cli import as_json, run_harness
from vibflow_testing.repo import init_repo

from vibflow.cli.cwd_paths import from_here, prefix_of


@pytest.mark.parametrize(
    ("raw", "prefix", "expected"),
    [
        ("orders_test.go", "internal/orders", "internal/orders/orders_test.go"),
        ("./orders_test.go", "internal/orders", "internal/orders/orders_test.go"),
        ("../payments/pay.go", "internal/orders", "internal/payments/pay.go"),
        ("fixtures/", "internal/orders", "internal/orders/fixtures/"),
        ("sub\\a.go", "internal", "internal/sub/a.go"),
        ("..\\payments\\pay.go", "internal/orders", "internal/payments/pay.go"),
        ("..", "internal", "."),
        ("../../../etc/passwd", "internal/orders", "../../../etc/passwd"),
        ("/abs/path.go", "internal", "/abs/path.go"),
        ("~/notes.md", "internal", "~/notes.md"),
        ("orders_test.go", None, "orders_test.go"),
    ],
)
def test_a_relative_path_is_placed_in_the_folder_you_are_in(
    raw: str, prefix: str | None, expected: str
) -> None:
    """Lexical, as git's: `..` inside the project resolves; climbing out of it, an
    absolute path, `~`, or no subfolder leaves the text for the path contract."""
    assert from_here(raw, prefix) == expected


def test_where_you_are_in_the_project(tmp_path: Path) -> None:
    """The root and folders outside the project have no prefix; a subfolder does."""
    root = tmp_path / "p"
    (root / "internal" / "orders").mkdir(parents=True)
    assert prefix_of(root, root) is None
    assert prefix_of(root, tmp_path) is None
    assert prefix_of(root, root / "internal" / "orders") == "internal/orders"


def _repo(tmp_path: Path) -> Path:
    return init_repo(
        tmp_path / "svc",
        {
            "go.mod": "module example.com/svc\n",
            "internal/orders/orders.go": "package orders\n",
            "internal/orders/orders_test.go": "package orders\n",
            "internal/payments/pay.go": "package payments\n",
        },
    )


def _memory(root: Path) -> dict[str, object]:
    data = json.loads((root / ".vibflow" / "memory.json").read_text("utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.mark.cli
def test_memory_relevant_from_a_subfolder_records_the_file_there(tmp_path: Path) -> None:
    """The issue's repro: in internal/orders, `memory relevant orders_test.go` records
    internal/orders/orders_test.go with no "does not exist" warning; `--remove` with
    the same short name takes it off again."""
    root = _repo(tmp_path)
    here = root / "internal" / "orders"
    proc = run_harness(
        ("memory", "relevant", "orders_test.go", "the tests", "--yes", "--json"), cwd=here
    )
    assert proc.returncode == 0, proc.stderr
    answer = as_json(proc)
    assert answer["entry"]["path"] == "internal/orders/orders_test.go"
    assert answer["warnings"] == []
    assert "does not exist" not in proc.stderr
    paths = [f["path"] for f in _memory(root)["relevant_files"]]  # type: ignore[index]
    assert paths == ["internal/orders/orders_test.go"]
    sibling = run_harness(
        ("memory", "relevant", "../payments/pay.go", "the payment", "--yes", "--json"), cwd=here
    )
    assert as_json(sibling)["entry"]["path"] == "internal/payments/pay.go"
    gone = run_harness(("memory", "relevant", "--remove", "orders_test.go", "--yes"), cwd=here)
    assert gone.returncode == 0, gone.stderr
    assert "internal/orders/orders_test.go is no longer a relevant file" in gone.stdout


@pytest.mark.cli
def test_memory_verify_files_from_a_subfolder(tmp_path: Path) -> None:
    """`verify --files` names files the same way: relative to where you are."""
    root = _repo(tmp_path)
    proc = run_harness(
        (
            "memory",
            "verify",
            "go test ./...",
            "--result",
            "pass",
            "--files",
            "orders.go",
            "--files",
            "orders_test.go",
            "--json",
        ),
        cwd=root / "internal" / "orders",
    )
    assert proc.returncode == 0, proc.stderr
    assert as_json(proc)["entry"]["related_files"] == [
        "internal/orders/orders.go",
        "internal/orders/orders_test.go",
    ]


@pytest.mark.cli
def test_at_the_root_and_out_of_the_project_nothing_changes(tmp_path: Path) -> None:
    """At the root a path is project-relative as before; from a subfolder, a path that
    climbs out of the project is refused as bad input (exit 2), not recorded."""
    root = _repo(tmp_path)
    at_root = run_harness(
        ("memory", "relevant", "go.mod", "the module", "--yes", "--json"), cwd=root
    )
    assert as_json(at_root)["entry"]["path"] == "go.mod"
    out = run_harness(
        ("memory", "relevant", "../../../outside.txt", "no", "--yes"),
        cwd=root / "internal" / "orders",
    )
    assert out.returncode == 2, out.stdout
    assert "Traceback" not in out.stderr
    # The rule it breaks from here: out of the project ('..' itself is fine here).
    assert "path rejected (outside_project): the path is outside the project" in out.stderr
