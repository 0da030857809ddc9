"""The handoff budget: the text never exceeds it, by one character; cuts are
marked with what was left out and where to read it; the lowest-priority section
gives way first; the same sections always give the same text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from vibflow.steps.handoff.budget import ELLIPSIS, Section, fit


def _section(name: str, n: int, *, width: int = 30, share: float = 0.5) -> Section:
    items = tuple(f"- {name} item {i:03d} " + "x" * width for i in range(n))
    return Section(name, f"{name.title()}:", items, share, "items", "vibflow memory show")


def test_cut_mark_names_what_is_left_out_and_where() -> None:
    secs = [_section("intent", 1), _section("decisions", 40, share=1.0)]
    fitted, text = fit(secs, 900)
    decisions = fitted[1]
    assert decisions.truncated
    hidden = decisions.total - decisions.shown
    assert f"{ELLIPSIS} {hidden} more items, see vibflow memory show" in text
    assert len(text) <= 900


def test_lowest_priority_section_gives_way_first() -> None:
    # Shares of 1.0: only the total budget binds, not a section's own cap.
    secs = [_section(n, c, share=1.0) for n, c in (("intent", 1), ("decisions", 10), ("recap", 10))]
    fitted, text = fit(secs, 700)
    names = [f.name for f in fitted if f.shown]
    assert "intent" in names
    by = {f.name: f for f in fitted}
    # decisions only lose items once the recap has given all of its own up
    if by["decisions"].truncated:
        assert by["recap"].shown == 0
    assert len(text) <= 700


def test_caps_apply_per_section_before_the_total() -> None:
    secs = [_section("intent", 1), _section("decisions", 40, share=0.25)]
    fitted, _ = fit(secs, 4000)
    assert fitted[1].truncated
    assert len(fitted[1].text) <= 1000


def test_a_section_left_out_whole_is_named() -> None:
    secs = [_section(n, c, share=1.0) for n, c in (("intent", 1), ("decisions", 3), ("recap", 3))]
    _, text = fit(secs, 260)
    assert "left out for the budget: recap" in text
    assert len(text) <= 260


def test_an_item_longer_than_its_cap_is_shortened_at_a_character() -> None:
    long = "é" * 5000
    secs = [Section("intent", "Intent:", (long,), 0.2, "intent", "vibflow memory show")]
    _, text = fit(secs, 1000)
    assert len(text) <= 1000
    assert text.endswith(ELLIPSIS) or ELLIPSIS in text
    assert "é" in text  # whole characters only: nothing half-cut to decode


@settings(max_examples=150, deadline=None)
@given(
    counts=st.lists(st.integers(min_value=0, max_value=60), min_size=1, max_size=9),
    widths=st.integers(min_value=0, max_value=300),
    budget=st.integers(min_value=1, max_value=20_000),
    text=st.text(min_size=0, max_size=40),
)
def test_never_over_budget_and_deterministic(
    counts: list[int], widths: int, budget: int, text: str
) -> None:
    secs = [
        Section(
            f"s{i}",
            f"S{i}:",
            tuple(f"- {text} {j} " + "y" * widths for j in range(n)),
            0.3,
            "things",
            "vibflow memory show",
            empty="(none)" if i == 0 else None,
        )
        for i, n in enumerate(counts)
    ]
    fitted, whole = fit(secs, budget)
    assert len(whole) <= budget
    assert fit(secs, budget) == (fitted, whole)
    for f in fitted:
        if 0 < f.shown < f.total:
            # the mark is there, unless the whole text had to be shortened itself
            assert f"{f.total - f.shown} more things" in whole or whole.endswith("…")
