"""Choosing some of a numbered file list from one typed answer (the guided restore)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vibflow.cli.file_pick import PickError, matches, pick

FILES = [
    "config.yaml",
    "src/app.py",
    "src/ui/login.py",
    "src/ui/forms/field.py",
    "tests/test_login.py",
    "docs/café.md",
    "README",
]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("", FILES),
        ("all", FILES),
        ("1-2,5", ["config.yaml", "src/app.py", "tests/test_login.py"]),
        ("3 - 1", ["config.yaml", "src/app.py", "src/ui/login.py"]),
        ("2 2 2", ["src/app.py"]),
        ("src/**", ["src/app.py", "src/ui/login.py", "src/ui/forms/field.py"]),
        ("src/*", ["src/app.py"]),
        ("src/ui", ["src/ui/login.py", "src/ui/forms/field.py"]),
        ("*.py", ["src/app.py", "src/ui/login.py", "src/ui/forms/field.py", "tests/test_login.py"]),
        ("**/login.py", ["src/ui/login.py"]),
        ("src/**/field.py", ["src/ui/forms/field.py"]),
        ("src/**,!src/ui/**", ["src/app.py"]),
        ("!*.py", ["config.yaml", "docs/café.md", "README"]),
        ("docs/caf?.md, 7", ["docs/café.md", "README"]),
        ("5,1", ["config.yaml", "tests/test_login.py"]),
    ],
)
def test_answers_select_files_in_list_order(answer: str, expected: list[str]) -> None:
    """Numbers, ranges, globs and exclusions select files, kept in the listed order."""
    chosen = pick(answer, FILES)
    assert list(chosen.paths) == expected
    assert chosen.every == (expected == FILES)


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ("8", "'8' is out of range: the files are numbered 1-7"),
        ("0-2", "'0-2' is out of range"),
        ("lib/**", "'lib/**' is not a number, a range or a glob matching any of these files"),
        ("restore", "'restore' is not a number"),
        ("all,!*", "that leaves no file to restore"),
    ],
)
def test_an_answer_that_selects_nothing_says_why(answer: str, message: str) -> None:
    """A typo is an error with the reason, so the prompt can ask again."""
    with pytest.raises(PickError, match=message.replace("*", r"\*").replace("(", r"\(")):
        pick(answer, FILES)


def test_a_star_does_not_cross_folders_but_two_do() -> None:
    """`*` stays inside one folder, `**` crosses them, like .gitignore."""
    assert matches("src/*.py", "src/app.py")
    assert not matches("src/*.py", "src/ui/login.py")
    assert matches("src/**.py", "src/ui/login.py")
    assert not matches("src/?", "src/ab")
    assert matches("[x].py", "[x].py")  # brackets are literal, not a class


# File names a person can type as one token: no separators, no `!`, no `/`.
names = st.lists(
    st.text(min_size=1, max_size=8).filter(lambda s: not re.search(r"[\s,!/]", s)),
    min_size=1,
    max_size=12,
    unique=True,
)


@given(names, st.data())
def test_a_range_picks_exactly_those_numbers(paths: list[str], data: st.DataObject) -> None:
    """`a-b` picks the files numbered a to b, whatever their names."""
    first = data.draw(st.integers(1, len(paths)))
    last = data.draw(st.integers(first, len(paths)))
    assert list(pick(f"{first}-{last}", paths).paths) == paths[first - 1 : last]


@given(names)
def test_every_literal_name_picks_itself(paths: list[str]) -> None:
    """A file's own name (with no glob characters) always selects that file."""
    for path in paths:
        if not re.search(r"[*?]", path) and not re.fullmatch(r"\d+(-\d+)?", path):
            assert path in pick(path, paths).paths
