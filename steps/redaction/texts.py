"""Every string in a JSON-like value, for the redaction contract.

The contract judges each string of a payload (keys included) and the
fail-closed check looks at each again, so these walks run over every answer
vibflow sends out — a 20,000-file recovery plan holds ~11,000 nodes. They are
loops over a stack (no recursion limit, no generator per level) that test
exact types first: the abstract-class checks cost more than the rest.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from pathlib import PurePath
from typing import Any


def join_key(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def plain_value(node: Any) -> Any:
    """A JSON-like stand-in for an object that is not one."""
    if isinstance(node, bytes | bytearray):
        return bytes(node).decode("utf-8", errors="replace")
    if isinstance(node, PurePath):
        return str(node)
    dump = getattr(node, "model_dump", None)
    if callable(dump):
        return dump(mode="json")
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return dataclasses.asdict(node)
    return str(node)


def texts_of(node: Any) -> list[str]:
    """Every string in ``node``, keys included (:func:`strings_of` without the paths).

    A loop over a stack, not nested generators: a 100,000-file plan has
    ~58,000 strings, and every ``yield from`` level was paid per string. Exact
    types are tested first and a dict's plain values never go through the
    stack: the abstract-class checks cost more than the rest. (The order of the
    texts decides nothing: each one's verdict is its own.)
    """
    out: list[str] = []
    append = out.append
    stack = [node]
    seen: set[int] = set()  # a container met again (shared, or a cycle) adds nothing new
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is str:
            append(item)
        elif item is None or kind is bool or kind is int or kind is float:
            continue
        elif kind is dict or kind is list or isinstance(item, _CONTAINERS):
            if id(item) in seen:
                continue
            seen.add(id(item))
            if kind is dict or (kind is not list and isinstance(item, Mapping)):
                _mapping_texts(item, append, stack)
            else:
                stack.extend(item)
        elif isinstance(item, str):
            append(item)
        elif isinstance(item, bool | int | float):
            continue
        else:
            stack.append(plain_value(item))
    return out


_CONTAINERS: tuple[type, ...] = (Mapping, list, tuple, set, frozenset)


def _mapping_texts(
    item: Mapping[Any, Any], append: Callable[[str], None], stack: list[Any]
) -> None:
    """A mapping's keys and plain string values to ``append``; its other values
    that may hold text onto ``stack``."""
    for k, v in item.items():
        append(k if type(k) is str else str(k))
        kind = type(v)
        if kind is str:
            append(v)
        elif not (v is None or kind is bool or kind is int or kind is float):
            stack.append(v)


def strings_of(node: Any, path: str) -> Iterator[tuple[str, str]]:
    """(field path, string) for every string in ``node``, keys included."""
    if isinstance(node, str):
        yield path, node
    elif isinstance(node, Mapping):
        for k, v in node.items():
            key = str(k)
            yield join_key(path, "<key>"), key
            yield from strings_of(v, join_key(path, key))
    elif isinstance(node, list | tuple | set | frozenset):
        for i, v in enumerate(node):
            yield from strings_of(v, join_key(path, str(i)))
    elif node is None or isinstance(node, bool | int | float):
        return
    else:
        yield from strings_of(plain_value(node), path)
