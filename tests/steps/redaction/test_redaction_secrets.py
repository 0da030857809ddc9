"""Secrets are masked with typed placeholders and counted: keywords, found values
everywhere, whole tokens, JWTs, PEM blocks; references, prose, hex in git context and
identifiers are left alone; every detect-secrets plugin is used or excluded and scanning
never verifies or touches global settings.

Part of the redaction contract (DESIGN §4.7); the planted secrets are in
``vibflow_testing.redaction``."""

from __future__ import annotations

import pytest
from vibflow_testing.redaction import AWS, B64, GHP, JWT, STRIPE, red

from vibflow.engine.audit import RedactionCounts
from vibflow.steps.redaction import (
    redact_text,
)
from vibflow.steps.redaction.secrets import (
    DETECT_SECRETS_PLUGINS,
    EXCLUDED_PLUGINS,
    KINDS,
    find_secrets,
    looks_like_words,
)

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
