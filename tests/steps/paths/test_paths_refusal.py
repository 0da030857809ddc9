"""``contract.refusal``: the path rules that need no filesystem, asked ahead of time.

The recovery plan asks it of every changed file, to leave out of its restore
options the names the confirmation's full check would refuse. So it must agree
with :func:`canonicalize`: never refuse a path the contract accepts, name the
same rule when it refuses, and catch every refusal that needs no filesystem.
Checked against the contract's own corpus.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from vibflow_testing.paths import LINKS, corpus_rows, plant_links

from vibflow.steps.paths import PathRejected, PathRule, canonicalize
from vibflow.steps.paths.contract import refusal

HOSTILE = [
    (str(r["path"]), PathRule(r["rule"]))
    for r in corpus_rows("hostile.jsonl")
    if not r["allow_absolute"] and "<" not in str(r["path"])
]
BENIGN = [str(r["path"]) for r in corpus_rows("benign.jsonl")]
#: Refusals that depend on what is on disk (links, their targets), not on the text.
ON_DISK = {PathRule.SYMLINK_ESCAPE, PathRule.SYMLINK_LOOP, PathRule.OUT_OF_ROOT}
EXTRA = [
    "notes\tdraft.md",
    "a/b\nc.py",
    "re\u200bport.md",
    "what?.md",
    "con.txt",
    "trailing. /x",
    "node_modules/pkg/index.js",
    "~/x.py",
    "C:x.py",
    "x" * 300,
    "src/ok.py",
    "docs/caf\u00e9.md",
    # Plain ASCII that a name rule still refuses (the fast path must not let them by).
    "CON",
    "src/aux.c",
    "src/Com1 .txt",
    "lpt9.tar.gz",
    ".GIT/config",
    "a/.Vibflow/x",
    "a/.gitignore",
    "consoles/nullable.py",
    "node_modules/pkg/x.js",
    "src/__pycache__/m.pyc",
    "a/" + "n" * 256,
    "a/" + "n" * 255,
    "/".join(["d" * 200] * 30),
    "a..b/c.py",
    ".hidden/.x",
]


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project with the corpus's links (some escape, some loop, some stay inside)."""
    base = Path(os.path.realpath(tmp_path_factory.mktemp("refusal")))
    project, outside = base / "project", base / "outside"
    for folder in ["src", ".git", ".vibflow", "node_modules/pkg", "docs"]:
        (project / folder).mkdir(parents=True, exist_ok=True)
    outside.mkdir()
    plant_links(project, outside)
    return project


def _contract(raw: str, root: Path) -> PathRule | None:
    try:
        canonicalize(raw, root)
    except PathRejected as exc:
        return exc.rule
    return None


@pytest.mark.parametrize("raw", [r for r, _ in HOSTILE] + BENIGN + EXTRA)
def test_refusal_names_the_contracts_rule_and_never_refuses_what_it_accepts(
    raw: str, root: Path
) -> None:
    """Whenever refusal names a rule, canonicalize refuses the path by that same rule."""
    found = refusal(raw)
    if found is not None:
        assert _contract(raw, root) is found.rule, raw


def _through_link(raw: str) -> bool:
    return any(raw == link or raw.startswith(link + "/") for link in LINKS)


@pytest.mark.parametrize("raw", [r for r, _ in HOSTILE] + EXTRA)
def test_refusal_catches_every_refusal_that_needs_no_filesystem(raw: str, root: Path) -> None:
    """A path the contract refuses by its text or names alone (not through a link on
    disk) is refused by refusal too, by the same rule — plain ASCII names included."""
    rule = _contract(raw, root)
    if rule is None or rule in ON_DISK or _through_link(raw):
        return  # accepted, or refused by what is on disk
    found = refusal(raw)
    assert found is not None, raw
    assert found.rule is rule, (raw, found)


#: Pieces of names that sit on a rule's edge, for random paths built from them.
_PIECES = st.sampled_from(
    [
        "a",
        "Z9",
        ".",
        "..",
        " ",
        "-",
        "_",
        "+",
        "@",
        "con",
        "NUL",
        "com1",
        "lpt",
        ".git",
        ".vibflow",
        "git~1",
        "%2e",
        "~",
        ":",
        "\\",
        "?",
        "*",
        "\t",
        "\u200b",
        "\u202e",
        "\u00e9",
        "e\u0301",
        "node_modules",
        "__pycache__",
        "x" * 130,
    ]
)
_NAMES = st.lists(_PIECES, min_size=1, max_size=4).map("".join)


@settings(max_examples=400, deadline=None)
@given(raw=st.lists(_NAMES, min_size=1, max_size=4).map("/".join))
def test_refusal_agrees_with_the_contract_on_random_paths(raw: str, root: Path) -> None:
    """Random paths made of rule-edge pieces: refusal names the contract's rule exactly
    when the contract refuses by text or names (no piece names one of the links)."""
    rule = _contract(raw, root)
    found = refusal(raw)
    if found is not None:
        assert rule is found.rule, raw
    elif rule is not None:
        # A folder pattern (node_modules/) matches a name that is a folder on disk.
        folder = rule is PathRule.GENERATED and (root / raw).is_dir()
        assert rule in ON_DISK or folder, (raw, rule)


def test_plain_names_pass() -> None:
    """Ordinary project paths, non-ASCII included, pass."""
    plain = ["src/ok.py", "a/.gitignore", "consoles/nullable.py", "a..b/c.py", ".hidden/.x"]
    for raw in [*plain, "docs/caf\u00e9.md", "a b/c d.txt", "src/\ud55c\uae00.py"]:
        assert refusal(raw) is None, raw
