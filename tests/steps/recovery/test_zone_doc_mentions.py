"""The documentation pages' evidence, read from a real repository: only the lines a
page *added* count, only prose pages are read (plain text only in a docs folder), and
a page that already used the intent's word (its subject, not this change's) is no
evidence even when a new line repeats it."""

from __future__ import annotations

from pathlib import Path

from vibflow_testing.recovery_inputs import changed
from vibflow_testing.repo import init_repo, write

from vibflow.steps.recovery.evidence_read import gather, is_doc_page
from vibflow.steps.recovery.zone_policy import ZonePolicy
from vibflow.steps.workspace.git import Git


def test_pages_are_prose_files() -> None:
    """Markdown, reST and AsciiDoc anywhere; .txt only under a docs folder."""
    assert is_doc_page("README.md")
    assert is_doc_page("docs/guide/setup.rst")
    assert is_doc_page("docs/notes.txt")
    assert is_doc_page("doc/a.adoc")
    assert not is_doc_page("app/templates/email/reset.txt")
    assert not is_doc_page("src/retry.py")


def test_only_added_lines_of_pages_mention_the_intent(tmp_path: Path) -> None:
    """A page that adds a line with the intent's word is evidence; one that already
    had the word is not, even when its new line repeats it; code and templates are
    not read."""
    root = init_repo(
        tmp_path / "repo",
        {
            "docs/config.md": "# Config\n",
            "docs/faq.md": "# FAQ\n\nRaise `retry` when requests fail.\n",
            "docs/install.md": "# Install\n",
            "templates/mail.txt": "hello\n",
            "src/retry.py": "N = 3\n",
        },
    )
    write(root, "docs/install.md", "# Install\n\nSet `retry` for flaky networks.\n")
    write(root, "docs/new.md", "# Retry budget\n")
    write(root, "docs/faq.md", "# FAQ\n\nRaise `retry` when requests fail.\n\nRetry twice.\n")
    write(root, "templates/mail.txt", "retry later\n")
    write(root, "src/retry.py", "N = 5  # retry count\n")
    files = [
        changed("docs/faq.md"),
        changed("docs/install.md"),
        changed("docs/new.md", "untracked"),
        changed("templates/mail.txt"),
        changed("src/retry.py"),
    ]
    ev = gather(root, Git(root), files, {}, "Document the retry setting", ZonePolicy(), (), ())
    assert dict(ev.mentions) == {"docs/install.md": ("retry",), "docs/new.md": ("retry",)}
