"""Names a change defines in one file and uses in another: what counts as a
definition per language family, that only distinctive names count, and that a name
both sides merely use (a framework call pasted twice) links nothing."""

from __future__ import annotations

import pytest

from vibflow.steps.recovery.shared_names import added, defined, link, used


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("    fun setDarkTheme(enabled: Boolean) {", "setDarkTheme"),
        ("    val darkTheme = prefs.darkTheme.stateIn(scope)", "darkTheme"),
        ("def apply_discount(cart):", "apply_discount"),
        ("export const formatPrice = (n) => n", "formatPrice"),
        ("func (s *Store) OrdersByCustomer(id string) {", "OrdersByCustomer"),
        ("    public async Task<Invoice> FindInvoice(int id)", "FindInvoice"),
        ('resource "aws_db_instance" "replica" {', "replica"),
        ('output "replica_endpoint" {', "replica_endpoint"),
        ('    <string name="settings_dark_theme">Dark theme</string>', "settings_dark_theme"),
        ("  defp deliver_welcome(user) do", "deliver_welcome"),
    ],
)
def test_definitions_per_language_family(line: str, name: str) -> None:
    """Declaration keywords, typed method heads, Go methods, Terraform blocks and
    name attributes each define their name."""
    assert name in defined([line])


def test_ordinary_and_short_names_do_not_count() -> None:
    """Everyday names (value, result, render) and names under 5 characters are no link."""
    assert defined(["const value = 1", "def render(x):", "let abc = 2"]) == frozenset()
    assert "render" not in used(["render(value)"])


def test_a_defined_name_used_elsewhere_links_a_shared_call_does_not() -> None:
    """The screen uses what the view model's change defines; two controllers that
    both call NotFound() are not linked."""
    vm_added = ["    fun setDarkTheme(enabled: Boolean) {}"]
    screen_added = ["Switch(onCheckedChange = viewModel::setDarkTheme)"]
    assert link(screen_added, defined(vm_added), used(vm_added)) == ("uses", "setDarkTheme")
    assert link(vm_added, defined(screen_added), used(screen_added)) == (
        "defines",
        "setDarkTheme",
    )
    a = ["if (invoice is null) return NotFound();"]
    b = ["if (customer is null) return NotFound();"]
    assert link(b, defined(a), used(a)) is None


def test_added_lines_are_the_new_ones() -> None:
    """Only lines the old text lacks are added; a new file's lines all are."""
    assert added("a\nb\n", "a\nc\nb\n") == ["c"]
    assert added(None, "x\ny\n") == ["x", "y"]


def test_settings_keys_define_names_only_in_settings_files() -> None:
    """A new dependency key in Cargo.toml is defined there and used by the code's new
    `use serde::…`; the same `name = value` line in code or Terraform defines nothing."""
    toml = ['serde = { version = "1", features = ["derive"] }']
    code = ["use serde::Serialize;"]
    assert link(toml, frozenset(), used(code), keys=True) == ("defines", "serde")
    assert link(toml, frozenset(), used(code)) is None
    assert defined(["replica_count = 1"]) == frozenset()


def test_a_dotted_declaration_defines_its_last_part_not_the_namespace() -> None:
    """`module Ledger.Report`, `defmodule Shop.RateLimiter`, `function M.open_note`
    define Report, RateLimiter and open_note: the namespace before them is every file's, so a
    module that only uses `Ledger.Config` is not linked to the one that defines
    `Ledger.Report`."""
    report = ["module Ledger.Report (renderJson) where", "defmodule Shop.RateLimiter do"]
    names = defined(report)
    assert {"Report", "RateLimiter"} <= names
    assert not names & {"Ledger", "Shop"}
    config = ["import qualified Ledger.Config as Config", "  Ledger.Config.load path"]
    assert link(config, defined(report), used(report)) is None
    assert defined(["function M.open_note(opts)"]) == frozenset({"open_note"})
