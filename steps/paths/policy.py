"""Which folders and files count as generated output: the ``paths`` policy section.

A restore or a memory entry that names ``node_modules/`` or a ``.pyc`` is
noise at best and a multi-gigabyte rewrite at worst, so the contract refuses
them unless a caller explicitly allows generated paths. The list is policy,
not code: ``policies/paths.yaml`` ships it and ``.vibflow/policy.yaml`` can
extend it (``extra_generated``) or take entries out (``allow``) without
repeating it.

Pattern forms (matched case-sensitively against NFC names; tools create these
names in exactly this case, and a Bazel ``BUILD`` file is not a ``build/``):

* ``name/``   a folder with that name at any depth; a *file* of that name is fine
* ``*.pyc``   any file or folder name matching the glob, at any depth
* ``a/b/``    anchored at the project folder (each segment may be a glob)

The YAML section's pydantic model (:class:`PathsPolicy`) and the merge that
reads it live in :mod:`.section` and are imported on first use: the contract
itself needs only :class:`PathPolicy`, and the agent's tool-use hook, which
checks every reported path through it, cannot afford pydantic's import.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase, translate
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    pass

SECTION = "paths"

# Kept equal to policies/paths.yaml (a test pins it): the code default serves
# callers that have no PolicySet at hand.
DEFAULT_GENERATED: tuple[str, ...] = (
    # Python
    "__pycache__/",
    "*.pyc",
    "*.pyo",
    ".pytest_cache/",
    ".mypy_cache/",
    ".ruff_cache/",
    ".hypothesis/",
    ".tox/",
    ".nox/",
    ".venv/",
    "venv/",
    "*.egg-info/",
    ".eggs/",
    "htmlcov/",
    ".coverage",
    ".coverage.*",
    ".ipynb_checkpoints/",
    # JavaScript / TypeScript
    "node_modules/",
    "bower_components/",
    ".next/",
    ".nuxt/",
    ".svelte-kit/",
    ".angular/",
    ".parcel-cache/",
    ".turbo/",
    ".nyc_output/",
    ".eslintcache",
    "coverage/",
    # build outputs and tool caches
    "dist/",
    "build/",
    "target/",
    ".gradle/",
    ".dart_tool/",
    ".terraform/",
    "CMakeFiles/",
    ".cache/",
    ".direnv/",
    "nimcache/",
    # operating-system droppings (Finder, AppleDouble, Explorer)
    ".DS_Store",
    "._*",
    "Thumbs.db",
)
DEFAULT_MAX_PATH_BYTES = 1024


@dataclass(frozen=True)
class _Pattern:
    segments: tuple[str, ...]
    dir_only: bool
    anchored: bool


@functools.lru_cache(maxsize=64)
def _compile(patterns: tuple[str, ...]) -> tuple[_Pattern, ...]:
    out = []
    for raw in patterns:
        body = raw.rstrip("/")
        segments = tuple(body.split("/"))
        out.append(_Pattern(segments, dir_only=raw.endswith("/"), anchored=len(segments) > 1))
    return tuple(out)


@functools.lru_cache(maxsize=64)
def _any_segment(patterns: tuple[str, ...]) -> re.Pattern[str] | None:
    """One regex matching a name that *some* pattern matches: most paths match
    none, and one search per name settles that. ``None`` when the list has a
    multi-segment pattern (those are checked the long way)."""
    compiled = _compile(patterns)
    if any(p.anchored for p in compiled):
        return None
    if not compiled:
        return re.compile(r"(?!)")
    return re.compile("|".join(f"(?:{translate(p.segments[0])})" for p in compiled))


@dataclass(frozen=True)
class PathPolicy:
    """The effective policy the contract applies (generated list already merged)."""

    generated: tuple[str, ...] = DEFAULT_GENERATED
    max_path_bytes: int = DEFAULT_MAX_PATH_BYTES

    def generated_match(self, parts: Sequence[str], *, final_is_dir: bool) -> str | None:
        """The first segment of ``parts`` a generated pattern matches, else ``None``.

        A folder pattern (``build/``) matches the last segment only when that
        names a folder (``final_is_dir``): a script called ``build`` is source.
        """
        compiled = _compile(self.generated)
        quick = _any_segment(self.generated)
        if quick is not None and not any(quick.match(segment) for segment in parts):
            return None
        last = len(parts) - 1
        for pat in compiled:
            if pat.anchored:
                k = len(pat.segments)
                if len(parts) < k or not all(
                    fnmatchcase(parts[i], pat.segments[i]) for i in range(k)
                ):
                    continue
                if pat.dir_only and k - 1 == last and not final_is_dir:
                    continue
                return parts[k - 1]
            for i, segment in enumerate(parts):
                if not fnmatchcase(segment, pat.segments[0]):
                    continue
                if pat.dir_only and i == last and not final_is_dir:
                    continue
                return segment
        return None


DEFAULT_POLICY = PathPolicy()


_SECTION_NAMES = frozenset({"PathsPolicy", "from_section", "path_policy"})


def __getattr__(name: str) -> Any:
    if name in _SECTION_NAMES:
        from vibflow.steps.paths import section

        return getattr(section, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
