"""A manifest in scope for the dependency the change needs does not hide the rest of
its change: the lines no needed dependency explains (the package's own version
bumped beside it, a library nothing imports, a removed entry) are named, while a
comma that moved, a block opened for the new entry and the entry itself are not."""

from __future__ import annotations

import pytest

from vibflow.steps.recovery import dependencies

PACKAGE_BEFORE = """{
  "name": "shop-api",
  "version": "1.2.0",
  "dependencies": {
    "express": "^4.18.2"
  }
}
"""


def _rest(old: str, new: str, import_line: str, *, manifest: bool = True) -> list[str]:
    imports = dependencies.imported([import_line])
    known = dependencies.names_in(old)
    return dependencies.unexplained(old, new, imports, manifest=manifest, known=known)


def test_a_version_bump_beside_the_dependency_is_named() -> None:
    """package.json: the new entry and the comma it moved are explained; the bumped
    version, both sides, is not."""
    new = PACKAGE_BEFORE.replace('"1.2.0"', '"1.3.0"').replace(
        '"^4.18.2"', '"^4.18.2",\n    "express-rate-limit": "^7.1.5"'
    )
    got = _rest(PACKAGE_BEFORE, new, "const rateLimit = require('express-rate-limit');")
    assert got == ['- "version": "1.2.0"', '+ "version": "1.3.0"']


def test_only_the_dependency_leaves_nothing_to_review() -> None:
    """The same change without the bump: nothing unexplained."""
    new = PACKAGE_BEFORE.replace('"^4.18.2"', '"^4.18.2",\n    "express-rate-limit": "^7.1.5"')
    assert _rest(PACKAGE_BEFORE, new, "const rateLimit = require('express-rate-limit');") == []


@pytest.mark.parametrize(
    ("old", "new", "import_line", "expected"),
    [
        (  # Cargo.toml: a new [dependencies] block is structure; the version is not
            '[package]\nname = "cli"\nversion = "0.4.0"\n',
            '[package]\nname = "cli"\nversion = "0.5.0"\n\n[dependencies]\nserde_json = "1"\n',
            "use serde_json::Value;",
            ['- version = "0.4.0"', '+ version = "0.5.0"'],
        ),
        (  # go.mod: a require block opened for the module
            "module example.com/svc\n\ngo 1.21\n",
            "module example.com/svc\n\ngo 1.22\n\nrequire (\n\tgithub.com/google/uuid v1.6.0\n)\n",
            '\t"github.com/google/uuid"',
            ["- go 1.21", "+ go 1.22"],
        ),
        (  # requirements.txt: a second library that nothing imports
            "django==5.0\n",
            "django==5.0\ndjango-filter==24.2\nrequests==2.32\n",
            "from django_filters.rest_framework import DjangoFilterBackend",
            ["+ requests==2.32"],
        ),
        (  # pyproject.toml: a dependency taken out beside the one put in
            'dependencies = [\n  "httpx",\n  "rich",\n]\n',
            'dependencies = [\n  "httpx",\n  "typer",\n]\n',
            "import typer",
            ['- "rich"'],
        ),
        (  # a bump of a library that was already there is no new dependency
            "fastapi==0.109\n",
            "fastapi==0.110\nslowapi==0.1.9\n",
            "from slowapi import Limiter",
            ["- fastapi==0.109", "+ fastapi==0.110"],
        ),
    ],
)
def test_each_ecosystems_other_lines(
    old: str, new: str, import_line: str, expected: list[str]
) -> None:
    """Each manifest's lines that the new import does not explain, and only those."""
    assert _rest(old, new, import_line) == expected


def test_a_settings_file_too() -> None:
    """settings.py: the app registered for the import is explained; DEBUG is not."""
    old = 'DEBUG = False\nINSTALLED_APPS = [\n    "shop",\n]\n'
    new = 'DEBUG = True\nINSTALLED_APPS = [\n    "shop",\n    "django_filters",\n]\n'
    got = _rest(old, new, "import django_filters", manifest=False)
    assert got == ["- DEBUG = False", "+ DEBUG = True"]


def test_an_entry_rewritten_for_the_dependency_goes_with_it() -> None:
    """Cargo.toml: chrono's line rewritten to enable its serde feature is part of
    adding serde, old side and new; a crate the change only uses by path
    (``serde_json::to_string``) explains its line too; the version does not."""
    old = '[package]\nversion = "0.3.0"\n\n[dependencies]\nchrono = "0.4"\n'
    new = (
        '[package]\nversion = "0.4.0"\n\n[dependencies]\n'
        'chrono = { version = "0.4", features = ["serde"] }\n'
        'serde = { version = "1", features = ["derive"] }\nserde_json = "1"\n'
    )
    added = ["use serde::Serialize;", '    println!("{}", serde_json::to_string(&t)?);']
    explaining = {**dependencies.used(added), **dependencies.imported(added)}
    got = dependencies.unexplained(
        old, new, explaining, manifest=True, known=dependencies.names_in(old)
    )
    assert got == ['- version = "0.3.0"', '+ version = "0.4.0"']
