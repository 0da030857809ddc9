"""A text that is exactly one of vibflow's own ids or an ISO-8601 time is judged clean
without building the detectors — and the detectors themselves agree, for every id
prefix, many id bodies and thousands of times, so the shortcut never changes what is
masked."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from vibflow_testing.redaction import AWS

from vibflow.steps.redaction.contract import redact_payload
from vibflow.steps.redaction.patterns import _ID_PREFIXES, is_clean_shape
from vibflow.steps.redaction.secrets import _clean_by_scan, mask_secrets

PREFIXES = _ID_PREFIXES.split("|")


def _bodies(n: int) -> list[str]:
    rng = random.Random(12)
    edge = ["0" * 32, "f" * 32, "0123456789" * 3 + "ab", "abcdef" * 5 + "01", "deadbeef" * 4]
    return edge + [f"{rng.getrandbits(128):032x}" for _ in range(n)]


def _times(n: int) -> list[str]:
    rng = random.Random(7)
    zones = ["", "Z", "+00:00", "-07:30"]
    out = ["0000-00-00T00:00:00", "9999-99-99T99:99:99.999999+99:99"]
    for i in range(n):
        base = (
            f"{rng.randint(1970, 2099):04d}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
            f"T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"
        )
        fraction = f".{rng.randint(0, 999999):0{rng.randint(1, 6)}d}"[:7] if i % 2 else ""
        out.append(base + fraction + zones[i % 4])
    return out


@pytest.mark.parametrize("prefix", PREFIXES)
def test_the_detectors_pass_every_bare_id(prefix: str) -> None:
    """The rule the shortcut relies on: scanned for real, a bare id holds no secret."""
    ids = [f"{prefix}_{body}" for body in _bodies(200)]
    assert all(is_clean_shape(i) for i in ids)
    assert _clean_by_scan(ids) == frozenset(ids)
    for ident in ids[:8]:
        assert mask_secrets(ident) == (ident, 0)


def test_the_detectors_pass_every_time() -> None:
    """Scanned for real, an ISO-8601 time (any digits, fraction, zone) holds no secret."""
    times = _times(3000)
    assert all(is_clean_shape(t) for t in times)
    assert _clean_by_scan(times) == frozenset(times)
    for t in times[:50]:
        assert mask_secrets(t) == (t, 0)


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
        "2026-11-25T19:51:38.1234567Z",  # seven fraction digits
        "2026-11-25 19:51:38",  # not ISO-8601's T
        "2026-11-25T19:51:38Z token",
        "\uff12\uff10\uff12\uff16-11-25T19:51:38Z",  # digits other than ASCII
        "2026-11-25",  # a date alone is scanned like any text
    ],
)
def test_only_an_exact_shape_takes_the_shortcut(text: str) -> None:
    """Anything but an exact id or time (case, length, prefix, surroundings) is scanned."""
    assert not is_clean_shape(text)


def test_fresh_ids_and_times_do_not_build_the_detectors() -> None:
    """A payload of ids, times and numbers (a preview's plan ids, a recap's generated_at)
    never imports detect-secrets."""
    texts = [f"{p}_{b}" for p in PREFIXES for b in _bodies(2)] + _times(20)
    code = (
        "import sys\n"
        "from vibflow.steps.redaction.contract import redact_payload\n"
        f"red = redact_payload([*{texts!r}, 3, None])\n"
        f"assert red.value == [*{texts!r}, 3, None], red.value\n"
        "print('detect_secrets' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_secret_beside_fresh_ids_is_still_masked() -> None:
    """The ids and times skip the scan; the text next to them does not."""
    red = redact_payload(["opt_" + "a" * 32, "2026-11-25T19:51:38Z", f"key {AWS}"])
    assert red.value[:2] == ["opt_" + "a" * 32, "2026-11-25T19:51:38Z"]
    assert AWS not in red.value[2]
    assert red.counts.secret_hits == 1
