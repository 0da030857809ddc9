"""Terminal controls in text, shown as escapes: the one rule for every place vibflow
puts someone's text (a file name, an intent, a commit subject) where a terminal may
read it — the CLI's streams (``vibflow/cli/visible_text.py``) and the files it writes
for people to read (a handoff).

* C0 controls but the line feed and the tab, DEL and the C1 controls as ``\\uXXXX``;
* the invisible bidirectional controls ("Trojan Source") as ``\\uXXXX``;
* bytes of a name that is not UTF-8 (Python's surrogate escapes) as ``\\xNN``.

``\\uXXXX`` is also a JSON string escape of the same character.
"""

from __future__ import annotations

import re

UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\udc80-\udcff]"
)
#: What a path shows escaped beyond the stream's rule: its own line breaks.
_UNSAFE_IN_PATH = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\udc80-\udcff]"
)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:
        return f"\\x{code - 0xDC00:02x}"
    return f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with every terminal control but the line feed and the tab escaped."""
    return UNSAFE.sub(_escape, text) if UNSAFE.search(text) else text


def one_line(path: str) -> str:
    """A path (or an intent, a checkpoint's message, a relevant file's why) as one
    line of human output shows it: a line break or a tab escaped too, so one file
    can never look like two lines of a list, nor an intent forge a section."""
    return _UNSAFE_IN_PATH.sub(_escape, path) if _UNSAFE_IN_PATH.search(path) else path
