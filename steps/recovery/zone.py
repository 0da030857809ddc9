"""Intent zone and drift candidates (spec §5 and §8), pure functions.

The zone is built in priority order, each entry with its source and a reason
the user can check:

1. ``explicit`` — every explicitly relevant file in memory (changed or not;
   a directory entry covers what is under it; a renamed one is followed to
   its new name). These can never become drift candidates (P0 gate 4).
1b. ``user_feedback`` — a changed file the user said belongs to this intent
   (``recover feedback``). A file the user said is drift is kept out of every
   source below and is a drift candidate, saying so.
1c. ``user_edit`` — a changed file the user changed last: after the agent's
   last turn ended, or between two turns and untouched by any later one, as
   the agent hooks' turn records prove it (``evidence_yours``). Reverting your
   own work as the agent's drift is the mistake to never make; only your
   correction (1b) outranks it. Without turn records there are none.
2. ``recent_patch_target`` — files recent observed patches touched, and
   changed files that a commit made since the intent was set also touched
   (the agent's committed work on this intent, edited again since). Older
   commits say nothing about the current intent, so they never widen it.
3. evidence (``evidence.judge``): ``reference`` (imports or names an
   explicit file, or is imported or named by one, as part of the change),
   ``anchor_co_occurrence`` (changed together with an explicit file in recent
   commits), ``name_proximity`` (same folder as an explicit file and a name
   sharing a word with the intent or with it), ``intent_words`` (a name with
   two of the intent's words, or a documentation page whose added lines use
   one), and the second round (``evidence_closure``): the closure over
   references, dependency lines, the intent's literals. Evidence is read only
   when the user named files (explicit or by feedback): with none, the intent's
   words alone never narrow the zone.
3b. mirrors: a file in the zone by inferred evidence that repeats the edit of
   another file in it, in a sibling place the intent does not name
   (``envs/staging/main.tf`` for a prod intent), is taken out again: drift.
3c. other environments: a file in the zone by inferred evidence or a patch
   target whose path names a deployment environment the intent does not, when
   the intent names one (``envs/prod/rds.tf`` for "staging only"), is taken out
   again: drift (``environments``). So is one whose change only reformats it
   (``reformats``), unless the intent asks for formatting.
4. ``diff_fallback`` — with no usable memory, every changed file.

The path category is no source: a file in the intent's category with nothing
else linking it is drift (the dashboard next to the report screen is not the
report screen). It only breaks ties: a drift candidate with weak evidence in
the intent's category is marked *unsure* ("please look").

A rename is one change with two paths: when either name is in the zone, the
change is (under its new name). Everything changed outside the zone is a
drift candidate that needs the user's review — never "unrelated", never
reverted automatically. Generated, cache and build files are excluded before
any of this; lockfiles are listed apart as regenerated — unless every manifest
they were rewritten for is drift: then they are drift with it
(``lock_manifests``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from vibflow.steps.recovery.categories import category_of
from vibflow.steps.recovery.evidence import NO_EVIDENCE, Evidence, judge
from vibflow.steps.recovery.lock_manifests import follows_drift
from vibflow.steps.recovery.models import ChangedFile, DriftCandidate, IntentZoneEntry
from vibflow.steps.recovery.rule_outs import ruled_out, why_ruled_out


@dataclass(frozen=True)
class MemorySignals:
    """What memory contributes, already read (and judged fresh or not)."""

    explicit: Mapping[str, str]  # path → why
    recent_targets: Sequence[str]
    usable: bool  # False when memory is empty or its intent is stale
    note: str | None = None
    #: The user's corrections for the active intent (``recover feedback``):
    #: path → ``"in_scope"`` or ``"drift"``. They outrank every inferred source;
    #: only explicit relevant files outrank them.
    corrections: Mapping[str, str] = field(default_factory=dict)
    #: Changed files the user changed last, by the agent turn records
    #: (``evidence_yours``): path → why. In scope, after your corrections.
    user_edits: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class RecentCommit:
    """One commit on HEAD's first-parent line, as read from git (see ``signals``)."""

    sha: str
    short: str
    subject: str
    committed_at: float  # committer time, epoch seconds
    paths: tuple[str, ...]  # both names of a rename; empty when not diffed
    files_count: int | None  # None: not diffed (a root commit creates everything)
    since_intent: bool = False


def _commit_targets(
    changed: Sequence[ChangedFile], commits: Sequence[RecentCommit]
) -> dict[str, str]:
    """Changed path → short sha of the newest commit since the intent that touched it."""
    touched: dict[str, str] = {}
    for commit in commits:  # newest first: the first commit seen names the path
        if commit.since_intent:
            for path in commit.paths:
                touched.setdefault(path, commit.short)
    out: dict[str, str] = {}
    for c in changed:
        if c.generated:
            continue
        sha = touched.get(c.path) or (touched.get(c.old_path) if c.old_path else None)
        if sha is not None:
            out[c.path] = sha
    return out


def _covers(entry: str, path: str) -> bool:
    _, name, folder = _span(entry)
    path = _nfc(path)
    return path == name or path.startswith(folder)


def _span(entry: str) -> tuple[str, str, str]:
    """An explicit entry, its normalized name, and that name as a folder prefix."""
    name = _nfc(entry).rstrip("/")
    return entry, name, name + "/"


#: Answers one set of explicit entries keeps (the least recent go first).
_MATCHES_KEPT = 200_000


@lru_cache(maxsize=8)  # one per set of explicit entries a process has seen
def _by_names(entries: tuple[str, ...]) -> Callable[[str, str | None], str | None]:
    """The entry covering a path (or its name before a rename), each answer kept:
    a plan asks three times per change, and a long-lived process every preview."""
    spans = tuple(_span(entry) for entry in entries)

    @lru_cache(maxsize=_MATCHES_KEPT)
    def covering(path: str, old: str | None) -> str | None:
        names = [_nfc(path)] if old is None else [_nfc(path), _nfc(old)]
        return next(
            (
                entry
                for entry, name, folder in spans
                for each in names
                if each == name or each.startswith(folder)
            ),
            None,
        )

    return covering


def _nfc(path: str) -> str:
    # Memory stores NFC; git reports the bytes on disk (NFD on macOS tools).
    # ASCII is NFC already (most paths: skips ~80,000 calls at 100k files).
    return path if path.isascii() else unicodedata.normalize("NFC", path)


def explicit_match(c: ChangedFile, explicit: Iterable[str]) -> str | None:
    """The explicit entry covering a changed file — by its name, or by its name
    before a rename (a file moved out of an explicit folder stays explicit)."""
    return explicit_matcher(explicit)(c)


def explicit_matcher(explicit: Iterable[str]) -> Callable[[ChangedFile], str | None]:
    """:func:`explicit_match` for many changes against the same entries."""
    covering = _by_names(tuple(explicit))

    def match(c: ChangedFile) -> str | None:
        return covering(c.path, c.old_path)

    return match


def _explicit_reason(entry: str, c: ChangedFile) -> str:
    if not _covers(entry, c.path):
        return f"renamed from '{c.old_path}', covered by explicit relevant path '{entry}'"
    if _nfc(entry) == _nfc(c.path):
        return f"explicit relevant file '{entry}'"
    return f"inside explicit relevant path '{entry}'"


#: Why a path the user corrected is labelled the way it is.
MARKED_IN_SCOPE = "you marked it as part of this intent (recover feedback)"
MARKED_DRIFT = "you marked it as outside this intent (recover feedback)"


def correction(c: ChangedFile, corrections: Mapping[str, str]) -> str | None:
    """The user's label for a change, given under either of a rename's names."""
    if not corrections:
        return None
    found = corrections.get(c.path)
    if found is None and c.old_path is not None:
        found = corrections.get(c.old_path)
    return found


def _follow_renames(
    changed: Sequence[ChangedFile], zone: dict[str, IntentZoneEntry], held_out: set[str]
) -> None:
    """A rename whose old name is in the zone is in it under its new name too: one
    change is never split between the zone and the drift."""
    for c in changed:
        if c.generated or c.old_path is None or c.path in zone or c.path in held_out:
            continue
        was = zone.get(c.old_path)
        if was is not None:
            zone[c.path] = IntentZoneEntry(
                path=c.path, source=was.source, reason=f"renamed from '{c.old_path}': {was.reason}"
            )


def _apply_corrections(
    changed: Sequence[ChangedFile], corrections: Mapping[str, str], zone: dict[str, IntentZoneEntry]
) -> set[str]:
    """Add what the user said is in scope; return what they said is drift (both
    names of a rename), which no inferred source may add."""
    held_out: set[str] = set()
    for c in changed:
        said = None if c.generated or c.path in zone else correction(c, corrections)
        if said == "in_scope":
            zone[c.path] = IntentZoneEntry(
                path=c.path, source="user_feedback", reason=MARKED_IN_SCOPE
            )
        elif said == "drift":
            held_out.update(p for p in (c.path, c.old_path) if p is not None)
    return held_out


def _add_yours(
    changed: Sequence[ChangedFile],
    yours: Mapping[str, str],
    zone: dict[str, IntentZoneEntry],
    held_out: set[str],
) -> None:
    """What the user changed last (the turn records say so) is theirs: in scope. Only
    the user's own word (a correction) outranks it."""
    if not yours:
        return
    for c in changed:
        why = yours.get(c.path)
        if why is None or c.generated or c.lockfile or c.path in zone or c.path in held_out:
            continue
        zone[c.path] = IntentZoneEntry(path=c.path, source="user_edit", reason=why)


def _add_inferred(
    changed: Sequence[ChangedFile],
    memory: MemorySignals,
    commits: Sequence[RecentCommit],
    zone: dict[str, IntentZoneEntry],
    held_out: set[str],
    evidence: Evidence,
) -> None:
    """Recent patch and commit targets, then changed files with evidence."""
    targets = [(p, "a recent patch targeted this file") for p in memory.recent_targets]
    targets += [
        (p, f"touched by commit {sha} since the intent was set")
        for p, sha in _commit_targets(changed, commits).items()
    ]
    for path, reason in targets:
        if path not in held_out:
            zone.setdefault(
                path, IntentZoneEntry(path=path, source="recent_patch_target", reason=reason)
            )
    _follow_renames(changed, zone, held_out)
    seeds = seeds_of(zone)
    if not seeds:
        return  # evidence links changes to the user's files: with none, it has no say
    near = _by_folder(seeds)
    for c in changed:
        if c.generated or c.lockfile or c.path in zone or c.path in held_out:
            continue
        if c.old_path is not None and c.old_path in zone:
            continue  # followed below, under the reason of its old name
        found, _ = judge(c, near.get(c.path.rpartition("/")[0], ()), evidence)
        if found.source is not None:
            zone[c.path] = IntentZoneEntry(
                path=c.path,
                source=found.source,
                reason=found.reason,
                requires_user_review=found.review,
            )
    _follow_renames(changed, zone, held_out)
    _add_shown(zone, held_out, evidence)
    for path in mirrors(zone, evidence):
        del zone[path]
    for path in ruled_out([p for p, z in zone.items() if z.source in _FROM_THE_AGENT], evidence):
        del zone[path]


def _add_shown(zone: dict[str, IntentZoneEntry], held_out: set[str], evidence: Evidence) -> None:
    """Images a file in scope shows (``embedded``), under that file's name."""
    for image, by in evidence.shown.items():
        page = next((p for p in by if p in zone and zone[p].source != "user_edit"), None)
        if page is not None and image not in zone and image not in held_out:
            name = image.rpartition("/")[2]
            zone[image] = IntentZoneEntry(
                path=image,
                source="reference",
                reason=f"'{page}', in scope, shows it: its changed lines name '{name}'",
            )


#: Sources a mirror loses: inferred ones. Your files, your corrections and the
#: agent's own patch targets stay.
_INFERRED = frozenset(
    {"reference", "test_of", "anchor_co_occurrence", "name_proximity", "intent_words"}
)
#: Sources that are no word of the user's: another environment outranks them.
_FROM_THE_AGENT = _INFERRED | {"recent_patch_target"}


def mirrors(
    zone: Mapping[str, IntentZoneEntry], evidence: Evidence
) -> dict[str, tuple[str, str, str]]:
    """Files in the zone by inferred evidence that carry the same edit as another
    file in it, in a sibling place the intent does not name (``mirrors``): drift."""
    out: dict[str, tuple[str, str, str]] = {}
    for path, found in evidence.mirrors.items():
        entry = zone.get(path)
        copied = found[0]
        if entry is not None and entry.source in _INFERRED and copied in zone and copied not in out:
            out[path] = found
    return out


def _by_folder(seeds: Iterable[str]) -> dict[str, list[str]]:
    """Seeds by the folder they are in: proximity only ever looks at a file's own."""
    out: dict[str, list[str]] = {}
    for seed in seeds:
        out.setdefault(seed.rpartition("/")[0], []).append(seed)
    return out


def seeds_of(zone: Mapping[str, IntentZoneEntry]) -> list[str]:
    """The files evidence is measured against: explicit ones and those the user
    put in scope."""
    return [p for p, z in zone.items() if z.source in ("explicit", "user_feedback")]


def infer_zone(
    changed: Sequence[ChangedFile],
    memory: MemorySignals,
    categories: Mapping[str, Sequence[str]],
    commits: Sequence[RecentCommit] = (),
    evidence: Evidence = NO_EVIDENCE,
) -> list[IntentZoneEntry]:
    """The intent zone, in priority order (see the module docstring). ``categories``
    is accepted for symmetry with :func:`drift`; it never adds to the zone."""
    del categories
    zone: dict[str, IntentZoneEntry] = {}
    for path, why in memory.explicit.items():
        reason = (
            f"explicit relevant_files entry: '{why}'" if why else "explicit relevant_files entry"
        )
        zone.setdefault(path, IntentZoneEntry(path=path, source="explicit", reason=reason))
    covering = explicit_matcher(memory.explicit)
    for c in changed:
        entry = None if c.generated or c.path in zone else covering(c)
        if entry is not None:
            zone[c.path] = IntentZoneEntry(
                path=c.path, source="explicit", reason=_explicit_reason(entry, c)
            )
    held_out = _apply_corrections(changed, memory.corrections, zone)
    if memory.usable:
        _add_yours(changed, memory.user_edits, zone, held_out)
        _add_inferred(changed, memory, commits, zone, held_out, evidence)
    if not memory.usable or all(z.source == "user_edit" for z in zone.values()):
        # Nothing of the intent's to narrow by: the diff is the zone, yours included.
        zone = {p: z for p, z in zone.items() if z.source != "user_edit"}
        for c in changed:
            if not c.generated and not c.lockfile and c.path not in held_out:
                zone.setdefault(
                    c.path,
                    IntentZoneEntry(
                        path=c.path,
                        source="diff_fallback",
                        reason="changed since the last commit (no memory to narrow the zone)",
                    ),
                )
    return list(zone.values())


def drift(
    changed: Sequence[ChangedFile],
    zone: Iterable[IntentZoneEntry],
    memory: MemorySignals,
    categories: Mapping[str, Sequence[str]],
    evidence: Evidence = NO_EVIDENCE,
) -> list[DriftCandidate]:
    """Every changed file outside the zone, with why; weak evidence in the intent's
    category makes one *unsure*."""
    entries = {z.path: z for z in zone}
    in_zone = set(entries)
    seeds = seeds_of(entries)
    near = _by_folder(seeds)
    # The category of a file the user edited says nothing of the intent's.
    zone_categories = {
        cat
        for p, z in entries.items()
        if z.source != "user_edit" and (cat := category_of(p, categories))
    }
    out: list[DriftCandidate] = []
    covering = explicit_matcher(memory.explicit)
    for c in changed:
        if c.generated or c.lockfile:
            continue
        if covering(c) is not None:
            continue  # explicit entries are never drift, whatever else happens
        said = correction(c, memory.corrections)
        if said == "drift" and c.path not in in_zone:
            out.append(DriftCandidate(path=c.path, why_outside_zone=MARKED_DRIFT))
            continue
        if c.path in in_zone or (c.old_path is not None and c.old_path in in_zone):
            continue  # a rename with either name in the zone is in it
        _, hint = (
            judge(c, near.get(c.path.rpartition("/")[0], ()), evidence) if seeds else (None, "")
        )
        # A rule that takes a file out of the zone makes a sure call: never "unsure".
        ruled = why_ruled_out(c.path, evidence)
        copied = evidence.mirrors.get(c.path)
        if ruled:
            hint = ruled
        elif copied is not None and copied[0] in in_zone:
            anchor, theirs, its = copied
            hint = (
                f"it has the same edit as '{anchor}', for '{its}' where the intent "
                f"names '{theirs}' only"
            )
        same = bool(c.category) and c.category in zone_categories
        reasons = ["not in your explicit relevant files"]
        reasons.append(hint or "nothing links it to them")
        if c.category and zone_categories and not same:
            reasons.append(
                f"its category '{c.category}' differs from the intent's "
                f"'{', '.join(sorted(zone_categories))}'"
            )
        elif not c.category:
            reasons.append("it matches none of the intent's folders or categories")
        elif not same:
            pass  # your files have no category to compare it with
        elif hint:
            reasons.append(f"same category '{c.category}' as your files")
        else:
            reasons.append(
                f"same category '{c.category}' as your files, which alone is no evidence"
            )
        out.append(
            DriftCandidate(
                path=c.path,
                why_outside_zone="; ".join(reasons),
                unsure=bool(hint) and same and not ruled,
            )
        )
    return out + _locks_of_drift(changed, in_zone, memory, out)


def _locks_of_drift(
    changed: Sequence[ChangedFile],
    in_zone: set[str],
    memory: MemorySignals,
    drifted: Sequence[DriftCandidate],
) -> list[DriftCandidate]:
    """Lockfiles rewritten only for drifted manifests (``lock_manifests``): drift
    with them, restored together. The user's word and explicit files still win."""
    drift = {d.path for d in drifted}
    if not drift:
        return []
    paths = [c.path for c in changed]
    out = []
    for c in changed:
        if not c.lockfile or c.generated or c.path in in_zone:
            continue
        if explicit_match(c, memory.explicit) is not None or correction(c, memory.corrections):
            continue
        manifests = follows_drift(c.path, paths, drift)
        if manifests:
            names = ", ".join(f"'{m}'" for m in manifests)
            out.append(
                DriftCandidate(
                    path=c.path,
                    why_outside_zone=(
                        f"a lockfile rewritten for {names}, which is drift: "
                        "restore them together or the two disagree"
                    ),
                )
            )
    return out
