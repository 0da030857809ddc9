"""An ignore file that ignores everything in its folder: a tool marking its output.

wasm-pack writes ``*`` into the ``pkg/`` it builds, pytest, mypy and ruff into their
caches, a virtual environment into its folder: the folder says of itself that none
of it is to be committed. Only that exact shape counts — ``*`` (or ``/*``, ``**``),
with nothing let back in but the ignore file itself; a folder that lets anything
else back in (``!public/``) is partly someone's work.
"""

from __future__ import annotations

#: An ignore file longer than this is no tool's one-line "ignore me".
IGNORE_BYTES = 4096
_IGNORE_ALL = frozenset({"*", "/*", "**", "/**"})
_KEEP_ITSELF = frozenset({"!.gitignore", "!/.gitignore"})


def ignores_everything(text: bytes) -> bool:
    """Whether an ignore file's ``text`` (read up to ``IGNORE_BYTES + 1`` bytes)
    ignores everything in its folder."""
    if not 0 < len(text) <= IGNORE_BYTES:
        return False
    rules = {
        line.strip()
        for line in text.decode("utf-8", "replace").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    }
    return bool(rules & _IGNORE_ALL) and rules <= _IGNORE_ALL | _KEEP_ITSELF
