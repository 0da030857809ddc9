"""Privacy: paths under the root become project-relative, home becomes ``~``, other local
absolute paths become ``<PATH>``, private addresses, internal hosts, the user name and
the machine's host are masked; relative and non-local paths and generic account names
stay.

Part of the redaction contract (DESIGN §4.7); the planted secrets are in
``vibflow_testing.redaction``."""

from __future__ import annotations

from pathlib import Path

import pytest
from vibflow_testing.redaction import red

from vibflow.steps.redaction import (
    redact_text,
)
from vibflow.steps.redaction.privacy import PrivacyContext, filter_privacy

# --- privacy ---------------------------------------------------------------------------


def test_paths_under_root_become_project_relative(tmp_path: Path) -> None:
    """<root>/src/a.py -> src/a.py; the root itself -> '.'; a sibling is not the root."""
    root = tmp_path / "proj"
    out = red(f'File "{root}/src/a.py", line 3 in {root} and {root}2/x', root=root)
    assert out.startswith('File "src/a.py", line 3 in . and ')
    assert str(root) not in out


def test_home_becomes_tilde(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The home directory is written as ~ (and counted as a privacy hit)."""
    home = tmp_path / "home" / "alice"
    monkeypatch.setenv("HOME", str(home))
    result = redact_text(f"saved to {home}/notes/todo.md")
    assert result.value == "saved to ~/notes/todo.md"
    assert result.counts.privacy_hits == 1


@pytest.mark.parametrize(
    "text",
    [
        "/Users/bob/Library/Caches/x.log",
        "/home/carol/.ssh/config",
        "/tmp/pytest-of-dan/x"  # noqa: S108 -- a path to mask, not one we use,
        "/var/folders/xy/T/abc",
        "/mnt/c/Users/erin/proj",
        r"C:\Users\frank\proj\src\a.py",
        "C:/Users/frank/proj",
        r"\\fileserver\share\reports\q3.xlsx",
        "file:///Users/bob/x.html",
    ],
)
def test_other_absolute_local_paths_become_PATH(text: str) -> None:
    """Absolute local paths (POSIX user/system roots, Windows drives, UNC) become [PATH]."""
    out = red(f"open {text} now")
    assert "[PATH]" in out
    for name in ("bob", "carol", "dan", "erin", "frank", "fileserver"):
        assert name not in out


@pytest.mark.parametrize(
    "text",
    [
        "src/a.py",
        "./scripts/build.sh",
        "GET /api/v1/users/42",
        "https://example.com/home/docs",
        "#!/usr/bin/env python3",
        "2>/dev/null",
        "and/or 1/2",
        "~/notes/todo.md",
    ],
)
def test_relative_and_non_local_paths_stay(text: str) -> None:
    """Project-relative paths, URL paths, routes and well-known device paths are kept."""
    assert red(text) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("db at 10.1.2.3:5432", "db at [PRIVATE_IP]:5432"),
        ("172.20.0.5 and 192.168.1.10", "[PRIVATE_IP] and [PRIVATE_IP]"),
        ("listening on 127.0.0.1:8000", "listening on [PRIVATE_IP]:8000"),
        ("link 169.254.169.254", "link [PRIVATE_IP]"),
        ("ula fd12:3456:789a::1 and fe80::1%eth0", "ula [PRIVATE_IP] and [PRIVATE_IP]"),
        ("loopback ::1 only", "loopback [PRIVATE_IP] only"),
        ("public 8.8.8.8 and 172.32.0.1", "public 8.8.8.8 and 172.32.0.1"),
        ("version 10.0.0.1 shipped", "version 10.0.0.1 shipped"),
        ("ssh build01.corp then db.prod.internal", "ssh [INTERNAL_HOST] then [INTERNAL_HOST]"),
        ("http://jenkins:8080/job/x", "http://[INTERNAL_HOST]:8080/job/x"),
        ("https://wiki/Runbook", "https://[INTERNAL_HOST]/Runbook"),
        ("http://localhost:3000/", "http://localhost:3000/"),
        ("mail ops@acme.io now", "mail [EMAIL] now"),
        ("git@github.com:acme/w.git", "git@github.com:acme/w.git"),
        ("threading.local() and .env.local", "threading.local() and .env.local"),
    ],
)
def test_private_addresses_and_internal_hosts(text: str, expected: str) -> None:
    """Private IPv4/IPv6, internal host names, bare intranet URL hosts and e-mails are masked."""
    assert red(text) == expected


def test_username_and_machine_host_are_masked() -> None:
    """The user's own name and an unmistakable machine host name are masked as words."""
    ctx = PrivacyContext(names=("alice",), hosts=("alices-mbp-2",))
    out, hits = filter_privacy("alice@alices-mbp-2:~$ whoami -> alice (malice stays)", ctx)
    assert out == "[USER]@[INTERNAL_HOST]:~$ whoami -> [USER] (malice stays)"
    assert hits == 3


def test_generic_account_names_are_not_masked() -> None:
    """A generic account name (root, runner, ...) is never masked as a word."""
    ctx = PrivacyContext.for_root(None)
    assert "root" not in ctx.names
    assert "runner" not in ctx.names
