"""A payload's strings are scanned together; the result must equal scanning each alone.

``redact_payload`` first scans all of a payload's single-line strings as the
lines of one document (``secrets.clean_texts``) and skips the per-string
secret scan for those found clean. These tests hold that shortcut to the
per-string answer (``redact_text`` of each string) on the whole redaction
corpus and on generated mixes of secrets, near misses and ordinary paths.
"""

from __future__ import annotations

import getpass
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from vibflow_testing import REDACTION_CORPUS

from vibflow.steps.redaction import redact_payload, redact_text
from vibflow.steps.redaction.secrets import clean_texts

CORPUS = REDACTION_CORPUS
MARK = re.compile(r"⟦([a-z0-9_]+)\|(.*?)⟧", re.DOTALL)


def corpus_lines() -> list[str]:
    lines: list[str] = []
    for folder in ("secrets", "near_misses"):
        for path in sorted((CORPUS / folder).iterdir()):
            text = MARK.sub(lambda m: m.group(2), path.read_text(encoding="utf-8"))
            lines += [line for line in text.splitlines() if line.strip()]
    return lines


LINES = corpus_lines()
PATHS = [f"src/ui/pkg{i:04d}/mod_{i:06d}.py" for i in range(40)]


def one_by_one(strings: list[str]) -> tuple[list[str], int]:
    values, hits = [], 0
    for text in strings:
        red = redact_text(text)
        values.append(str(red.value))
        hits += red.counts.secret_hits
    return values, hits


def assert_same_as_alone(strings: list[str]) -> None:
    together = redact_payload(strings)
    alone, hits = one_by_one(strings)
    assert together.value == alone
    assert together.counts.secret_hits == hits


def test_every_corpus_line_redacts_the_same_in_one_payload() -> None:
    """All secret and near-miss lines of the corpus, in one payload: each comes out
    exactly as when redacted alone, with the same number of masks."""
    assert len(LINES) > 100
    assert_same_as_alone(LINES)


def test_corpus_lines_mixed_into_many_clean_paths() -> None:
    """Secrets between hundreds of clean paths (a recovery plan's shape)."""
    mixed: list[str] = []
    for i, line in enumerate(LINES):
        mixed += [PATHS[i % len(PATHS)], line]
    assert_same_as_alone(mixed + PATHS)


def test_clean_paths_are_settled_by_the_joint_scan() -> None:
    """The shortcut does its job: ordinary paths are all found clean at once, and no
    line that holds a planted secret is."""
    assert clean_texts(PATHS) == frozenset(PATHS)
    planted = [
        line
        for path in sorted((CORPUS / "secrets").iterdir())
        for line in path.read_text(encoding="utf-8").splitlines()
        if MARK.search(line)
    ]
    bare = [MARK.sub(lambda m: m.group(2), line) for line in planted]
    assert bare
    assert not clean_texts(bare) & set(bare)


def test_multi_line_strings_are_never_judged_jointly() -> None:
    assert clean_texts(["a\nb", "plain"]) == frozenset({"plain"})


def test_a_secret_split_across_two_strings_is_judged_per_string() -> None:
    """Neither half is a secret alone; together they are. Each half must come out as
    it does alone (the joint scan may flag it, the per-string scan then decides)."""
    assert_same_as_alone(["password = ", "hunter2hunter2", "AKIA", "IOSFODNN7EXAMPLE"])


TOKENS = st.sampled_from(
    [
        *LINES,
        *PATHS,
        "AKIAIOSFODNN7EXAMPLE",
        "ghp_" + "a1B2c3D4" * 5,
        "password=hunter2",
        "token: abc",
        "see docs/secrets.md",
        "ckpt_" + "0" * 32,
        "",
        " ",
        "x" * 5000,
        "key=" + "Zq9" * 30,
    ]
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(TOKENS, min_size=1, max_size=4).map(" ".join), max_size=25))
def test_generated_payloads_redact_as_their_strings_alone(strings: list[str]) -> None:
    assert_same_as_alone(strings)


# -- the privacy filter's joint search (privacy.quiet_texts) ----------------------------------

PRIVATE = [
    "{root}/src/app.py",
    "see {root}",
    "{home}/.ssh/id_ed25519",
    "cd {home} && make",
    "mail ops@example.com now",
    "http://build-box.internal:8080/x",
    "host db.corp.local",
    "ping 10.0.3.7",
    "ping 192.168.1.20 then",
    "fd12:3456:789a::1 is ours",
    "C:\\Users\\someone\\repo\\a.py",
    "\\\\server\\share\\x",
    "/etc/hosts and /var/log/syslog",
    "/tmp/build-1234/out.o",  # noqa: S108 -- a text to redact, never a file
    "user {user} ran it",
    "a {user}-owned file",  # the name inside a word: the filter decides, alone
    "version 10.0.3.7",  # a version, not an address: the filter decides, alone
]


def fill(strings: list[str], root: Path) -> list[str]:
    values = {"root": str(root), "home": str(Path.home()), "user": getpass.getuser()}
    return [s.format(**values) for s in strings]


def private_strings(root: Path) -> list[str]:
    return fill(PRIVATE, root)


def privacy_alone(strings: list[str], root: Path) -> tuple[list[str], int]:
    values, hits = [], 0
    for text in strings:
        red = redact_text(text, root=root)
        values.append(str(red.value))
        hits += red.counts.privacy_hits
    return values, hits


def test_private_strings_among_clean_paths_redact_as_they_do_alone(tmp_path: Path) -> None:
    """Paths under the project and home, addresses, hosts and names, between clean
    relative paths: each comes out exactly as when redacted alone, same mask count."""
    mixed: list[str] = []
    private = private_strings(tmp_path)
    for i, text in enumerate(private * 3):
        mixed += [PATHS[i % len(PATHS)], text]
    together = redact_payload(mixed + PATHS, root=tmp_path)
    alone, hits = privacy_alone(mixed + PATHS, tmp_path)
    assert together.value == alone
    assert together.counts.privacy_hits == hits


def test_the_joint_privacy_search_leaves_every_private_string_to_the_filter(
    tmp_path: Path,
) -> None:
    """quiet_texts settles ordinary relative paths and never a string the filter
    would change."""
    from vibflow.steps.redaction.privacy import PrivacyContext, filter_privacy, quiet_texts

    ctx = PrivacyContext.for_root(tmp_path)
    private = private_strings(tmp_path)
    quiet = quiet_texts([*PATHS, *private], ctx)
    assert set(PATHS) <= quiet
    for text in private:
        if filter_privacy(text, ctx)[1]:
            assert text not in quiet, text
    for text in quiet:
        assert filter_privacy(text, ctx) == (text, 0)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.lists(
            st.sampled_from([*PRIVATE, *PATHS, "", " ", "x" * 300]), min_size=1, max_size=3
        ).map(" ".join),
        max_size=20,
    )
)
def test_generated_private_payloads_redact_as_their_strings_alone(strings: list[str]) -> None:
    root = Path("/work/some-project")
    filled = fill(strings, root)
    together = redact_payload(filled, root=root)
    alone, hits = privacy_alone(filled, root)
    assert together.value == alone
    assert together.counts.privacy_hits == hits
