"""A verification's freshness at the boundary: recorded at or after the last edit it
covers is fresh, an edit after it is stale, and when the records' precision cannot
order the two (an old seconds-only stamp and an edit in that same second) it is
unsure — said so, never called stale."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pytest
from vibflow_testing.repo import init_repo

from vibflow.engine.clock import parse_stamp, stamp
from vibflow.steps.memory.facts import SECOND_NS, FileTime
from vibflow.steps.memory.freshness import order, stamp_window, verification_freshness
from vibflow.steps.memory.models import Verification
from vibflow.steps.workspace.repo_facts import GitRepoFacts

S = SECOND_NS
US = 1_000
T = 1_790_000_000 * S  # a whole second
SECOND = datetime.fromtimestamp(1_790_000_000, UTC)
WHOLE = SECOND.isoformat(timespec="seconds").replace("+00:00", "Z")  # an older record's stamp


@pytest.mark.parametrize(
    ("ran", "ran_precision", "edit", "expected"),
    [
        # a microsecond stamp against a nanosecond file time
        (T + 900_000 * US, US, FileTime("a", T + 100_000 * US), "before"),
        (T + 100_000 * US, US, FileTime("a", T + 900_000 * US), "after"),
        (T + 5 * US, US, FileTime("a", T + 5 * US - 1), "before"),  # the same instant
        (T + 5 * US, US, FileTime("a", T + 6 * US), "after"),
        (T + 5 * US, US, FileTime("a", T + 5 * US + 1), "unsure"),  # inside one microsecond
        # a seconds-only stamp: the whole second is the window
        (T, S, FileTime("a", T + 100_000 * US), "unsure"),
        (T, S, FileTime("a", T - 1), "before"),
        (T, S, FileTime("a", T + S), "after"),
        # a filesystem that keeps whole seconds
        (T + 500_000 * US, US, FileTime("a", T, S), "unsure"),
        (T + S, US, FileTime("a", T, S), "before"),
        (T - 1_000, US, FileTime("a", T, S), "after"),
        # a deleted file is always after
        (T, S, FileTime("a", None), "after"),
    ],
)
def test_order_at_the_boundary(ran: int, ran_precision: int, edit: FileTime, expected: str) -> None:
    """Each time is a window [t, t + precision); before/after only when they do not overlap."""
    assert order(ran, ran_precision, edit) == expected


def _at(root: Path, rel: str, ns: int) -> None:
    os.utime(root / rel, ns=(ns, ns))


def _verification(stamp: str) -> Verification:
    return Verification(command="pytest", timestamp=stamp, related_files=["a.py"])


def test_the_same_second_is_fresh_or_unsure_never_stale(tmp_path: Path) -> None:
    """Over a real file's time: a microsecond stamp after an edit in its second is
    fresh (it read as stale before); a seconds-only stamp in the edit's second is
    unsure with the reason; the next second's edit makes either stale."""
    root = init_repo(tmp_path / "r", {"a.py": "a = 1\n"})
    facts = GitRepoFacts(root)
    edit = 1_790_000_000 * S + 400_000 * US
    _at(root, "a.py", edit)
    precise = verification_freshness(
        _verification(stamp(SECOND.replace(microsecond=600_000))), facts
    )
    assert (precise.stale, precise.unsure) == (False, None)
    seconds = verification_freshness(_verification(WHOLE), facts)
    assert seconds.stale is False
    assert seconds.unsure is not None
    assert "same second" in seconds.unsure
    _at(root, "a.py", edit + S)
    for text in (stamp(SECOND.replace(microsecond=600_000)), WHOLE):
        later = verification_freshness(_verification(text), facts)
        assert later.stale is True, text
        assert later.reason == "1 related file(s) changed after it ran"


def test_a_file_time_in_whole_seconds_is_a_second_wide(tmp_path: Path) -> None:
    """A file time on the dot of a second is read as kept to the second."""
    root = init_repo(tmp_path / "r", {"a.py": "a\n", "b.py": "b\n"})
    _at(root, "a.py", T)
    _at(root, "b.py", T + 7)
    (root / "c.py").write_text("c\n")
    (root / "c.py").unlink()
    times = {t.path: t for t in GitRepoFacts(root).file_times(["a.py", "b.py", "c.py"])}
    assert times["a.py"] == FileTime("a.py", T, S)
    assert times["b.py"] == FileTime("b.py", T + 7, 1)
    assert times["c.py"] == FileTime("c.py", None)


@pytest.mark.parametrize(
    ("text", "precision"),
    [
        ("2026-09-21T14:13:20Z", S),
        ("2026-09-21T14:13:20.123Z", 1_000_000),
        ("2026-09-21T14:13:20.123456Z", US),
        ("2026-09-21T14:13:20.5+02:00", 100_000_000),
    ],
)
def test_a_stamp_is_as_fine_as_its_digits(text: str, precision: int) -> None:
    """A stamp kept to the millisecond is a millisecond wide, and so on."""
    ran = parse_stamp(text)
    assert ran is not None
    assert stamp_window(text, ran)[1] == precision
