"""Collect what recovery planning looks at — read-only.

git diff against HEAD (renames followed, names exact with ``-z``), untracked
files one by one, checkpoints, memory (explicit relevant files, intent and
its freshness, recent patch targets), and path categories from policy.
Nothing here writes to the work tree or to git.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vibflow.steps.checkpoints.models import CheckpointMeta
from vibflow.steps.recovery.models import ChangedFile
from vibflow.steps.recovery.zone import MemorySignals, category_of
from vibflow.steps.workspace import diffs
from vibflow.steps.workspace.git import Git

RECENT_EVENTS = 20


@dataclass(frozen=True)
class Signals:
    head: str | None
    changed: list[ChangedFile]
    mtimes: dict[str, float]  # last modification of each changed, non-generated file
    checkpoints: list[CheckpointMeta]
    memory: MemorySignals
    intent: str | None
    intent_stale: bool


def memory_signals(view: Any) -> tuple[MemorySignals, str | None, bool]:
    """Explicit files, recent patch targets, and whether memory may narrow the zone."""
    if view is None:
        return MemorySignals({}, [], False, "no project memory: using the diff only"), None, False
    state, fresh = view.state, view.freshness
    explicit = {f.path: f.why for f in state.relevant_files if f.source == "explicit"}
    recent: list[str] = []
    for event in state.observed_context[-RECENT_EVENTS:]:
        if event.kind in ("patch_apply", "touched_files"):
            paths = event.detail.get("paths")
            if isinstance(paths, list):
                recent += [p for p in paths if isinstance(p, str)]
    intent = state.active_intent
    text = intent.text if intent else None
    if intent is not None and fresh.intent_stale:
        note = (
            "the active intent is stale (" + "; ".join(fresh.intent_reasons) + "), so the "
            "plan uses the diff only — explicit relevant files are still never drift"
        )
        return MemorySignals(explicit, recent, False, note), text, True
    if intent is None and not explicit and not recent:
        return (
            MemorySignals(
                {},
                [],
                False,
                "project memory is empty, so the plan uses the diff only "
                "(set an intent and relevant files to narrow it)",
            ),
            None,
            False,
        )
    return MemorySignals(explicit, list(dict.fromkeys(recent)), True, None), text, False


def collect(
    root: Path,
    git: Git,
    *,
    checkpoints: Sequence[CheckpointMeta],
    memory_view: Any,
    categories: Mapping[str, Sequence[str]],
    generated: Any,
    scratch_index: Path,
) -> Signals:
    head = git.head()
    tracked = diffs.head_to_worktree(git, scratch_index)
    untracked = [
        p
        for p in git.z("ls-files", "-z", "--others", "--exclude-standard")
        if not p.startswith(".vibflow/")
    ]
    changed: list[ChangedFile] = []
    for c in tracked:
        changed.append(
            _changed(
                c.path,
                c.status,
                c.old_path,
                c.added_lines,
                c.deleted_lines,
                c.binary,
                categories,
                generated,
            )
        )
    for path in untracked:
        changed.append(
            _changed(
                path.rstrip("/"),
                "untracked",
                None,
                None,
                None,
                False,
                categories,
                generated,
                is_dir=path.endswith("/"),
            )
        )
    mtimes: dict[str, float] = {}
    for item in changed:
        if item.generated:
            continue
        try:
            mtimes[item.path] = (root / item.path).lstat().st_mtime
        except OSError:
            continue  # deleted: no time of its own
    mem, intent, stale = memory_signals(memory_view)
    return Signals(head, changed, mtimes, list(checkpoints), mem, intent, stale)


def _changed(
    path: str,
    status: str,
    old: str | None,
    added: int | None,
    deleted: int | None,
    binary: bool,
    categories: Mapping[str, Sequence[str]],
    generated: Any,
    *,
    is_dir: bool = False,
) -> ChangedFile:
    parts = path.split("/")
    is_generated = (
        generated is not None and generated.generated_match(parts, final_is_dir=is_dir) is not None
    )
    return ChangedFile(
        path=path,
        status=status,
        old_path=old,
        added_lines=added,
        deleted_lines=deleted,
        binary=binary,
        category=category_of(path, categories),
        generated=is_generated,
    )
