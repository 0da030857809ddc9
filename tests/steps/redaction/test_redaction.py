"""The redaction contract (DESIGN §4.7): secrets, privacy, summaries, marks, counts, fail-closed."""

from __future__ import annotations

import dataclasses
import signal
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel
from vibflow_testing import REDACTION_CORPUS

from vibflow.engine.audit import RedactionCounts
from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.steps.redaction import (
    Redacted,
    assert_no_absolute_paths,
    redact_payload,
    redact_text,
)
from vibflow.steps.redaction.privacy import PrivacyContext, filter_privacy
from vibflow.steps.redaction.secrets import (
    DETECT_SECRETS_PLUGINS,
    EXCLUDED_PLUGINS,
    KINDS,
    find_secrets,
    looks_like_words,
    mask_secrets,
)
from vibflow.steps.redaction.summarize import summarize

AWS = "AKIAQ7FAKEX3M9ZP2LT4"
GHP = "ghp_R8f2Kq9ZmT4vX1cB7nL0pW5sY3hJ6dGa2Eu9"
STRIPE = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc" + "Q2x9Vb7Kp3Lm8Zr1Tw6Ys4Nh0Fj5Gd"
JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
    "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ."
    "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)
B64 = "q7Vb2Xk9Lm3Zr8Tw1Ys6Nh4Fj0Gd5Ca+Ue/Ri2Op7Kw="
PLANTED = [AWS, GHP, STRIPE, JWT, B64, "hunter2xyz"]
NO_LIMIT = 10**9


def red(text: str, **kw: Any) -> str:
    value = redact_text(text, max_chars=kw.pop("max_chars", NO_LIMIT), **kw).value
    assert isinstance(value, str)
    return value


# --- secrets -----------------------------------------------------------------------


def test_aws_key_gets_a_typed_placeholder_and_a_count() -> None:
    """An AWS key becomes [REDACTED:aws_key], counted once, field marked redacted."""
    result = redact_text(f"key {AWS} used", field="bullets.2")
    assert result.value == "key [REDACTED:aws_key] used"
    assert result.counts == RedactionCounts(secret_hits=1)
    assert result.marks == {"bullets.2": "redacted"}


def test_unquoted_and_quoted_passwords_are_masked() -> None:
    """`password=x` unquoted (config-style scan) and `password = "x"` are both masked."""
    assert red("password=hunter2xyz") == "password=[REDACTED:credential]"
    assert red('password = "s3cr3t-P4ss"') == 'password = "[REDACTED:credential]"'
    assert red("DB_PASSWORD=Zq8xLm2Vt9 next=1") == "DB_PASSWORD=[REDACTED:credential] next=1"


def test_every_keyword_assignment_on_a_line_is_masked() -> None:
    """detect-secrets reports one value per pattern and line; each later one is found too."""
    out = red("DB_USER=app DB_PASSWORD=Zq8xLm2Vt9 API_SECRET=Kp3Lm8Zr1Tw6 port=5432")
    assert out == (
        "DB_USER=app DB_PASSWORD=[REDACTED:credential] API_SECRET=[REDACTED:credential] port=5432"
    )
    assert (
        red('cfg = { password => "s3cr3tP4ss" }') == 'cfg = { password => "[REDACTED:credential]" }'
    )
    assert red("x = f(y); password=hunter2xyz") == "x = f(y); password=[REDACTED:credential]"


@pytest.mark.parametrize(
    "line",
    [
        "password = get_password()",
        'password = os.environ["PW"]',
        "self.password = password",
        "if password == expected_pw:",
        "def check(password: str) -> bool:",
        "token = get_token(42)",
        "api_key = settings.api_key",
        "password=${DB_PASSWORD}",
        "max_tokens=4096",
    ],
)
def test_references_to_secrets_are_not_secrets(line: str) -> None:
    """Calls, lookups, other names, comparisons, templates and numbers are left alone."""
    assert red(line) == line


def test_every_occurrence_of_a_found_value_is_masked() -> None:
    """A value found once (password=...) is masked wherever else it appears."""
    out = red("password=hunter2xyz\nthen I typed hunter2xyz into the prompt")
    assert "hunter2xyz" not in out
    assert out.count("[REDACTED:credential]") == 2


def test_prefix_matches_are_widened_to_the_whole_token() -> None:
    """Stripe's detector matches 24 chars of a long key; the whole key is masked."""
    out = red(f"STRIPE={STRIPE} rest")
    assert out == "STRIPE=[REDACTED:stripe_key] rest"


def test_jwt_signature_is_masked_too() -> None:
    """detect-secrets' JWT regex drops the signature; the mask covers all three parts."""
    assert red(f"token {JWT}.") == "token [REDACTED:jwt]."


def test_pem_block_is_masked_whole_even_when_cut_off() -> None:
    """A PEM private key is one mask, BEGIN to END — or to the end of its body when cut."""
    body = "\n".join(["MIIEowIBAAKCAQEAx7Vb2Xk9Lm3Zr8Tw1Ys6Nh4Fj0Gd5CaUeRi2Op7Kw"] * 4)
    block = f"-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----"
    assert red(f"key:\n{block}\ndone") == "key:\n[REDACTED:pem_key]\ndone"
    cut = f"-----BEGIN RSA PRIVATE KEY-----\n{body}\nsummary follows"
    assert red(cut) == "[REDACTED:pem_key]\nsummary follows"


def test_prose_mentioning_a_key_header_is_left_alone() -> None:
    """Words like 'BEGIN RSA PRIVATE KEY' in prose, with no key body, are not a key."""
    text = "Look for files that start with BEGIN RSA PRIVATE KEY and delete them."
    assert red(text) == text


def test_entropy_limit_is_rechecked() -> None:
    """Ordinary words are not 'high entropy' (scan_line's eager mode would flag them)."""
    text = "The quick brown fox jumps over the lazy dog while callFunctionCheckIfDataExists runs."
    assert red(text) == text
    assert find_secrets(text) == []


def test_hex_in_git_context_stays_but_bare_hex_key_goes() -> None:
    """A 40-hex commit hash stays in a git context; the same shape as an API key goes."""
    sha = "8f4b7f84864484a7bf31766abe9204da3cbe65b3"
    assert red(f"commit {sha}") == f"commit {sha}"
    assert red(f"X-Api-Key: {sha}") == "X-Api-Key: [REDACTED:high_entropy_hex]"


def test_identifiers_and_paths_are_word_like() -> None:
    """The word-likeness filter accepts identifiers and rejects random base64."""
    assert looks_like_words("getUserAccountSettingsFromDatabaseCache")
    assert looks_like_words("node_modules/@babel/core/lib/transformation/file/merge-map")
    assert not looks_like_words(B64)


def test_placeholder_kinds_never_look_like_keyword_assignments() -> None:
    """No placeholder kind contains a keyword-detector word, so a second pass ignores it."""
    import re

    from detect_secrets.plugins.keyword import DENYLIST_REGEX

    kinds = set(KINDS.values())
    assert not [k for k in kinds if re.search(DENYLIST_REGEX, k, re.IGNORECASE)]


def test_every_builtin_detect_secrets_plugin_is_used_or_excluded() -> None:
    """A detect-secrets upgrade that adds a plugin fails here until we decide on it."""
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    builtin = {cls.__name__ for cls in get_mapping_from_secret_type_to_class().values()}
    assert builtin == set(DETECT_SECRETS_PLUGINS) | EXCLUDED_PLUGINS
    assert set(KINDS) >= {
        t
        for t, c in get_mapping_from_secret_type_to_class().items()
        if c.__name__ not in EXCLUDED_PLUGINS
    }


def test_scanning_never_verifies_or_touches_global_settings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No verify() runs, no HTTP request is made, detect-secrets' settings stay untouched."""
    import requests
    from detect_secrets.plugins.base import BasePlugin
    from detect_secrets.settings import get_settings

    def boom(*_: object, **__: object) -> None:
        raise AssertionError("network or verification attempted")

    monkeypatch.setattr(BasePlugin, "verify", boom)
    monkeypatch.setattr(requests.Session, "request", boom)
    before = get_settings().json()
    out = red(f"slack xoxb-123456789012-1234567890123-abcdefABCDEF123456 and {AWS} and {GHP}")
    assert AWS not in out
    assert get_settings().json() == before
    assert "detect_secrets.filters.common.is_ignored_due_to_verification_policies" not in (
        get_settings().filters
    )


def test_allowlist_pragma_does_not_bypass_redaction() -> None:
    """`pragma: allowlist secret` in the text (an agent could write it) changes nothing."""
    assert AWS not in red(f"key = '{AWS}'  # pragma: allowlist secret")


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


# --- summaries -------------------------------------------------------------------------


def test_long_output_is_summarized_with_head_tail_and_counts() -> None:
    """Long output keeps its head and tail, says what it dropped, and stays in budget."""
    lines = [f"step {i}: ok" for i in range(2000)]
    lines[1500] = "ERROR: disk full"
    lines[-1] = "FAILED: 1 error"
    result = redact_text("\n".join(lines), max_chars=1000, field="verification.0.output")
    assert len(result.value) <= 1000
    assert result.value.startswith("step 0: ok")
    assert result.value.endswith("FAILED: 1 error")
    assert "lines (" in result.value
    assert "1 of them errors/warnings" in result.value
    assert result.counts == RedactionCounts(summarized_fields=1)
    assert result.marks == {"verification.0.output": "summarized"}


def test_summary_never_exceeds_budget_and_is_stable() -> None:
    """For any budget the summary fits, and summarizing it again changes nothing."""
    text = "x" * 50_000 + "\n" + "y " * 20_000
    for budget in (0, 5, 119, 120, 121, 500, 4000):
        once = summarize(text, budget)
        assert len(once.text) <= budget
        assert summarize(once.text, budget).text == once.text


def test_secrets_are_masked_before_the_cut() -> None:
    """A key straddling the summary cut cannot leave half of itself behind."""
    text = "a " * 300 + B64 + " b" * 300
    out = red(text, max_chars=300)
    for i in range(len(B64) - 9):
        assert B64[i : i + 10] not in out


# --- payloads ---------------------------------------------------------------------------


class _Model(BaseModel):
    note: str


@dataclasses.dataclass
class _DC:
    path: str


def test_payload_walks_masks_marks_and_omits(tmp_path: Path) -> None:
    """redact_payload masks strings and keys, marks dotted paths, omits listed fields."""
    data = {
        "bullets": ["fine", "also fine", f"uses {AWS}"],
        "verification": [{"command": f"pytest {tmp_path}/proj/tests", "output": "x" * 5000}],
        "raw_terminal": "anything",
        "meta": {"token_note": "ok", "drop_me": 1},
        "/Users/bob/notes.md": ("a", 2, None, True),
        "when": PurePosixPath("/Users/bob/x"),
        "model": _Model(note=f"pw password={'hunter2xyz'}"),
        "dc": _DC(path="/home/carol/x"),
        "blob": b"bytes with AKIAQ7FAKEX3M9ZP2LT4",
    }
    result = redact_payload(
        data, root=tmp_path / "proj", omit=["raw_terminal", "meta.drop_me"], max_field_chars=500
    )
    value = result.value
    assert value["bullets"] == ["fine", "also fine", "uses [REDACTED:aws_key]"]
    assert value["verification"][0]["command"] == "pytest tests"
    assert len(value["verification"][0]["output"]) <= 500
    assert "raw_terminal" not in value
    assert value["meta"] == {"token_note": "ok"}
    assert value["[PATH]"] == ["a", 2, None, True]
    assert value["when"] == "[PATH]"
    assert value["model"] == {"note": "pw password=[REDACTED:credential]"}
    assert value["dc"] == {"path": "[PATH]"}
    assert value["blob"] == "bytes with [REDACTED:aws_key]"
    assert result.marks == {
        "bullets.2": "redacted",
        "verification.0.command": "redacted",
        "verification.0.output": "summarized",
        "raw_terminal": "omitted",
        "meta.drop_me": "omitted",
        "[PATH]": "redacted",
        "when": "redacted",
        "model.note": "redacted",
        "dc.path": "redacted",
        "blob": "redacted",
    }
    assert result.counts == RedactionCounts(
        secret_hits=3, privacy_hits=4, summarized_fields=1, omitted_fields=2
    )
    assert_no_absolute_paths(value, root=tmp_path / "proj")


def test_keys_that_redact_alike_both_survive() -> None:
    """Two different secret keys that both become one placeholder are both kept."""
    other = "AKIAZ9FAKEQ3M9ZP2LT7"
    value = redact_payload({AWS: 1, other: 2}).value
    assert value == {"[REDACTED:aws_key]": 1, "[REDACTED:aws_key]#2": 2}


def test_redacted_is_a_frozen_value() -> None:
    """Redacted is immutable: callers cannot swap the value after redaction."""
    result = redact_text("x")
    assert isinstance(result, Redacted)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.value = "y"  # type: ignore[misc]


# --- fail closed ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "leak",
    [
        "{root}/src/a.py",
        "{home}/x",
        "/Users/bob/x",
        "/home/carol/x",
        r"C:\Users\d\x",
        "/tmp/x/y",  # noqa: S108 -- a path to refuse, not one we use
    ],
)
def test_absolute_paths_fail_closed_without_echoing(
    leak: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """assert_no_absolute_paths raises INTERNAL naming the field, never the path."""
    home = tmp_path / "h" / "zed"
    monkeypatch.setenv("HOME", str(home))
    root = tmp_path / "proj"
    path = leak.format(root=root, home=home)
    with pytest.raises(VibflowError) as err:
        assert_no_absolute_paths({"a": [{"b": f"see {path}"}]}, root=root)
    assert err.value.code is ErrorCode.INTERNAL
    assert "a.0.b" in str(err.value)
    for piece in (path, str(tmp_path), "bob", "carol"):
        assert piece not in str(err.value)


def test_fail_closed_check_does_not_echo_a_path_in_a_key() -> None:
    """A dict key holding the path is reported as 'a field', not by its text."""
    with pytest.raises(VibflowError) as err:
        assert_no_absolute_paths({"/Users/bob/x": 1})
    assert "bob" not in str(err.value)


def test_clean_output_passes_the_fail_closed_check() -> None:
    """Relative paths, ~ paths, URL paths and redacted output pass."""
    assert_no_absolute_paths(
        {"files": ["src/a.py", "~/notes.md"], "url": "https://x.io/home/a", "n": 3, "p": None}
    )


# --- properties --------------------------------------------------------------------------

_FRAGMENTS = st.sampled_from(
    [
        *PLANTED,
        "password=",
        "password = '",
        "'",
        '"',
        "token: ",
        "commit ",
        "/Users/bob/proj/src/a.py",
        "/home/carol/x",
        r"C:\Users\d\x",
        "https://u:pw12345678@db.internal:5432/x",
        "10.0.0.7",
        "fe80::1",
        "ops@acme.io",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx7Vb2Xk9Lm3Zr8Tw1Ys6Nh4Fj0Gd5Ca\n",
        "-----END RSA PRIVATE KEY-----",
        "[REDACTED:aws_key]",
        "[PATH]",
        " " * 70,
        "\n",
        "= ",
        ": ",
        "; ",
    ]
)
_TEXTS = st.lists(st.one_of(_FRAGMENTS, st.text(max_size=12)), max_size=24).map("".join)
_BUDGETS = st.sampled_from([NO_LIMIT, 4000, 300, 121, 40])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_TEXTS, budget=_BUDGETS)
def test_redaction_is_idempotent(text: str, budget: int) -> None:
    """redact(redact(x)) == redact(x), and the second pass counts nothing."""
    once = redact_text(text, max_chars=budget)
    twice = redact_text(once.value, max_chars=budget)
    assert twice.value == once.value
    assert twice.counts == RedactionCounts()


_SECRETS_IN_TEXT = st.lists(
    st.tuples(st.sampled_from(PLANTED), st.sampled_from([" ", "\n", "=", ": ", "\t", ", "])),
    min_size=1,
    max_size=6,
)


@settings(max_examples=100, deadline=None)
@given(
    prose=st.lists(st.sampled_from(["the", "build", "failed", "see", "log", "ok"]), max_size=20),
    planted=_SECRETS_IN_TEXT,
    budget=_BUDGETS,
)
def test_output_never_contains_a_planted_secret(
    prose: list[str], planted: list[tuple[str, str]], budget: int
) -> None:
    """Whatever surrounds them, planted secrets never reach the output."""
    words = iter(prose)
    text = "".join(f"{next(words, 'x')} password={s}{sep}" for s, sep in planted)
    out = red(text, max_chars=budget)
    for secret, _ in planted:
        assert secret not in out


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=400))
def test_never_raises_on_arbitrary_text(text: str) -> None:
    """Any text at all redacts without an exception, within budget."""
    out = red(text, max_chars=4000)
    assert len(out) <= 4000


# --- concurrency, temp files, pathological input ----------------------------------------

_CORPUS = REDACTION_CORPUS / "secrets"


def _corpus_texts() -> list[str]:
    import re

    mark = re.compile(r"⟦[a-z0-9_]+\|(.*?)⟧", re.DOTALL)
    return [mark.sub(r"\1", p.read_text(encoding="utf-8")) for p in sorted(_CORPUS.iterdir())]


def test_concurrent_scans_give_the_same_results() -> None:
    """Eight threads scanning the corpus at once get exactly the sequential results."""
    texts = _corpus_texts() * 4
    expected = [mask_secrets(t) for t in texts]
    results: dict[int, list[tuple[str, int]]] = {}
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            results[n] = [mask_secrets(t) for t in texts]
        except BaseException as exc:  # noqa: BLE001 -- reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert all(results[n] == expected for n in range(8))


def test_scanning_creates_no_temp_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Redaction is in memory: the temp directory listing is the same before and after."""
    private_tmp = tmp_path / "tmp"
    private_tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(private_tmp))
    monkeypatch.setenv("TMPDIR", str(private_tmp))
    before = sorted(p.name for p in Path(tempfile.gettempdir()).iterdir())
    for text in _corpus_texts():
        redact_text(text * 3, max_chars=2000)
    redact_payload({"a": _corpus_texts()})
    assert sorted(p.name for p in Path(tempfile.gettempdir()).iterdir()) == before
    assert tempfile.gettempdir() == str(private_tmp)


@pytest.fixture
def alarm() -> Iterator[Callable[[int], int]]:
    """Fail (instead of hanging) if the body runs longer than a generous limit."""
    if not hasattr(signal, "SIGALRM"):
        pytest.skip("needs SIGALRM")

    def on_alarm(*_: object) -> None:
        raise TimeoutError("redaction did not finish")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    yield signal.alarm
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize(
    "make",
    [
        lambda: "a" * 1_000_000,
        lambda: " " * 100_000 + "password=hunter2xyz" + " " * 100_000,
        lambda: ("word " * 200_000) + AWS,
        lambda: "password=abcdefgh1 " * 50_000,
        lambda: "https://u:p@h/" * 60_000,
        lambda: B64 * 25_000,
        lambda: "\t" * 50_000 + "=" * 50_000 + ":" * 50_000,
        lambda: "/Users/" * 150_000,
    ],
    ids=[
        "1MB-one-word",
        "100k-spaces",
        "1MB-line-words",
        "keywords-in-one-line",
        "urls-in-one-line",
        "1MB-base64-line",
        "separators",
        "path-prefixes",
    ],
)
def test_pathological_input_completes(make: Callable[[], str], alarm: Callable[[int], int]) -> None:
    """Megabyte lines, long blank runs and repeated triggers finish (no timing asserted)."""
    text = make()
    alarm(120)
    out = red(text, max_chars=4000)
    assert len(out) <= 4000
    assert AWS not in out
    assert "hunter2xyz" not in out


@pytest.mark.parametrize(
    "ident",
    [
        "run_3e9a0a97b86c4206b8e4ad4b0c5315cb",
        "ckpt_3e9a0a97b86c4206b8e4ad4b0c5315cb",
        "opt_0123456789abcdef0123456789abcdef",
        "rec_fedcba9876543210fedcba9876543210",
    ],
)
def test_vibflow_ids_are_identifiers_not_secrets(ident: str) -> None:
    """vibflow's own locally generated ids survive redaction; the same hex elsewhere does not."""
    assert redact_text(f"resume {ident} now").value == f"resume {ident} now"
    body = ident.split("_", 1)[1]
    assert body not in redact_text(f"api_key={body}").value
