"""Empty-container default factories for pydantic fields: ``Field(default_factory=empty_list)``.

Building a model, pydantic asks each ``default_factory`` for its signature
(does it take the validated data?). For a builtin such as ``list`` or
``dict``, ``inspect.signature`` parses the builtin's text signature with
``tokenize``, whose first use compiles the tokenizer's large regular
expression: ~25 M instructions of a fresh ``vibflow recover --preview``, a
tenth of its gap to the goal, for the answer "no". A plain function's
signature is read from its code object. The values are the same — a new
empty container per instance — and, unlike a literal ``[]`` default, the
models' JSON schemas do not change.
"""

from __future__ import annotations

from typing import Any


def empty_list() -> list[Any]:
    return []


def empty_dict() -> dict[Any, Any]:
    return {}
