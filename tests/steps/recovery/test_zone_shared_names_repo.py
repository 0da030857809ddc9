"""Shared names read from a real repository: only lines the change added count on
both sides, so a file that always used a name the explicit file defines is not
linked by it, while one whose change starts using a newly defined name is."""

from __future__ import annotations

from pathlib import Path

from vibflow_testing.recovery_inputs import changed
from vibflow_testing.repo import init_repo, write

from vibflow.steps.recovery.evidence_read import gather
from vibflow.steps.recovery.zone_policy import ZonePolicy
from vibflow.steps.workspace.git import Git


def test_names_new_on_both_sides_link_old_ones_do_not(tmp_path: Path) -> None:
    """The view model's change defines setDarkTheme, which the screen's new line
    uses; the about screen always used loadAbout (defined before) and is not linked;
    the strings file defines the new key the screen now reads."""
    root = init_repo(
        tmp_path / "repo",
        {
            "ui/SettingsScreen.kt": (
                "fun SettingsScreen(vm: SettingsViewModel) {\n  vm.loadAbout()\n}\n"
            ),
            "ui/SettingsViewModel.kt": "class SettingsViewModel {\n  fun loadAbout() {}\n}\n",
            "ui/AboutScreen.kt": "fun AboutScreen(vm: SettingsViewModel) {\n  vm.loadAbout()\n}\n",
            "res/strings.xml": '<resources>\n<string name="about">About</string>\n</resources>\n',
        },
    )
    write(
        root,
        "ui/SettingsScreen.kt",
        "fun SettingsScreen(vm: SettingsViewModel) {\n  vm.loadAbout()\n"
        "  Switch(onChange = vm::setDarkTheme, label = R.string.dark_theme_label)\n}\n",
    )
    write(
        root,
        "ui/SettingsViewModel.kt",
        "class SettingsViewModel {\n  fun loadAbout() {}\n  fun setDarkTheme(on: Boolean) {}\n}\n",
    )
    write(
        root,
        "ui/AboutScreen.kt",
        "fun AboutScreen(vm: SettingsViewModel) {\n  vm.loadAbout() // v2\n}\n",
    )
    write(
        root,
        "res/strings.xml",
        '<resources>\n<string name="about">About</string>\n'
        '<string name="dark_theme_label">Dark theme</string>\n</resources>\n',
    )
    files = [
        changed("ui/SettingsScreen.kt"),
        changed("ui/SettingsViewModel.kt"),
        changed("ui/AboutScreen.kt"),
        changed("res/strings.xml"),
    ]
    seeds = {"ui/SettingsScreen.kt": ["ui/SettingsScreen.kt"]}
    ev = gather(root, Git(root), files, seeds, "Add a dark theme switch", ZonePolicy(), (), ())
    assert dict(ev.shared) == {
        "ui/SettingsViewModel.kt": ("ui/SettingsScreen.kt", "defines", "setDarkTheme"),
        "res/strings.xml": ("ui/SettingsScreen.kt", "defines", "dark_theme_label"),
    }
