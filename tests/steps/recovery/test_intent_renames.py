"""The renames an intent asks for, and the changes that carry them out (pure)."""

from __future__ import annotations

from vibflow.steps.recovery.intent_renames import asked, paired, rewrites, spellings


def test_the_rename_an_intent_asks_is_read_in_its_usual_phrasings() -> None:
    assert asked("Rename Tooltip to Popover (it holds interactive content now)") == (
        ("Tooltip", "Popover"),
    )
    assert asked("renaming the `fetchUser` helper to `loadUser`, then tests") == (
        ("fetchUser", "loadUser"),
    )
    assert asked("Rename orders_api into orders_service.") == (("orders_api", "orders_service"),)
    assert asked("renamed Cart as Basket; keep the API") == (("Cart", "Basket"),)


def test_no_rename_is_read_where_none_is_asked() -> None:
    assert asked("Add a CSV export button to the monthly report screen") == ()
    assert asked("rename it to x") == ()  # too short to stand for a name
    assert asked("Rename Foo to foo") == ()  # only the case changes


def test_a_deleted_file_and_the_new_one_named_after_the_rename_are_paired() -> None:
    pairs = spellings([("Tooltip", "Popover")])
    found = paired(
        ["src/Tooltip.test.ts", "docs/tooltip/+page.svelte", "src/Dialog.svelte"],
        ["src/Popover.test.ts", "docs/popover/+page.svelte", "src/Other.svelte"],
        pairs,
    )
    assert found["src/Tooltip.test.ts"] == ("src/Popover.test.ts", "Tooltip", "Popover")
    assert found["docs/popover/+page.svelte"][0] == "docs/tooltip/+page.svelte"
    assert "src/Dialog.svelte" not in found
    assert "src/Other.svelte" not in found


def test_a_line_that_comes_back_renamed_and_nothing_else() -> None:
    pairs = spellings([("Tooltip", "Popover")])
    assert rewrites(
        ['  <a href="/docs/tooltip">Tooltip</a>'], ['  <a href="/docs/popover">Popover</a>'], pairs
    ) == ("Tooltip", "Popover")
    # Renamed and changed besides: no evidence.
    assert (
        rewrites(
            ["export { Tooltip } from './Tooltip';"],
            ["export { Popover, X } from './Popover';"],
            pairs,
        )
        is None
    )
    assert rewrites(["const a = 1;"], ["const a = 2;"], pairs) is None
