"""A handoff's heading is rendered and recognised by one module: every heading it
renders is known again (however the file's line ends), and nothing else is."""

from __future__ import annotations

import pytest

from vibflow.steps.handoff.heading import is_handoff, preamble
from vibflow.steps.handoff.sections import Audience


@pytest.mark.parametrize("audience", ["agent", "human"])
@pytest.mark.parametrize("ending", [b"", b"\n\nIntent: ...\n", b"\r\n"])
def test_every_rendered_heading_is_recognised(audience: Audience, ending: bytes) -> None:
    """The first line of a handoff for either audience marks the file as a handoff."""
    head = preamble(audience, "2025-01-31T09:05Z")
    assert is_handoff(head.encode() + ending)


@pytest.mark.parametrize(
    "head",
    [
        b"",
        b"export const answer = 42;\n",
        b"Handoff (soon)\n",
        b"Handoff (2025-01-31T09:05Z) and more\n",
        b"# Handoff (2025-01-31T09:05Z)\n",
        b"\n" + preamble("human", "2025-01-31T09:05Z").encode(),
        b"\xff\xfeH\x00a\x00",
    ],
)
def test_other_first_lines_are_not_handoffs(head: bytes) -> None:
    """A file whose first line is not exactly a heading is not a handoff."""
    assert not is_handoff(head)
