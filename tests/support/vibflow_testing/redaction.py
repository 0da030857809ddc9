"""Planted fake secrets for the redaction tests, and ``red``: redact one text with no
root, home or budget unless a test gives them."""

from __future__ import annotations

from typing import Any

from vibflow.steps.redaction import (
    redact_text,
)

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
