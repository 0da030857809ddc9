"""Recovery options, levels 0-4 (spec §8), and the safe checkpoint candidate.

0 no-op · 1 explain only · 2 targeted repair guidance · 3 partial restore
preview · 4 full rollback preview. Every option that cannot run carries a
plain ``blocked_reason``; levels 3-4 need a checkpoint that predates the
change (no full rollback is ever recommended without one), and a restore also
needs the guarded apply to exist and be enabled. The recommended option is
the most useful one that can actually run.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from vibflow.engine.clock import parse_stamp
from vibflow.steps.checkpoints.models import CheckpointMeta
from vibflow.steps.recovery.models import (
    COMMIT_ABBREV,
    ChangedFile,
    DriftCandidate,
    RecoveryOption,
    SafeCheckpointCandidate,
)


def epoch(ts: str) -> float | None:
    """A stored time (``created_at``) as seconds since the epoch; None when it is not one."""
    parsed = parse_stamp(ts)
    return parsed.timestamp() if parsed is not None else None


def safe_checkpoint(
    checkpoints: Sequence[CheckpointMeta],
    mtimes: Mapping[str, float],
    head: str | None,
) -> SafeCheckpointCandidate | None:
    """The newest complete checkpoint that predates the change, else the last commit.

    A checkpoint predates the change when something changed after it was
    taken: it then holds the earlier content of those files. Files last
    modified before it are identical in it (a checkpoint includes uncommitted
    work), so restoring them from it changes nothing.

    When none qualifies, the last commit (``head``) is the safe point: every
    change the plan lists is a change since it, and tracked files can be put
    back as committed (``kind: "commit"``). Without a commit either, the newest
    checkpoint is reported (not selected), so the user sees why restore is
    blocked; with no checkpoint and no commit there is no candidate.
    """
    last_commit = (
        SafeCheckpointCandidate(
            kind="commit",
            checkpoint_id=None,
            commit=head[:COMMIT_ABBREV],
            label=f"the last commit ({head[:COMMIT_ABBREV]})",
            created_at=None,
            predates_change=True,
            metadata_complete=True,
        )
        if head
        else None
    )
    if not checkpoints:
        return last_commit
    newest_first = sorted(checkpoints, key=lambda m: m.created_at, reverse=True)

    def predates(m: CheckpointMeta) -> bool:
        made = epoch(m.created_at)
        if made is None:
            return False
        if not mtimes:  # only deletions: judge by the commit it was taken on
            return m.base_head == head
        # Nothing changed since it was taken: it is a copy of now, not a way back.
        return any(t >= made for t in mtimes.values())

    # A sandwich holds the state *before a restore* — usually the drifted one:
    # never a way back.
    newest_first = [m for m in newest_first if m.reason != "sandwich"] or newest_first
    for m in newest_first:
        if m.metadata_complete and m.reason != "sandwich" and predates(m):
            return SafeCheckpointCandidate(
                checkpoint_id=m.checkpoint_id,
                label=f"checkpoint {m.checkpoint_id}",
                created_at=m.created_at,
                predates_change=True,
                metadata_complete=True,
            )
    if last_commit is not None:
        return last_commit
    m = newest_first[0]
    return SafeCheckpointCandidate(
        checkpoint_id=m.checkpoint_id,
        label=f"checkpoint {m.checkpoint_id}",
        created_at=m.created_at,
        predates_change=False,
        metadata_complete=m.metadata_complete,
    )


def before_drift(
    checkpoints: Sequence[CheckpointMeta],
    chosen: SafeCheckpointCandidate | None,
    mtimes: Mapping[str, float],
    drift: Collection[str],
) -> list[CheckpointMeta] | None:
    """The checkpoints to choose the safe point from again, when the chosen one is an
    agent turn's that was taken after a drift candidate last changed — it then holds
    that drift (made in an earlier turn), and a restore from it would put the drift
    back as it is. ``None`` when the choice stands.

    Only a turn checkpoint, which the hooks take on their own, is stepped back
    past, and never past a checkpoint the user took: the user's own checkpoint
    is their word for "safe from here", and a file they edited just before it
    (flagged only because no evidence links it) must not be rolled back further.
    """
    if chosen is None or chosen.kind != "checkpoint" or chosen.created_at is None:
        return None
    meta = next((m for m in checkpoints if m.checkpoint_id == chosen.checkpoint_id), None)
    made = epoch(chosen.created_at)
    times = [mtimes[p] for p in drift if p in mtimes]
    if meta is None or meta.reason != "agent_turn" or made is None or not times:
        return None
    first = min(times)
    if first >= made:
        return None
    timed = [(m, epoch(m.created_at)) for m in checkpoints]
    if any(
        t is not None and first < t <= made and m.reason not in ("agent_turn", "sandwich")
        for m, t in timed
    ):
        return None  # the user checkpointed after the drift began: their safe point stands
    older = [m for m, t in timed if t is not None and t <= first]
    usable = any(m.metadata_complete and m.reason != "sandwich" for m in older)
    return older if usable else None


#: Why a restore that would change no file is not offered to run.
NOTHING_TO_RESTORE = (
    "nothing to restore: the files are already as the safe checkpoint holds them "
    "(it was taken after they changed) or are left out; review them yourself, or "
    "restore one from an earlier checkpoint with `vibflow checkpoint restore CKPT -- PATH`"
)


def sides(c: ChangedFile) -> list[tuple[str, bool]]:
    """The paths one change touches, each with whether HEAD holds it: a rename is
    one change with two paths (the old name in HEAD, the new one not)."""
    if c.status == "renamed" and c.old_path:
        return [(c.old_path, True), (c.path, False)]
    return [(c.path, c.status not in ("added", "untracked"))]


def build_options(
    changed: Sequence[ChangedFile],
    drift: Sequence[DriftCandidate],
    candidate: SafeCheckpointCandidate | None,
    *,
    apply_blocked_reason: str | None,
    held: Callable[[str, bool], bool] | None = None,
    unsaved: Collection[str] = (),
    settled: Collection[str] = (),
    committed: Collection[str] = (),
) -> list[RecoveryOption]:
    """All options, the recommended one first (marked ``recommended``).

    ``held(path, in_head)`` says whether the restore's source holds a path (the
    safe checkpoint's differences from HEAD); without it, HEAD's answer. A path
    the source does not hold is in the option's ``deletes``: restoring deletes it.
    Which option is recommended does not depend on ``apply_blocked_reason`` (the
    feature flag): the flag decides whether an option can run, not which is safest.
    ``committed``: paths commits made since the checkpoint changed too.
    """
    relevant = [c for c in changed if not c.generated]
    if not relevant:
        return [
            RecoveryOption(
                level=0,
                label="Nothing to recover — the working tree matches the last commit.",
                estimated_impact="no file changes",
                recommended=True,
            )
        ]
    usable = candidate is not None and candidate.predates_change and candidate.metadata_complete
    restore_block = None
    if candidate is None:
        restore_block = "no checkpoint exists yet, so there is nothing safe to restore from"
    elif not usable:
        restore_block = "no safe checkpoint predates the change"
    by_path = {c.path: c for c in relevant}
    drift_changes = [by_path[d.path] for d in drift if d.path in by_path]
    n = len(drift)
    holds = held or (lambda _path, in_head: in_head)

    left_out = set(unsaved)
    same = set(settled)

    # No checkpoint predates the change: the labels say the restore reads the last commit.
    by_commit = candidate is not None and candidate.kind == "commit"
    options = [
        RecoveryOption(
            level=1,
            label="Explain only — show what changed and which files look out of scope.",
            affected_paths=[],
            estimated_impact="no file changes; informational",
        )
    ]
    if drift_changes:
        drift_paths, drift_gone, drift_impact, drift_left = _touched(
            drift_changes, left_out, same, holds
        )
        drift_n = _how_many(n, drift_left, "the", "out-of-scope file(s)")
        drift_impact += _undoes_commits(drift_paths, committed)
        # Offered and chosen, a restore of nothing would take a safety checkpoint and
        # then have nothing to confirm: the drift was already there when the
        # checkpoint was taken (or every file is left out).
        drift_block = restore_block or (None if drift_paths else NOTHING_TO_RESTORE)
        review = list(dict.fromkeys(p for c in drift_changes for p, _ in sides(c)))
        options.append(
            RecoveryOption(
                level=2,
                label=f"Targeted repair — review the {n} file(s) outside your intent "
                "and fix or revert them yourself.",
                affected_paths=review,
                estimated_impact="you edit the files; vibflow changes nothing",
            )
        )
        options.append(
            RecoveryOption(
                level=3,
                label=(
                    f"Partial restore from the last commit — put back {drift_n} as "
                    "committed, keeping your in-scope work."
                    if by_commit
                    else f"Partial restore — put back {drift_n} from the safe checkpoint, "
                    "keeping your in-scope work."
                ),
                affected_paths=drift_paths,
                deletes=drift_gone,
                estimated_impact=f"{drift_impact}; a safety checkpoint is taken first so "
                "this can be undone",
                requires_sandwich=True,
                requires_lock=True,
                blocked_reason=drift_block,
            )
        )
    if usable:
        all_paths, all_gone, all_impact, all_left = _touched(relevant, left_out, same, holds)
        all_n = _how_many(len(relevant), all_left, "all", "changed file(s)")
        all_impact += _undoes_commits(all_paths, committed)
        all_block = restore_block or (None if all_paths else NOTHING_TO_RESTORE)
        options.append(
            RecoveryOption(
                level=4,
                label=(
                    f"Full rollback from the last commit — restore {all_n} as committed."
                    if by_commit
                    else f"Full rollback — restore {all_n} to the safe checkpoint."
                ),
                affected_paths=all_paths,
                deletes=all_gone,
                estimated_impact=f"{all_impact}, including in-scope work; a safety "
                "checkpoint is taken first",
                requires_sandwich=True,
                requires_lock=True,
                blocked_reason=all_block,
            )
        )
    # Ranked on what could run with the flag on: switching the flag must not
    # change which option is the safest, only whether it can run now.
    possible = [o for o in options if o.blocked_reason is None]
    # Prefer a partial restore, then targeted repair, then explaining: the
    # least destructive option that deals with the drift.
    order = {3: 0, 2: 1, 1: 2, 4: 3}
    best = min(possible, key=lambda o: order.get(o.level, 9))
    if apply_blocked_reason:
        options = [
            o.model_copy(update={"blocked_reason": apply_blocked_reason})
            if o.requires_sandwich and o.blocked_reason is None
            else o
            for o in options
        ]
    ranked = [
        o.model_copy(update={"recommended": True}) for o in options if o.option_id == best.option_id
    ]
    ranked += [o for o in sorted(options, key=lambda o: o.level) if o.option_id != best.option_id]
    return ranked


def _touched(
    changes: Sequence[ChangedFile],
    left_out: set[str],
    same: set[str],
    holds: Callable[[str, bool], bool],
) -> tuple[list[str], list[str], str, int]:
    """The paths a restore of ``changes`` writes, those it deletes (``holds`` says
    the source has none), its impact, and how many of ``changes`` it leaves as they
    are (``left_out``, or every path in ``same``: already as the source holds them)."""
    pairs = [(p, in_head) for c in changes for p, in_head in sides(c)]
    # A rename is one change: when one of its names is left out, so is the other
    # (restoring the new name alone deletes it and brings nothing back).
    whole = [c for c in changes if not any(p in left_out for p, _ in sides(c))]
    kept = [(p, in_head) for c in whole for p, in_head in sides(c) if p not in same]
    paths = list(dict.fromkeys(p for p, _ in kept))
    gone = list(dict.fromkeys(p for p, in_head in kept if not holds(p, in_head)))
    impact = f"{len(paths)} path(s) changed: {len(paths) - len(gone)} restored"
    if gone:
        impact += f", {len(gone)} deleted (not in the checkpoint)"
    every = {p for p, _ in pairs}
    skipped = len(every - {p for c in whole for p, _ in sides(c)})
    if skipped:
        impact += f"; {skipped} left as they are (the plan's left_out says why)"
    already = len(every - set(paths)) - skipped
    if already:
        impact += f"; {already} already as the checkpoint holds them"
    # Left as they are: the changes left out, and those already as the source holds
    # them (a label never counts a file the restore does not write).
    written = sum(1 for c in whole if any(p not in same for p, _ in sides(c)))
    return paths, gone, impact, len(changes) - written


def _undoes_commits(paths: Sequence[str], committed: Collection[str]) -> str:
    """What a restore of ``paths`` from a checkpoint older than the last commit does
    to the work those commits hold, in words (empty when it touches none of it)."""
    if not committed:
        return ""
    k = sum(1 for p in paths if p in committed)
    if not k:
        return ""
    return (
        f"; {k} of them also changed in commits made since the checkpoint — restoring puts "
        "them back as they were before those commits"
    )


def _how_many(total: int, left: int, every: str, what: str) -> str:
    """``the 7 WHAT`` (``every`` then the count), or ``4 of the 7 WHAT (3 left as they
    are)`` when a restore cannot take some of them: a label never promises more
    than the restore does."""
    if not left:
        return f"{every} {total} {what}"
    return f"{total - left} of the {total} {what} ({left} left as they are)"


def earlier_hint(option: RecoveryOption, sources: Mapping[str, Sequence[str]]) -> RecoveryOption:
    """The partial restore ``option`` with where the drift the safe checkpoint
    already holds can be restored from instead (``sources``: earlier checkpoint →
    its paths), as commands to run from the project folder. Other options are
    returned as they are."""
    if option.level != 3:
        return option
    import shlex  # only here: a plan rarely needs it

    n = sum(len(paths) for paths in sources.values())
    commands = "; ".join(
        f"`vibflow checkpoint restore {ckpt} -- {' '.join(shlex.quote(p) for p in paths)}`"
        for ckpt, paths in sorted(sources.items())
    )
    hint = (
        f"{n} out-of-scope file(s) changed before the safe checkpoint was taken and are "
        "already as it holds them; an earlier checkpoint holds them as last committed "
        f"(from the project folder: {commands})"
    )
    if option.blocked_reason == NOTHING_TO_RESTORE:
        return option.model_copy(update={"blocked_reason": f"nothing to restore here: {hint}"})
    return option.model_copy(update={"estimated_impact": f"{option.estimated_impact}; {hint}"})
