"""A text that is exactly one of vibflow's own ids is judged clean without building the
detectors — and the detectors themselves agree, for every id prefix and many bodies, so
the shortcut never changes what is masked."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from vibflow_testing.redaction import AWS

from vibflow.steps.redaction.contract import redact_payload
from vibflow.steps.redaction.patterns import _ID_PREFIXES, is_vibflow_id
from vibflow.steps.redaction.secrets import _clean_by_scan, mask_secrets

PREFIXES = _ID_PREFIXES.split("|")


def _bodies(n: int) -> list[str]:
    rng = random.Random(12)
    edge = ["0" * 32, "f" * 32, "0123456789" * 3 + "ab", "abcdef" * 5 + "01", "deadbeef" * 4]
    return edge + [f"{rng.getrandbits(128):032x}" for _ in range(n)]


@pytest.mark.parametrize("prefix", PREFIXES)
def test_the_detectors_pass_every_bare_id(prefix: str) -> None:
    """The rule the shortcut relies on: scanned for real, a bare id holds no secret."""
    ids = [f"{prefix}_{body}" for body in _bodies(200)]
    assert all(is_vibflow_id(i) for i in ids)
    assert _clean_by_scan(ids) == frozenset(ids)
    for ident in ids[:8]:
        assert mask_secrets(ident) == (ident, 0)


@pytest.mark.parametrize(
    "text",
    [
        "opt_0123456789ABCDEF0123456789abcdef",  # upper case: not one of ours
        "opt_0123456789abcdef0123456789abcde",  # 31 digits
        "opt_0123456789abcdef0123456789abcdef0",  # 33 digits
        "xyz_0123456789abcdef0123456789abcdef",  # unknown prefix
        " opt_0123456789abcdef0123456789abcdef",  # anything around it
        "opt_0123456789abcdef0123456789abcdef\n",
        f"opt_{AWS}",
    ],
)
def test_only_an_exact_id_takes_the_shortcut(text: str) -> None:
    """Anything but an exact id (case, length, prefix, surroundings) is scanned as before."""
    assert not is_vibflow_id(text)


def test_fresh_ids_do_not_build_the_detectors() -> None:
    """A payload of ids and numbers only (fresh plan ids) never imports detect-secrets."""
    ids = [f"{p}_{b}" for p in PREFIXES for b in _bodies(2)]
    code = (
        "import sys\n"
        "from vibflow.steps.redaction.contract import redact_payload\n"
        f"red = redact_payload([*{ids!r}, 3, None])\n"
        f"assert red.value == [*{ids!r}, 3, None], red.value\n"
        "print('detect_secrets' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_secret_beside_fresh_ids_is_still_masked() -> None:
    """The ids skip the scan; the text next to them does not."""
    red = redact_payload(["opt_" + "a" * 32, f"key {AWS}"])
    assert red.value[0] == "opt_" + "a" * 32
    assert AWS not in red.value[1]
    assert red.counts.secret_hits == 1
