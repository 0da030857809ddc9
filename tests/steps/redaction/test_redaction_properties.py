"""Hypothesis properties of redaction: idempotent, never leaves a planted secret, never
raises on arbitrary text.

Part of the redaction contract (DESIGN §4.7); the planted secrets are in
``vibflow_testing.redaction``."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from vibflow_testing.redaction import NO_LIMIT, PLANTED, red

from vibflow.engine.audit import RedactionCounts
from vibflow.steps.redaction import (
    redact_text,
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
