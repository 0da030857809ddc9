"""Redaction: the one contract for everything that leaves the process (DESIGN §4.7)."""

from __future__ import annotations

from vibflow.steps.redaction.contract import Redacted, redact_payload, redact_text
from vibflow.steps.redaction.failclosed import assert_no_absolute_paths

__all__ = ["Redacted", "assert_no_absolute_paths", "redact_payload", "redact_text"]
