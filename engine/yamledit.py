"""Change one key of a hand-edited YAML file and keep everything else as written.

``vibflow policy set`` edits the user's own ``policy.yaml``: comments, key order,
quoting and layout must survive, so the edit goes through ruamel's round trip,
never through a dump of the parsed data. The text is first parsed by
:func:`~vibflow.engine.yamlsource.parse_yaml`, so every limit and syntax check
a read applies holds here too. Values typed on the command line are read as one
YAML scalar (``12``, ``0.5``, ``false``) by :func:`scalar_value`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.engine.yamlsource import kind_of, parse_yaml


def scalar_value(text: str) -> Any:
    """A command-line value read as one YAML scalar (``12``, ``0.5``, ``false``,
    words); anything that is not a single scalar stays the text it was."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    try:
        node = YAML(typ="safe", pure=True).load(text)
    except (YAMLError, ValueError):
        return text
    return node if isinstance(node, bool | int | float | str) else text


def set_value(text: str, display: str, path: Sequence[str], value: Any) -> str:
    """``text`` with the mapping key at ``path`` set to ``value``, by ruamel's
    round trip: comments, key order, quoting and layout elsewhere are kept.

    Missing mappings on the way are created; a path through a list or a
    scalar is refused (said in YAML's words, located at that node)."""
    from io import StringIO

    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap

    parse_yaml(text, display, code=ErrorCode.POLICY_INVALID)  # every limit and syntax check
    yaml = YAML(typ="rt", pure=True)
    yaml.preserve_quotes = True
    yaml.width = 4096  # never re-wrap a user's long line
    indent = _indent_of(text)
    yaml.indent(mapping=indent, sequence=indent + 2, offset=indent)
    root = yaml.load(text)
    if root is None:
        root = CommentedMap()
    node: Any = root
    for depth, key in enumerate(path):
        if not isinstance(node, CommentedMap):
            where = ".".join(path[:depth]) or "top level"
            raise VibflowError(
                ErrorCode.BAD_INPUT,
                f"cannot set '{'.'.join(path)}': {where} is {kind_of(node)}, not a mapping",
            )
        if depth == len(path) - 1:
            node[key] = value
            break
        if key not in node or node[key] is None:
            node[key] = CommentedMap()
        node = node[key]
    out = StringIO()
    yaml.dump(root, out)
    return out.getvalue()


def _indent_of(text: str) -> int:
    """The file's mapping indent (2 unless its first nested key says otherwise)."""
    for line in text.splitlines():
        stripped = line.lstrip(" ")
        if stripped and not stripped.startswith("#") and len(line) > len(stripped):
            return max(2, min(8, len(line) - len(stripped)))
    return 2
