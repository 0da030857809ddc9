"""Install and remove vibflow's git post-commit hook without clobbering others.

The hook records each commit as observed context (``vibflow memory
observe-commit``) and can never change intent, decisions or the next action:
the memory write gate refuses those for the ``hook`` writer. An existing
post-commit hook is kept and chained: it is moved aside and our hook runs it
first, passing its exit status through. Uninstall removes only what we added.
"""

from __future__ import annotations

import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

from vibflow.engine.atomicfile import atomic_write
from vibflow.engine.errors import ErrorCode, VibflowError
from vibflow.steps.workspace.git import GitError, run_git

MARKER = "# vibflow post-commit hook"
CHAINED = "post-commit.pre-vibflow"


@dataclass(frozen=True)
class HookChange:
    installed: bool
    chained: bool
    path_display: str


def hooks_dir(root: Path) -> Path:
    try:
        out = run_git(root, "rev-parse", "--git-path", "hooks", timeout=30)
    except GitError as exc:
        raise VibflowError(
            ErrorCode.NOT_A_PROJECT, "cannot find this repository's hooks folder"
        ) from exc
    path = Path(out.decode("utf-8", "surrogateescape").removesuffix("\n"))
    return path if path.is_absolute() else (root / path)


def _script(python: str) -> str:
    py = shlex.quote(python)
    return f"""#!/bin/sh
{MARKER} — records the commit as observed context; never blocks a commit.
# Remove with: vibflow hooks uninstall
status=0
if [ -x "$(dirname "$0")/{CHAINED}" ]; then
  "$(dirname "$0")/{CHAINED}" "$@"
  status=$?
fi
if [ -x {py} ]; then
  {py} -m vibflow memory observe-commit >/dev/null 2>&1 || true
elif command -v vibflow >/dev/null 2>&1; then
  vibflow memory observe-commit >/dev/null 2>&1 || true
fi
exit $status
"""


def install(root: Path, *, python: str | None = None) -> HookChange:
    folder = hooks_dir(root)
    folder.mkdir(parents=True, exist_ok=True)
    hook = folder / "post-commit"
    chained = False
    if hook.exists() or hook.is_symlink():
        text = hook.read_text(encoding="utf-8", errors="replace") if hook.is_file() else ""
        if MARKER in text:
            return HookChange(False, (folder / CHAINED).exists(), _display(root, hook))
        if (folder / CHAINED).exists():
            raise VibflowError(
                ErrorCode.BAD_INPUT,
                f"both a post-commit hook and {CHAINED} exist; vibflow will not guess which "
                "to keep",
                hint="Merge them by hand, then run `vibflow hooks install` again.",
            )
        hook.rename(folder / CHAINED)
        chained = True
    # 0o777 under the umask: executable by whoever may read it, as git's own hooks are.
    atomic_write(hook, _script(python or sys.executable), durable=True, mode=0o777)
    return HookChange(True, chained, _display(root, hook))


def uninstall(root: Path) -> HookChange:
    folder = hooks_dir(root)
    hook = folder / "post-commit"
    original = folder / CHAINED
    if not hook.is_file() or MARKER not in hook.read_text(encoding="utf-8", errors="replace"):
        return HookChange(False, False, _display(root, hook))
    if original.exists() or original.is_symlink():
        original.replace(hook)
        return HookChange(True, True, _display(root, hook))
    hook.unlink()
    return HookChange(True, False, _display(root, hook))


def _display(root: Path, path: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return "post-commit (outside the work tree)"
