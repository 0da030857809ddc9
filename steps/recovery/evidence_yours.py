"""Your own edits: changed files whose last change was the user's, told apart from
the agent's by the agent hooks' turn records — read-only.

Each recorded turn has a checkpoint at its start (S) and, when the agent said
it ended, one at its end (E). Between two turns (E of one → S of the next) and
after the last one (its E → the tree now) no turn ran: what changed then is the
user's (or their own tools'). A changed file is *yours* when the newest of those
stretches that changed it is one where no turn ran — a file the agent touched
again in a later turn is the agent's, whatever the user did before. The zone
takes yours as in scope (``user_edit``): reverting the user's own work as the
agent's drift is the one mistake a recovery tool must not make.

The doubt always falls on the agent's side, the reverse of a rewind's ledger
(``steps/agents/ledger``), which keeps a file when unsure: calling a file yours
hides it from the drift list, so only what the records prove counts —

* a turn still running (no end yet) means nothing is known to be yours: its
  shell may be writing anything;
* a turn without both checkpoints hides what it changed: stretches before it
  say nothing more;
* a gap that another turn overlapped (two agents at once) is no one's;
* files a checkpoint left out (a likely secret, too large) are never judged.

Cost: one ``git diff-tree --stdin`` for every stretch of the recent turns
(trees only, no blob read), and for the stretch after the last turn one
``ls-tree`` of the few changed files written since it ended, read and compared
with what its end checkpoint holds — the same verdict a restore makes. Nothing
is written.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from vibflow.engine.errors import VibflowError
from vibflow.steps.checkpoints.models import CheckpointMeta
from vibflow.steps.recovery.checkpoint_base import HeldJudge, is_as_held
from vibflow.steps.recovery.models import ChangedFile
from vibflow.steps.recovery.options import epoch
from vibflow.steps.workspace.git import Git

#: Turns read from the records: the stretches that decide most files are recent.
RECENT_TURNS = 30
#: Past this many files written since the last turn ended, none is judged yours
#: (naming them costs git a pathspec match each): the plan stays as it was.
AFTER_MAX = 256
#: Filesystems that keep coarse times (FAT: 2 s) may date a later edit earlier.
_SLACK_SECONDS = 2.0

AFTER_LAST = "you changed it after the agent's last turn ended, while no turn ran"


@dataclass(frozen=True)
class RecordedTurn:
    """One agent turn as the hooks recorded it (``steps/agents`` reads them)."""

    agent: str
    number: int
    started_at: str
    ended_at: str | None  # None: still running (or the agent never said it ended)
    start: str | None  # checkpoint id taken as it started
    end: str | None  # checkpoint id taken as it ended
    reported: tuple[str, ...] = ()  # files its tools reported
    #: How it ended: ``turn_end`` (the agent said so), or closed by the next prompt
    #: or the session's end (an interrupt sends no hook: the end is a guess).
    ended_by: str | None = None


#: The seam: the recent turns, oldest first (empty when no hook ever ran).
TurnRecords = Callable[[], Sequence[RecordedTurn]]


@dataclass(frozen=True)
class Turns:
    """The recent turns, with every checkpoint there is — the turns' own among them,
    also when the plan itself looks only at those from before the drift."""

    recorded: Sequence[RecordedTurn]
    checkpoints: Sequence[CheckpointMeta]


@dataclass(frozen=True)
class _Stretch:
    """A span of time the records cover: a turn (the agent's) or a gap after one (yours)."""

    turn: RecordedTurn
    agent: bool
    pair: tuple[str, str] | None  # (tree before, tree after); None: unknown


def stretches(
    turns: Sequence[RecordedTurn], checkpoints: Sequence[CheckpointMeta]
) -> list[_Stretch] | None:
    """The turns and the gaps between them, oldest first, each with the trees it
    spans (without the gap after the last turn, which ends at the tree now).
    ``None`` while a turn is running: then nothing is the user's for certain."""
    if not turns or any(t.ended_at is None for t in turns):
        return None
    turns = sorted(turns, key=lambda t: t.started_at)
    trees = {m.checkpoint_id: m.tree for m in checkpoints if m.tree}
    out: list[_Stretch] = []
    ended = ""
    for i, turn in enumerate(turns):
        out.append(_Stretch(turn, True, _pair(trees, turn.start, turn.end)))
        ended = max(ended, turn.ended_at or "")
        nxt = turns[i + 1] if i + 1 < len(turns) else None
        if nxt is None:
            break
        # No turn ran in the gap only when this turn ended last of all so far and the
        # next one started after it.
        clear = ended == turn.ended_at and nxt.started_at >= ended
        out.append(_Stretch(turn, False, _pair(trees, turn.end, nxt.start) if clear else None))
    return out


def _pair(trees: Mapping[str, str], a: str | None, b: str | None) -> tuple[str, str] | None:
    if a is None or b is None or a not in trees or b not in trees:
        return None
    return trees[a], trees[b]


def diff_all(git: Git, pairs: Sequence[tuple[str, str]]) -> list[set[str]] | None:
    """The names each pair of trees differs in (both names of a rename), in one
    ``git diff-tree --stdin``; ``None`` when git cannot answer."""
    if not pairs:
        return []
    feed = "".join(f"{a} {b}\n" for a, b in pairs).encode("ascii")
    try:
        raw = git.run("diff-tree", "--stdin", "-r", "-z", "--no-renames", "--name-only", stdin=feed)
    except VibflowError:
        return None
    # git echoes each input line (with its newline) before the names that pair differs
    # in, each name NUL-ended. The echoes are known: match them exactly, in order.
    out: list[set[str]] = []
    headers = [f"{a} {b}\n".encode("ascii") for a, b in pairs]
    at = 0
    for i, header in enumerate(headers):
        if not raw.startswith(header, at):
            return None
        at += len(header)
        names: set[str] = set()
        nxt = headers[i + 1] if i + 1 < len(headers) else None
        while at < len(raw) and (nxt is None or not raw.startswith(nxt, at)):
            end = raw.find(b"\0", at)
            if end < 0:
                return None
            names.add(raw[at:end].decode("utf-8", "surrogateescape"))
            at = end + 1
        out.append(names)
    return out


def find(
    root: Path,
    git: Git,
    read: Turns,
    changed: Sequence[ChangedFile],
    mtimes: Mapping[str, float],
    judge: HeldJudge | None = None,
) -> dict[str, str]:
    """Each changed file that is yours → why, in words the user can check (see the
    module docstring). Empty without turn records."""
    turns, checkpoints = read.recorded, read.checkpoints
    spans = stretches(turns, checkpoints)
    if not spans:
        return {}
    wanted = {c.path: c for c in changed if not c.generated and not c.lockfile}
    if not wanted:
        return {}
    known = [s for s in spans if s.pair is not None]
    diffs = diff_all(git, [s.pair for s in known if s.pair is not None])
    if diffs is None:
        return {}
    names = {id(s): d for s, d in zip(known, diffs, strict=True)}
    last = max(turns, key=lambda t: t.ended_at or "")
    by_id = {m.checkpoint_id: m for m in checkpoints}
    end = by_id.get(last.end or "")
    # Only files written since the turn ended (or gone) are compared, byte for byte: a
    # comparison of every file would call the agent's edits yours wherever git's filters
    # make the stored blob differ from the work tree's bytes (autocrlf, eol, fileMode).
    after = after_last_turn(root, git, end, list(wanted.values()), mtimes, judge) or set()
    yours: dict[str, str] = dict.fromkeys(sorted(after), AFTER_LAST)
    seen = set(after)
    before: dict[str, RecordedTurn] = {}  # yours → the newest turn that changed it earlier
    for span in reversed(spans):
        found = names.get(id(span))
        if span.agent:
            touched = set(span.turn.reported) | (found or set())
            for path in touched & yours.keys():
                before.setdefault(path, span.turn)
            seen |= touched
            if found is None:
                break  # what this turn changed is unknown: older gaps prove nothing
        elif found is not None:
            for path in sorted((found & wanted.keys()) - seen):
                yours[path] = (
                    f"you changed it after the agent's turn {span.turn.number} ended, "
                    "while no turn ran, and no later turn touched it"
                )
            seen |= found
    for path, turn in before.items():
        yours[path] += f" (the agent's turn {turn.number} changed it before you did)"
    return yours


def after_last_turn(
    root: Path,
    git: Git,
    end: CheckpointMeta | None,
    changed: Sequence[ChangedFile],
    mtimes: Mapping[str, float],
    judge: HeldJudge | None,
    *,
    every: bool = False,
) -> set[str] | None:
    """The changed paths that differ from the last turn's end checkpoint now: changed
    after it ended. Only files written since (or gone) are read, unless ``every`` (a
    copy that kept an old time is then caught too). None when it cannot be told (no
    end checkpoint, too many files to read, git failed)."""
    made = epoch(end.created_at) if end is not None else None
    if end is None or made is None:
        return None
    unsaved = {s.path for s in end.skipped}
    maybe: list[str] = []
    for c in changed:
        for path in (c.path, c.old_path):
            if path is None or path in unsaved:
                continue
            when = mtimes.get(path)
            if when is None and path == c.path and c.status != "deleted":
                when = _mtime(root, path)
            if every or when is None or when >= made - _SLACK_SECONDS:
                maybe.append(path)  # gone, or written since the turn ended: compare
    if not maybe:
        return set()
    if len(maybe) > AFTER_MAX:
        return None
    from vibflow.steps.checkpoints import restore

    try:
        items = restore.plan(git, end.commit or end.tree, list(dict.fromkeys(maybe)))
    except VibflowError:
        return None
    is_held = judge or is_as_held
    differs = {i.path for i in items if i.action != "skip" and not is_held(root, i)}
    return {c.path for c in changed if c.path in differs or (c.old_path or "") in differs}


def _mtime(root: Path, path: str) -> float | None:
    try:
        return os.lstat(os.path.join(str(root), path)).st_mtime  # noqa: PTH118 - a Path per file costs more
    except OSError:
        return None
