"""A relative path typed on the command line is relative to the folder you typed it
in, as git's are: ``vibflow memory relevant orders_test.go`` run in
``internal/orders`` means ``internal/orders/orders_test.go``.

This only places the text: the project-relative result still goes through the
path contract (``steps/paths/contract``), which judges it as before. So the join
is lexical, as git's is — ``../payments/pay.go`` from ``internal/orders`` is
``internal/payments/pay.go`` — and a path that climbs out of the project from a
subfolder is refused with the contract's ``outside_project`` rule (:func:`here`).
Run at the project's root a path is
project-relative as it always was; ``--project DIR`` is the folder you are in, as
git's ``-C`` is (``context.paths_here``); an absolute path is the contract's to
place. Every command that takes a project path reads it here: the memory
commands, ``checkpoint restore``, ``rewind``, ``recover feedback`` and a flow's
``--input paths=``. What they show back is the project path, as ``git rm`` and
``git add -v`` name the file they acted on.
"""

from __future__ import annotations

import os
import posixpath
from pathlib import Path

from vibflow.steps.paths import windows
from vibflow.steps.paths.rules import PathRule, reject


def prefix_of(root: Path, cwd: Path) -> str | None:
    """Where ``cwd`` is inside the project at ``root`` (POSIX, no trailing ``/``), or
    ``None`` at the root itself and outside it."""
    try:
        rel = os.path.relpath(os.path.realpath(cwd), os.path.realpath(root))
    except ValueError:  # another drive (Windows): not inside
        return None
    rel = rel.replace(os.sep, "/")
    if rel in {".", ".."} or rel.startswith("../"):
        return None
    return rel


def from_here(raw: str, prefix: str | None) -> str:
    """``raw`` as a project-relative path, read in the folder ``prefix`` names."""
    joined = _joined(raw, prefix)
    if joined is None or joined == ".." or joined.startswith("../"):
        return raw  # out of the project: the contract refuses it as typed
    return joined + "/" if raw.endswith(("/", "\\")) and joined != "." else joined


def _joined(raw: str, prefix: str | None) -> str | None:
    """``prefix/raw`` normalised, for a relative ``raw`` in a subfolder; else None."""
    if not prefix:
        return None
    text = raw.replace("\\", "/")  # the contract reads both separators alike
    if windows.parse(text).form is not windows.Form.RELATIVE or not text.strip():
        return None
    return posixpath.normpath(f"{prefix}/{text}")


def here(root: Path, raws: list[str], cwd: Path | None = None) -> list[str]:
    """Each of ``raws`` read in the current folder (see the module docstring).

    A relative path that climbs out of the project from a subfolder is refused
    here, by the contract's ``outside_project`` rule: its own ``traversal`` rule would
    say '..' is never allowed, which is not true in a subfolder."""
    prefix = prefix_of(root, cwd or Path.cwd())
    for raw in raws:
        joined = _joined(raw, prefix)
        if joined is not None and (joined == ".." or joined.startswith("../")):
            raise reject(PathRule.OUT_OF_ROOT)
    return [from_here(raw, prefix) for raw in raws]
