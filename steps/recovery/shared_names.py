"""Names a change defines in one file and uses in another. Pure: lines in, names out.

A feature spread over files is held together by the names it introduces: the
settings screen's change calls ``viewModel.setDarkTheme``, the view model's
change defines ``fun setDarkTheme``, the strings file's change defines
``name="settings_dark_theme"`` that the screen now reads. So a name one file's
*added* lines define and another file's *added* lines use links the two.

A name both sides merely use links nothing: the same ``return NotFound();``
pasted into a sibling controller is the framework's name, not the feature's,
and that paste is exactly the drift a user wants shown. Definitions are read
with small, language-blind patterns (declaration keywords, typed method heads,
Terraform blocks, ``name="…"`` attributes, keys of settings files and object
literals); a name must be distinctive (5+ characters, not an everyday word) to
count.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from vibflow.steps.recovery.proximity import STOP

_DECLARED = re.compile(
    r"\b(?:def|defp|defmodule|fun|func|fn|function|class|struct|enum|interface|trait|"
    r"type|val|var|let|const|object|record|module|macro_rules!)[ \t]+([A-Za-z_][\w]*)"
)
#: ``public async Task<Invoice> FindAsync(`` — a typed method or function head.
_METHOD = re.compile(
    r"^[ \t]*(?:(?:public|private|protected|internal|static|async|override|virtual|final|"
    r"abstract|suspend|open|synchronized)[ \t]+)+[\w<>\[\],.?]+[ \t]+([A-Za-z_]\w*)[ \t]*\(",
    re.M,
)
_GO_METHOD = re.compile(r"^[ \t]*func[ \t]+\([^)\n]*\)[ \t]+([A-Za-z_]\w*)", re.M)
_TERRAFORM = re.compile(
    r'^[ \t]*(?:(?:resource|data)[ \t]+"[\w-]+"[ \t]+"([\w-]+)"'
    r'|(?:output|variable|module)[ \t]+"([\w-]+)")',
    re.M,
)
_NAME_ATTR = re.compile(r'\bname="([A-Za-z_][\w.]*)"')
#: A key a settings file defines: ``serde = "1"``, ``  max-page-size: 50``. Only
#: in settings files: in code, ``x = 1`` is everywhere, and in Terraform the same
#: ``replica_count = 1`` sets production and (unasked) staging alike.
_KEY = re.compile(r"""^[ \t]*["']?([A-Za-z_][\w-]*)["']?[ \t]*(?::(?!:)|=(?!=))""", re.M)
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: Names too ordinary to tie two files together, whatever defines them.
_ORDINARY_NAMES = """
    value values index result results render props state setup options params
    request response error errors items data input output string number boolean
    return print import export default public private static const class super
    function object false true null none self this update create delete remove
    handle handler name names label title count total start close open reset
    version
"""
_ORDINARY = frozenset(_ORDINARY_NAMES.split())
#: Lines longer than this are data, not code: not read.
_LONGEST = 2000


def _worth(name: str) -> bool:
    folded = name.casefold()
    return len(name) >= 5 and folded not in _ORDINARY and folded not in STOP


_SETTINGS = (".yml", ".yaml", ".toml", ".json", ".ini", ".cfg", ".conf", ".properties", ".env")


def is_settings(path: str) -> bool:
    """A file of keys and values, where a new key is a definition."""
    return path.lower().endswith(_SETTINGS)


def _text(lines: Iterable[str]) -> str:
    # One text, read by multi-line patterns: a few regex calls per file, not per line.
    return "\n".join(line for line in lines if len(line) <= _LONGEST)


def defined(lines: Iterable[str], *, keys: bool = False) -> frozenset[str]:
    """The distinctive names ``lines`` define (``keys``: a settings file's keys too)."""
    text = _text(lines)
    found = _DECLARED.findall(text) + _NAME_ATTR.findall(text)
    found += _METHOD.findall(text) + _GO_METHOD.findall(text)
    found += [a or b for a, b in _TERRAFORM.findall(text)]
    if keys:
        found += _KEY.findall(text)
    names = {name.rpartition(".")[2] for name in found if name}
    return frozenset(n for n in names if _worth(n))


def used(lines: Iterable[str]) -> frozenset[str]:
    """The distinctive names ``lines`` mention (definitions included)."""
    return frozenset(n for n in set(_WORD.findall(_text(lines))) if _worth(n))


def added(old: str | None, new: str) -> list[str]:
    """The lines ``new`` has that ``old`` does not (all of them for a new file)."""
    before = set((old or "").splitlines())
    return [line for line in new.splitlines() if line not in before]


def link(
    mine_added: list[str],
    theirs_defined: frozenset[str],
    theirs_used: frozenset[str],
    *,
    keys: bool = False,
) -> tuple[str, str] | None:
    """``("uses" | "defines", name)`` when my added lines use a name their change
    defines, or define one their change uses; None otherwise (``keys``: mine is a
    settings file)."""
    mine_used = used(mine_added)
    hit = sorted(mine_used & theirs_defined)
    if hit:
        return "uses", hit[0]
    hit = sorted(defined(mine_added, keys=keys) & theirs_used)
    if hit:
        return "defines", hit[0]
    return None
