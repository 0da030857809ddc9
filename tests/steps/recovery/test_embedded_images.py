"""Images a page in scope shows are part of that page's change (``embedded``).

Real repositories, the real CLI (``vibflow recover --explain --json``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from vibflow_testing.advisor import commit_app, drift_of, recover, set_memory, zone_of
from vibflow_testing.cli import Cli
from vibflow_testing.repo import write

from vibflow.steps.recovery.embedded import is_image

pytestmark = pytest.mark.cli

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(64))


def test_an_image_the_page_in_scope_names_is_in_scope(repo: Path, cli: Cli) -> None:
    """The how-to you are writing shows a new figure: the figure is in scope. An
    image only a drifted file names, and one nothing names, stay drift."""
    commit_app(
        repo,
        {
            "docs/howto/subset.rst": "Subset\n======\n",
            "docs/blog/post.md": "# Post\n",
            "docs/conf.py": "project = 'x'\n",
        },
    )
    set_memory(repo, explicit={"docs/howto/subset.rst": "the how-to"})
    write(repo, "docs/howto/subset.rst", "Subset\n======\n\n.. figure:: /_static/subset.png\n")
    write(repo, "docs/_static/subset.png", PNG)
    write(repo, "docs/blog/post.md", "# Post\n\n![hero](../_static/hero.webp)\n")
    write(repo, "docs/_static/hero.webp", PNG)
    write(repo, "docs/_static/unused.gif", PNG)
    plan = recover(cli, "--explain")
    assert zone_of(plan)["docs/_static/subset.png"] == "reference"
    assert {"docs/blog/post.md", "docs/_static/hero.webp", "docs/_static/unused.gif"} <= drift_of(
        plan
    )


def test_what_counts_as_an_image() -> None:
    assert is_image("a/b/Logo.PNG")
    assert is_image("x.svg")
    assert not is_image("png")
    assert not is_image("docs/figure.png.md")
