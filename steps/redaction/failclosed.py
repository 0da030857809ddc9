"""The fail-closed check on output (spec Appendix C): after the redaction contract
ran, an output that still holds an absolute local path is refused — a vibflow bug,
reported by the field it was found in, never by the path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.steps.redaction.machine import PrivacyContext
from vibflow.steps.redaction.privacy import contains_absolute_path, quiet_texts
from vibflow.steps.redaction.texts import strings_of


def assert_no_absolute_paths(data: Any, *, root: Path | None = None) -> None:
    """Fail closed: refuse ``data`` if any string in it holds an absolute local path.

    Raises :class:`VibflowError` (``INTERNAL``: an output reaching this check
    unredacted is a vibflow bug). The message names the field, never the path.
    """
    ctx = PrivacyContext.for_root(root)
    found = list(strings_of(data, ""))
    # One search of every distinct text settles the quiet ones (nearly all of a
    # large plan's paths): a text the privacy filter leaves unchanged holds no
    # absolute path. Only a text with a hit on its line is looked at alone.
    quiet = quiet_texts((text for _, text in found), ctx)
    for path, text in found:
        if text in quiet:
            continue
        if contains_absolute_path(text, ctx):
            where = path if not contains_absolute_path(path, ctx) else "a field"
            raise VibflowError(
                ErrorCode.INTERNAL,
                f"refused to emit output: {where or 'the text'} contains an absolute local path",
                hint="This is a vibflow bug: the output should have passed redact_payload; "
                "please report it.",
            )
