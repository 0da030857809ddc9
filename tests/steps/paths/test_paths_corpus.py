"""The path contract against a corpus of hostile and benign inputs.

Hand-picked cases live in ``tests/paths/*.jsonl``; the families below
generate the systematic ones (``..`` at every position, every reserved name
with every extension, trailing character and case, every control
character). Each rejection must name the expected rule and must not leak the
project's location, the home folder or the username.
"""

from __future__ import annotations

import getpass
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import product
from pathlib import Path

import pytest
from vibflow_testing.paths import corpus_rows, plant_links

from vibflow.engine.errors import ErrorCode, Outcome
from vibflow.steps.paths import PathRejected, PathRule, canonicalize
from vibflow.steps.paths.contract import restore_refusal
from vibflow.steps.paths.rules import RESTORE_ONLY


@dataclass(frozen=True)
class Case:
    path: str
    rule: PathRule
    allow_absolute: bool = False


@dataclass(frozen=True)
class Tree:
    base: Path
    root: Path
    outside: Path


# --- systematic families ------------------------------------------------------------------


def _traversal() -> Iterator[Case]:
    for base in ["src/app/main.py", "a/b/c/d.txt", "docs/\ud55c\uae00/readme.md", "x"]:
        segs = base.split("/")
        for i, sep in product(range(len(segs) + 1), ("/", "\\")):
            yield Case(sep.join([*segs[:i], "..", *segs[i:]]), PathRule.TRAVERSAL)
        for i in range(len(segs)):
            yield Case("/".join([*segs[:i], "..", *segs[i + 1 :]]), PathRule.TRAVERSAL)
    for disguise, i in product(
        ["...", ".. ", "%2e%2e", "\uff0e\uff0e", "..\\", "....", ". ."], range(4)
    ):
        segs = ["a", "b", "c"]
        yield Case("/".join([*segs[:i], disguise, *segs[i:]]), PathRule.TRAVERSAL)
    for raw in [
        "..",
        "../",
        "..\\",
        "../../../etc/passwd",
        "..\\..\\Windows",
        "a\\../b",
        "a/..\\b",
    ]:
        yield Case(raw, PathRule.TRAVERSAL)


RESERVED = ["CON", "PRN", "AUX", "NUL", "COM0", "COM1", "COM9", "LPT1", "LPT9"]
RESERVED += ["COM\u00b9", "COM\u00b2", "COM\u00b3", "LPT\u00b9", "LPT\u00b3", "CONIN$", "CONOUT$"]
CASES = (str.upper, str.lower, str.capitalize)


def _reserved() -> Iterator[Case]:
    combos = product(RESERVED, ["", ".txt", ".tar.gz"], ["", " ", "."])
    for i, (name, ext, trail) in enumerate(combos):
        segment = CASES[i % 3](name) + ext + trail
        raw = segment if i % 2 == 0 else f"src/{segment}/x.py"
        yield Case(raw, PathRule.RESERVED_NAME)
    for raw in ["aux .c", "NUL  .txt", "src\\con\\x", "a/b/Lpt1.log", "nul.tar.gz.bak"]:
        yield Case(raw, PathRule.RESERVED_NAME)


CONTROLS = [chr(c) for c in range(1, 32)]
CONTROLS += ["\x7f", "\x85", "\x9b", "\u2028", "\u2029", "\u202e", "\u202a", "\u200e"]
CONTROLS += ["\u200f", "\u2066", "\u2069", "\u061c", "\ufeff"]


def _text() -> Iterator[Case]:
    for i, ch in enumerate(CONTROLS):
        yield Case(["src/a{}b.py", "x{}", "dir{}/file"][i % 3].format(ch), PathRule.CONTROL_CHAR)
    for raw in ["a\x00b", "src/a.py\x00.txt", "\x00", "\x00/etc/passwd"]:
        yield Case(raw, PathRule.NUL_BYTE)
    for raw in ["a\udc80b", "src/\udcff.py", "\ud800"]:
        yield Case(raw, PathRule.INVALID_ENCODING)


# Zero-width and other invisible code points: "a\u200b.py" looks exactly like "a.py".
INVISIBLES = ["\u200b", "\u200c", "\u200d", "\u2060", "\u2063", "\u00ad", "\u034f"]
INVISIBLES += ["\u180e", "\u3164", "\uffa0", "\u115f", "\ufe0f", "\U000e0041", "\U000e0001"]
INVISIBLES += ["\u206a", "\u17b4", "\U0001d173", "\ufff9"]


def _invisible() -> Iterator[Case]:
    for i, ch in enumerate(INVISIBLES):
        for shape in ["src/a{}b.py", "{}x.py", "x.py{}", "dir{}/file", "{}/file"]:
            yield Case(shape.format(ch), PathRule.INVISIBLE_CHARACTER)
        yield Case(["a\\b{}.txt", "a/{}{}/b"][i % 2].format(ch, ch), PathRule.INVISIBLE_CHARACTER)


def _drives() -> Iterator[Case]:
    for letter in "ACDZcz":
        yield Case(f"{letter}:\\x\\y.txt", PathRule.ABSOLUTE_NOT_ALLOWED)
        yield Case(f"{letter}:/x/y.txt", PathRule.WINDOWS_DRIVE, allow_absolute=True)
        yield Case(f"{letter}:y.txt", PathRule.WINDOWS_DRIVE)


def _from_file() -> Iterator[Case]:
    for row in corpus_rows("hostile.jsonl"):
        yield Case(str(row["path"]), PathRule(row["rule"]), bool(row["allow_absolute"]))


HOSTILE = [*_from_file(), *_traversal(), *_reserved(), *_text(), *_invisible(), *_drives()]
BENIGN = [(str(r["path"]), str(r["expect"])) for r in corpus_rows("benign.jsonl")]


# --- the project tree ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Tree:
    """A project folder with real symlinks that stay inside, escape or loop."""
    base = Path(os.path.realpath(tmp_path_factory.mktemp("paths")))
    root, outside = base / "project", base / "outside"
    for folder in ["src", ".git", ".vibflow", "node_modules/pkg", "docs"]:
        (root / folder).mkdir(parents=True, exist_ok=True)
    for file in ["src/a.py", ".git/config", ".vibflow/runs.db", "node_modules/pkg/index.js"]:
        (root / file).write_text("x\n", encoding="utf-8")
    outside.mkdir()
    (outside / "secret.txt").write_text("secret\n", encoding="utf-8")
    plant_links(root, outside)
    return Tree(base, root, outside)


def _expand(raw: str, tree: Tree) -> str:
    return raw.replace("<ROOT>", str(tree.root)).replace("<OUTSIDE>", str(tree.outside))


def assert_private(exc: PathRejected, tree: Tree) -> None:
    text = str(exc) + json.dumps(exc.to_json(), ensure_ascii=False)
    forbidden = {str(tree.base), str(tree.root), str(tree.outside), str(Path("~").expanduser())}
    user = getpass.getuser()
    if len(user) > 3:
        forbidden.add(user)
    leaked = [word for word in forbidden if word in text]
    assert not leaked, f"message leaks {leaked}: {text}"


# --- tests --------------------------------------------------------------------------------


def test_corpus_is_large_and_covers_every_rule() -> None:
    """The corpus holds at least 200 hostile and 30 benign inputs and exercises every rule."""
    assert len(HOSTILE) >= 200
    assert len(BENIGN) >= 30
    assert {case.rule for case in HOSTILE} == set(PathRule) - RESTORE_ONLY


def test_a_restore_refuses_a_decomposed_name_the_contract_accepts(tree: Tree) -> None:
    """``cafe\u0301.py`` passes the contract (stored composed, as ``café.py``); a
    restore, which must write the very name git lists, refuses it by its rule."""
    nfd = "cafe\u0301.py"
    assert canonicalize(nfd, tree.root).relative == "caf\u00e9.py"
    refused = restore_refusal(nfd)
    assert refused is not None
    assert refused.rule is PathRule.DECOMPOSED_FORM
    assert refused.code is ErrorCode.BAD_INPUT
    assert restore_refusal("caf\u00e9.py") is None
    assert restore_refusal("src/app.py") is None


@pytest.mark.parametrize("case", HOSTILE, ids=lambda c: f"{c.rule.value}:{c.path[:40]!r}")
def test_hostile_input_is_rejected_by_its_rule_without_leaking(case: Case, tree: Tree) -> None:
    """Each hostile input is refused by the expected rule; the message hides every local path."""
    with pytest.raises(PathRejected) as info:
        canonicalize(_expand(case.path, tree), tree.root, allow_absolute=case.allow_absolute)
    exc = info.value
    assert exc.rule is case.rule, f"{case.path!r}: expected {case.rule}, got {exc.rule}: {exc}"
    assert exc.code is ErrorCode.BAD_INPUT
    assert exc.code.outcome is Outcome.BAD_INPUT
    assert f"({case.rule.value})" in str(exc)
    assert_private(exc, tree)


@pytest.mark.parametrize(("raw", "expected"), BENIGN, ids=[repr(b[0])[:40] for b in BENIGN])
def test_benign_input_is_accepted_exactly(raw: str, expected: str, tree: Tree) -> None:
    """Each benign input is accepted with exactly the expected POSIX, NFC relative path."""
    path = canonicalize(raw, tree.root)
    assert path.relative == expected
    assert path.display == expected
    assert not path.was_absolute_input
    assert path.absolute == tree.root.joinpath(*expected.split("/"))


def test_a_link_to_an_invisible_name_is_rejected(tree: Tree) -> None:
    """A link whose target's name holds a zero-width space is refused like the name itself
    (the target is a name the user never saw)."""
    (tree.root / "src" / "a\u200b.py").write_text("x\n", encoding="utf-8")
    link = tree.root / "looks_like_a"
    link.symlink_to("src/a\u200b.py")
    try:
        with pytest.raises(PathRejected) as info:
            canonicalize("looks_like_a", tree.root)
        assert info.value.rule is PathRule.INVISIBLE_CHARACTER
    finally:
        link.unlink()
        (tree.root / "src" / "a\u200b.py").unlink()


def test_absolute_names_are_never_quoted(tree: Tree) -> None:
    """A rejected absolute input never quotes even its offending name (its folders came along)."""
    with pytest.raises(PathRejected) as info:
        canonicalize(f"{tree.root}/src/CON", tree.root, allow_absolute=True)
    assert "'CON'" not in str(info.value)
    assert "a name in the path" in str(info.value)
    with pytest.raises(PathRejected) as info:
        canonicalize("src/CON", tree.root)
    assert "'CON'" in str(info.value)


def test_private_words_are_never_quoted(tree: Tree) -> None:
    """A relative name containing the username is described, not quoted."""
    user = getpass.getuser()
    with pytest.raises(PathRejected) as info:
        canonicalize(f"src/{user}.txt.", tree.root)
    assert info.value.rule is PathRule.TRAILING_DOT_OR_SPACE
    assert user not in str(info.value) or len(user) < 3
