"""An answer as the MCP wire carries it: JSON in UTF-8.

git gives file names as bytes; a name that is not UTF-8 reaches vibflow as text
with surrogate escapes (Python's ``surrogateescape``), which the CLI's JSON
writes as ``\\udcff`` escapes but UTF-8 cannot encode at all, so the SDK could
not send the answer. Such a name goes out with its odd bytes written as
``\\xff`` (``bad\\xff.txt``): readable, and plainly not a name to pass back as is
(the path contract refuses it, and recovery never restores it by name).
"""

from __future__ import annotations

import json
from typing import Any


def wire_form(value: Any) -> tuple[Any, str]:
    """``value`` as it can be sent, and its JSON text."""
    text = json.dumps(value, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        value = _printable(value)
        text = json.dumps(value, ensure_ascii=False)
    return value, text


def _printable(value: Any) -> Any:
    if isinstance(value, str):
        return value.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    if isinstance(value, dict):
        return {_printable(k): _printable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_printable(v) for v in value]
    return value
