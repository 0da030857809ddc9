"""Where a TypeScript project compiles to: ``compilerOptions.outDir`` of its
``tsconfig.json``.

``tsc`` writes its JavaScript, declarations and source maps into the folder its
configuration names — ``bin/`` in Pulumi's template, ``lib/`` in many libraries,
``dist/`` or ``build/js`` elsewhere — and projects that publish from git (a
GitHub Action, a CLI run from a clone) commit it. The folder's name alone says
nothing (a ``bin/`` of shell scripts is source); the configuration beside it does.

``tsconfig.json`` is JSON with comments and trailing commas, so it is read as
text: strings kept whole, comments dropped, then the one key. An ``outDir`` that
is the project folder itself, climbs out of it, or is absolute names no output
folder of its own. ``extends`` is not followed: an inherited ``outDir`` is missed,
never invented.
"""

from __future__ import annotations

import json
import re

#: A tsconfig longer than this is not read (real ones are a few KB).
TSCONFIG_BYTES = 64 * 1024
#: What tsc writes: JavaScript, declarations, their source maps, its build info.
EMITTED = (
    ".js",
    ".mjs",
    ".cjs",
    ".jsx",
    ".d.ts",
    ".d.mts",
    ".d.cts",
    ".map",
    ".tsbuildinfo",
)

_TOKENS = re.compile(r'"(?:\\.|[^"\\\n])*"|//[^\n]*|/\*.*?\*/', re.S)
_OUT_DIR = re.compile(r'"outDir"\s*:\s*("(?:\\.|[^"\\\n])*")')


def out_dir(text: bytes) -> str | None:
    """The ``outDir`` a ``tsconfig.json``'s ``text`` names, as a folder path below
    the file's own folder ("bin", "build/js"), or None."""
    if len(text) > TSCONFIG_BYTES:
        return None
    source = text.decode("utf-8", "replace")
    # Comments out, strings kept: a "//" inside "$schema"'s URL is no comment.
    bare = _TOKENS.sub(lambda m: m.group(0) if m.group(0).startswith('"') else " ", source)
    found = _OUT_DIR.search(bare)
    if found is None:
        return None
    try:
        value = json.loads(found.group(1))
    except ValueError:
        return None
    if not isinstance(value, str) or "\\" in value or value.startswith("/"):
        return None
    parts = [p for p in value.split("/") if p not in ("", ".")]
    if not parts or ".." in parts or any(c in value for c in "*?[:"):
        return None
    return "/".join(parts)
