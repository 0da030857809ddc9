"""Changes that only reformat code: the same program, laid out differently. Pure.

Agents reformat modules nobody asked them to touch — a formatter run over the
whole tree, quotes swapped, lines re-wrapped. Such a change links to the intent
the way the file always did (its imports, its history with your files), so the
zone's inferred sources would call it in scope; a reviewer calls it drift. A
modified Python file whose syntax tree is unchanged (comments and layout aside)
is such a change, and no inferred source keeps it in the zone — unless the
intent asks for formatting. Only Python is judged: its parser is at hand and
exact; for other languages a layout change can change meaning (shell quotes,
YAML indentation), and no guess is made.

The check is lazy and memoised: it runs only for the files inferred evidence
put in the zone, and a cheap comparison (whitespace and quote style removed)
rules out real edits before anything is parsed.
"""

from __future__ import annotations

import ast
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence

#: Words of an intent that asks for formatting: then a reformat is the work.
_FORMATTING = frozenset(
    {
        "format",
        "formatting",
        "formatter",
        "reformat",
        "lint",
        "linting",
        "linter",
        "style",
        "black",
        "ruff",
        "prettier",
        "autopep8",
        "isort",
        "yapf",
        "whitespace",
        "indentation",
    }
)
_LAYOUT = str.maketrans({" ": None, "\t": None, "\n": None, "\r": None, "'": '"', "\\": None})
_PYTHON = (".py", ".pyi")


def asks_for_formatting(said: frozenset[str]) -> bool:
    """Whether the intent's words (lower-cased) ask for formatting."""
    return bool(said & _FORMATTING)


def only_reformatted(path: str, before: str, now: str) -> bool:
    """Whether ``now`` is ``before`` laid out differently: a Python file whose syntax
    tree is the same. Text that does not parse is never judged a reformat."""
    if not path.endswith(_PYTHON) or before == now:
        return False
    if before.translate(_LAYOUT) != now.translate(_LAYOUT):
        return False  # some character beyond layout and quote style changed
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes in old code are not ours
            return ast.dump(ast.parse(before)) == ast.dump(ast.parse(now))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False


class Reformats:
    """Which changed files only reformat, asked in batches and answered once."""

    def __init__(
        self, texts: Callable[[Sequence[str]], Mapping[str, tuple[str | None, str | None]]]
    ) -> None:
        #: paths → each one's (text at HEAD, text now), read together (one git call);
        #: a path with nothing to compare is left out or holds None.
        self._texts = texts
        self._known: dict[str, bool] = {}

    def among(self, paths: Iterable[str]) -> set[str]:
        """Those of ``paths`` that only reformat (the unknown Python ones read at once)."""
        wanted = list(dict.fromkeys(paths))
        unknown = [p for p in wanted if p not in self._known and p.endswith(_PYTHON)]
        texts = self._texts(unknown) if unknown else {}
        for path in unknown:
            before, now = texts.get(path, (None, None))
            self._known[path] = (
                before is not None and now is not None and only_reformatted(path, before, now)
            )
        return {p for p in wanted if self._known.get(p, False)}

    def known(self, path: str) -> bool:
        """Whether ``path`` was found to only reformat (never reads anything)."""
        return self._known.get(path, False)


NONE = Reformats(lambda _paths: {})
