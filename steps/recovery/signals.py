"""Collect what recovery planning looks at — read-only.

git diff against HEAD (renames followed, names exact with ``-z``; a file moved
without git pairs with its exact copy), untracked files one by one, the safe
checkpoint's differences from HEAD (so a file it held and the agent deleted is
a change too, and a restore's deletions are judged against it), recent commits
on HEAD, checkpoints, memory (explicit relevant files, intent and its
freshness, recent patch targets), the changed files the user changed last by
the agent turn records (``evidence_yours``), and path categories from policy.
Nothing here writes to the work tree or to git.

Recent commits (read in ``listings``) are each marked ``since_intent`` when
they were made after the active intent was set. When the HEAD the intent was
set on is in the window, that means newer than it on the line *and* committed
at or after the intent's time — so commits fast-forwarded in from before the
intent do not count. Otherwise (no recorded HEAD, or HEAD moved elsewhere)
only the time can tell, and both times have whole seconds: a commit must be
strictly later than the intent. A fresh intent has fewer than
``stale_intent_commits`` (5) commits since it, so the 10-commit window holds
all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vibflow.steps.checkpoints.leftovers import is_restore_temp
from vibflow.steps.checkpoints.models import CheckpointMeta
from vibflow.steps.recovery import evidence_read, line_counts, listings
from vibflow.steps.recovery.brought import brought
from vibflow.steps.recovery.categories import categorizer
from vibflow.steps.recovery.checkpoint_base import CheckpointBase, HeldJudge, against_checkpoint
from vibflow.steps.recovery.early_listing import Listed, Listing, listing_pool
from vibflow.steps.recovery.evidence import NO_EVIDENCE, Evidence
from vibflow.steps.recovery.generated import Recogniser
from vibflow.steps.recovery.generated_policy import GeneratedRules
from vibflow.steps.recovery.git_memo import Pinned
from vibflow.steps.recovery.lstats import Lstats
from vibflow.steps.recovery.models import ChangedFile, RecoveryPlan
from vibflow.steps.recovery.zone import MemorySignals, RecentCommit, explicit_matcher
from vibflow.steps.recovery.zone_policy import ZonePolicy
from vibflow.steps.workspace import diffs
from vibflow.steps.workspace.git import Git

if TYPE_CHECKING:
    from vibflow.steps.recovery.evidence_yours import Turns

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
    commits: list[RecentCommit] = field(default_factory=list)  # newest first
    #: The safe checkpoint the changes were also compared with, if one predates them.
    base: CheckpointBase | None = None
    #: References, co-change and names linking changed files to the explicit ones.
    evidence: Evidence = NO_EVIDENCE
    #: Line counts a long-lived process is still reading (or reading again), to set on
    #: the plan's changes once it is built (:func:`counted`); no rule reads a count.
    counting: Future[dict[str, diffs.Counts]] | None = None


def memory_signals(view: Any) -> tuple[MemorySignals, str | None, bool]:
    """Explicit files, recent patch targets, and whether memory may narrow the zone."""
    if view is None:
        return MemorySignals({}, [], False, "no project memory: using the diff only"), None, False
    state, fresh = view.state, view.freshness
    explicit = {f.path: f.why for f in state.relevant_files if f.source == "explicit"}
    recent: list[str] = []
    for event in state.observed_context[-RECENT_EVENTS:]:
        # Only a patch's declared targets are evidence of scope. The files an
        # agent's tools reported (``touched_files``, the agent hooks) are what the
        # zone judges: counting them would put every drift the agent made in scope.
        if event.kind == "patch_apply":
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


def intent_anchor(view: Any) -> tuple[float | None, str | None]:
    """When the active intent was set (epoch seconds) and the HEAD it was set on."""
    intent = view.state.active_intent if view is not None else None
    if intent is None:
        return None, None
    try:
        parsed = datetime.fromisoformat(intent.last_updated.replace("Z", "+00:00"))
    except (ValueError, AttributeError):
        # No valid time: freshness already calls the intent stale; no commit counts as since.
        return None, None
    when = (parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)).timestamp()
    head = intent.head_at_update if isinstance(intent.head_at_update, str) else None
    return when, head


def mark_since_intent(
    commits: Sequence[RecentCommit], set_at: float | None, anchor: str | None
) -> list[RecentCommit]:
    """Mark the commits made after the intent was set (see the module docstring)."""
    if set_at is None:
        return [replace(c, since_intent=False) for c in commits]
    cut = next((i for i, c in enumerate(commits) if anchor and c.sha == anchor), None)
    if cut is None:
        # Both times have whole seconds: without the intent's HEAD to tell them apart,
        # a commit in the intent's own second may well predate it, so it does not count.
        return [replace(c, since_intent=c.committed_at > set_at) for c in commits]
    return [
        replace(c, since_intent=i < cut and c.committed_at >= set_at) for i, c in enumerate(commits)
    ]


def collect(
    root: Path,
    git: Git,
    *,
    checkpoints: Sequence[CheckpointMeta],
    memory_view: Any,
    categories: Mapping[str, Sequence[str]],
    generated: Any,
    scratch_index: Path,
    corrections: Mapping[str, str] | None = None,
    rules: GeneratedRules | None = None,
    zone_policy: ZonePolicy | None = None,
    held: HeldJudge | None = None,
    pinned: Pinned | None = None,
    own: Mapping[str, str] | None = None,
    turns: Turns | None = None,
    read_head: Callable[[], str | None] | None = None,
    last: listings.LastListings | None = None,
    early: Listing | None = None,
) -> Signals:
    """``read_head``: HEAD's commit id as the caller is reading it (else read here).
    ``last``: a long-lived process's last listings, to work from while git lists
    (``listings``). ``early``: the listings a fresh command started before loading
    the advisor (``early_listing``), taken when they list from HEAD."""
    head = read_head() if read_head is not None else git.head()
    mem, intent, stale = memory_signals(memory_view)
    if corrections:
        mem = replace(mem, corrections=dict(corrections))
    zone_rules = zone_policy or ZonePolicy()
    start = head or diffs.EMPTY_TREE
    # A long-lived process keeps line counts per file state (line_counts): it
    # lists names alone, and counts only what it has not kept.
    reads = listings.begin(
        git,
        scratch_index,
        start,
        head,
        _anchors(mem) if mem.usable else [],
        zone_rules,
        counts=pinned is None,
        early=early,
    )
    inputs = _Inputs(
        root,
        git,
        head,
        start,
        scratch_index,
        checkpoints,
        memory_view,
        mem,
        intent,
        stale,
        categories,
        generated,
        rules or GeneratedRules(),
        zone_rules,
        held,
        pinned,
        own,
        turns,
        reads,
    )
    guess = last.guess(start) if last is not None else None
    if guess is not None:
        ahead = _guessed(inputs, guess)
        try:
            listed = reads.listed()
        except BaseException:
            if ahead is not None:
                settle(ahead, drop=True)  # nothing of a preview runs on after it
            raise
        if ahead is not None:
            if listed == guess:
                return ahead
            settle(ahead, drop=True)
    else:
        listed = reads.listed()
    if last is not None:
        last.saw(start, listed)
    return _worked_out(inputs, *listed)


@dataclass(frozen=True)
class _Inputs:
    """What a preview works out its signals from, besides the two listings."""

    root: Path
    git: Git
    head: str | None
    start: str
    scratch_index: Path
    checkpoints: Sequence[CheckpointMeta]
    memory_view: Any
    mem: MemorySignals
    intent: str | None
    stale: bool
    categories: Mapping[str, Sequence[str]]
    generated: Any
    rules: GeneratedRules
    zone: ZonePolicy
    held: HeldJudge | None
    pinned: Pinned | None
    own: Mapping[str, str] | None
    turns: Turns | None
    reads: listings.Reads


def _guessed(inputs: _Inputs, guess: Listed) -> Signals | None:
    """The signals worked out from the last listings, or None when that failed."""
    try:
        return _worked_out(inputs, *guess)
    except Exception:  # noqa: BLE001 - only a guess: the listings git gives decide
        return None


def _worked_out(inputs: _Inputs, tracked: list[diffs.Change], listed: list[str]) -> Signals:
    """The signals, from the tracked changes and the untracked names."""
    root, git = inputs.root, inputs.git
    # vibflow's own files (its state, a killed restore's temp files) are never drift.
    untracked = [p for p in listed if not p.startswith(".vibflow/") and not is_restore_temp(p)]
    stats = Lstats(str(root))  # one lstat per file, whichever rule asks first
    counts = (
        line_counts.LineCounts(git, root, inputs.scratch_index, inputs.start, inputs.pinned, stats)
        if inputs.pinned is not None
        else None
    )
    tracked, counting = _kept_counts(listing_pool(), counts, tracked)
    try:
        return _from_changes(inputs, stats, tracked, untracked, counting)
    except BaseException:
        # Nothing of a preview runs on after it, a failed one (or a guess) included.
        if counting is not None and not counting.cancel():
            wait([counting])
        raise


def _from_changes(
    inputs: _Inputs,
    stats: Lstats,
    tracked: list[diffs.Change],
    untracked: list[str],
    counting: Future[dict[str, diffs.Counts]] | None,
) -> Signals:
    root, git, head, mem = inputs.root, inputs.git, inputs.head, inputs.mem
    found_commits = inputs.reads.commits.result()
    tracked, untracked = diffs.pair_moves(git, root, tracked, untracked)
    recogniser = Recogniser(
        root,
        git,
        inputs.rules,
        inputs.generated,
        inputs.pinned,
        stats,
        brought=brought(head, tracked, untracked, inputs.checkpoints),
    )
    categorize = categorizer(inputs.categories)  # one policy for every path
    changed = [
        _changed(c.path, c.status, c.old_path, c.added_lines, c.deleted_lines, c.binary, categorize)
        for c in tracked
    ]
    dirs = {p.rstrip("/") for p in untracked if p.endswith("/")}
    changed += [
        _changed(p.rstrip("/"), "untracked", None, None, None, False, categorize) for p in untracked
    ]
    changed = _classified(recogniser, changed, dirs)
    own = inputs.own
    if own:
        # vibflow's own files (its agent hooks): listed with the generated ones,
        # never drift and never restored, as long as they hold only vibflow's change.
        changed = [
            c.model_copy(update={"generated": True, "generated_why": own[c.path]})
            if c.path in own and not c.generated
            else c
            for c in changed
        ]
    cochanged = inputs.reads.history.result()
    mtimes: dict[str, float] = {}
    for item in changed:
        if not item.generated:
            st = stats.get(item.path)
            if st is not None:  # else deleted: no time of its own
                mtimes[item.path] = st.st_mtime
    # HEAD's side of each tracked change, as the listing gave it: what a checkpoint
    # holds wherever it does not differ from HEAD (no listing of its whole tree).
    head_blobs = {
        c.old_path or c.path: (c.old_mode, c.old_sha)
        for c in tracked
        if c.old_mode is not None and c.old_sha is not None
    }
    base, lost = against_checkpoint(
        root, git, head, inputs.checkpoints, changed, mtimes, inputs.held, head_blobs
    )
    changed += _classified(
        recogniser, [_changed(p, s, None, None, None, False, categorize) for p, s in lost], set()
    )
    if inputs.turns and mem.usable:
        # The agent's turn records tell the user's own edits from the agent's (loaded
        # only when there are turns: a project without hooks never pays for it).
        from vibflow.steps.recovery import evidence_yours

        yours = evidence_yours.find(root, git, inputs.turns, changed, mtimes, inputs.held)
        if yours:
            mem = replace(mem, user_edits=yours)
    set_at, anchor = intent_anchor(inputs.memory_view)
    commits = mark_since_intent(found_commits, set_at, anchor)
    found = NO_EVIDENCE
    if mem.usable:
        seeds = _seeds(mem, changed)
        if seeds:
            found = evidence_read.gather(
                root,
                git,
                changed,
                seeds,
                inputs.intent,
                inputs.zone,
                history=cochanged,
                anchors=_anchors(mem),
                whole=recogniser.whole,
                held_out=frozenset(p for p, said in mem.corrections.items() if said == "drift"),
                memo=inputs.pinned,
                head=head,
            )
    return Signals(
        head,
        changed,
        mtimes,
        list(inputs.checkpoints),
        mem,
        inputs.intent,
        inputs.stale,
        commits,
        base,
        found,
        counting,
    )


def _kept_counts(
    pool: ThreadPoolExecutor,
    counts: line_counts.LineCounts | None,
    tracked: list[diffs.Change],
) -> tuple[list[diffs.Change], Future[dict[str, diffs.Counts]] | None]:
    """The tracked changes with their kept line counts, and the check of those with
    the reading of the rest, run beside the rules that follow (none of which needs a
    count); what it reads is set on the plan's changes once built (:func:`counted`).
    ``counts`` None: a listing that read its counts itself (a fresh run keeps none)."""
    if counts is None or not tracked:
        return tracked, None
    known, missing = counts.known(tracked)
    return known, pool.submit(counts.count, tracked, missing)


def settle(found: Signals, *, drop: bool = False) -> None:
    """Wait until the late line counts are read (their scratch index may then go);
    their error, if any, is :func:`counted`'s to raise. ``drop``: counts nobody will
    read, cancelled unless they have started."""
    counting = found.counting
    if counting is not None and not (drop and counting.cancel()):
        wait([counting])


def counted(plan: RecoveryPlan, found: Signals) -> RecoveryPlan:
    """``plan`` with the line counts read late (or read again: a kept count whose
    settings moved) set on the tracked changes they belong to; a move paired from a
    deletion keeps its own, 0 and 0 (its path was untracked, never counted)."""
    if found.counting is None:
        return plan
    counts = found.counting.result()
    if not counts:
        return plan
    changed = []
    for c in plan.changed:
        got = counts.get(c.path) if c.status != "untracked" else None
        if got is None:
            changed.append(c)
        else:
            added, deleted, binary = got
            changed.append(
                c.model_copy(
                    update={"added_lines": added, "deleted_lines": deleted, "binary": binary}
                )
            )
    return plan.model_copy(update={"changed": changed})


def _anchors(mem: MemorySignals) -> list[str]:
    """The paths co-change is measured against: explicit files (and folders), and
    files the user said are in scope."""
    return list(
        dict.fromkeys(
            [*mem.explicit, *(p for p, said in mem.corrections.items() if said == "in_scope")]
        )
    )


def _seeds(mem: MemorySignals, changed: Sequence[ChangedFile]) -> dict[str, list[str]]:
    """Explicit files (and those the user put in scope) → the names they may be
    referred to by; a changed file under an explicit folder or renamed from an
    explicit name is one, under both names."""
    seeds: dict[str, list[str]] = {p: [p] for p in _anchors(mem) if not p.endswith("/")}
    if mem.explicit:
        covering = explicit_matcher(mem.explicit)
        for c in changed:
            if not c.generated and covering(c) is not None:
                seeds[c.path] = [c.path] + ([c.old_path] if c.old_path else [])
    return seeds


def _classified(
    recogniser: Recogniser, changed: list[ChangedFile], dirs: set[str]
) -> list[ChangedFile]:
    """``changed`` with the generated, vendored, build and lockfile verdicts."""
    verdicts = recogniser.classify(
        [(c.path, c.status != "deleted", c.path in dirs) for c in changed]
    )
    if not verdicts:
        return changed
    out = []
    for c in changed:
        v = verdicts.get(c.path)
        if v is None:
            out.append(c)
        elif v.kind == "lockfile":
            out.append(c.model_copy(update={"lockfile": True}))
        else:
            out.append(c.model_copy(update={"generated": True, "generated_why": v.reason}))
    return out


def _changed(
    path: str,
    status: str,
    old: str | None,
    added: int | None,
    deleted: int | None,
    binary: bool,
    categorize: Callable[[str], str | None],
) -> ChangedFile:
    return ChangedFile(
        path=path,
        status=status,
        old_path=old,
        added_lines=added,
        deleted_lines=deleted,
        binary=binary,
        category=categorize(path),
    )
