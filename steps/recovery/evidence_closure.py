"""The zone's second round of evidence, read after the explicit files' own links:
sibling copies (``mirrors``), the intent's literals (``literals``), the closure
over references (a file in scope by a reference is a step for the next hop,
``closure_hops`` deep), and the dependency lines the in-scope changes need
(``dependencies``). Bounded like the first round: only changed files, their
first ``reference_bytes``, HEAD's side in one batch per rule or hop.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from vibflow.steps.recovery import dependencies, intent_renames, literals, shared_names
from vibflow.steps.recovery.evidence import Evidence, Judgement, by_reference, judge
from vibflow.steps.recovery.evidence_links import find_links, find_shared, tested_stems
from vibflow.steps.recovery.evidence_text import SEEDS_MAX, Reader, is_doc_page
from vibflow.steps.recovery.mirrors import Siblings, names_said, same_edit
from vibflow.steps.recovery.models import ChangedFile
from vibflow.steps.recovery.zone_policy import ZonePolicy


def find_mirrors(
    reader: Reader,
    by_path: Mapping[str, ChangedFile],
    candidates: Sequence[ChangedFile],
    said: frozenset[str],
) -> dict[str, tuple[str, str, str]]:
    """Changed file → (the changed file it copies, that file's word the intent
    names, its own): sibling copies carrying the same edit (``mirrors``). Only
    files whose paths mirror one another are read."""
    # Only a file with a word the intent says can be the original a copy repeats.
    originals = [
        p
        for p, c in by_path.items()
        if not c.generated and not c.lockfile and c.status != "deleted" and names_said(p, said)
    ]
    if not originals:
        return {}
    siblings = Siblings(originals)
    out: dict[str, tuple[str, str, str]] = {}
    for c in candidates:
        for found in siblings.mirrors_of(c.path, said):
            if same_edit(reader.added(c), reader.added(by_path[found[0]])):
                out[c.path] = found
                break
        else:
            for found in siblings.copies_in_folder(c.path, said):
                if same_edit(reader.added(c), reader.added(by_path[found[0]]), strict=True):
                    out[c.path] = found
                    break
    return out


def find_literals(
    reader: Reader, candidates: Sequence[ChangedFile], intent: str, evidence: Evidence
) -> Evidence:
    """Changed files whose added lines write a literal the intent names
    (``literals``): only files whose text holds one are diffed."""
    pattern = literals.matcher(literals.literals(intent))
    if pattern is None:
        return evidence
    holding = [c for c in candidates if (text := reader.now(c.path)) and pattern.search(text)]
    found: dict[str, str] = {}
    reader.before(holding)  # one read of every HEAD side
    for c in holding:
        hit = literals.first_in(reader.added(c), pattern)
        if hit is not None:
            found[c.path] = hit
    return replace(evidence, literal=found, memo={}) if found else evidence


def find_renames(
    reader: Reader,
    by_path: Mapping[str, ChangedFile],
    candidates: Sequence[ChangedFile],
    intent: str,
    evidence: Evidence,
) -> Evidence:
    """Changed files that carry out a rename the intent asks (``intent_renames``): a
    deleted file and the new one named after the rename, a line that comes back
    with the new name. Nothing is read unless the intent asks a rename."""
    asked = intent_renames.asked(intent)
    if not asked:
        return evidence
    pairs = intent_renames.spellings(asked)
    gone = [p for p, c in by_path.items() if c.status == "deleted"]
    new = [p for p, c in by_path.items() if c.status in ("added", "untracked")]
    found: dict[str, str] = {}
    for path, (other, old, new_word) in intent_renames.paired(gone, new, pairs).items():
        side = "its new name" if by_path[path].status == "deleted" else "its old name"
        found[path] = f"the intent asks to rename '{old}' to '{new_word}'; '{other}' is {side}"
    changed = [
        c
        for c in candidates
        if c.status in ("modified", "renamed")
        and c.path not in found
        and (text := reader.now(c.path))
        and any(n in text for _, n in pairs)
    ]
    before = reader.before(changed) if changed else {}
    for c in changed:
        now, then = reader.now(c.path) or "", before.get(c.path) or ""
        hit = intent_renames.rewrites(
            shared_names.added(now, then), shared_names.added(then, now), pairs
        )
        if hit is not None:
            found[c.path] = f"its changed lines rename '{hit[0]}' to '{hit[1]}', as the intent asks"
    return replace(evidence, renamed=found, memo={}) if found else evidence


def close(
    reader: Reader,
    by_path: Mapping[str, ChangedFile],
    candidates: Sequence[ChangedFile],
    seeds: Mapping[str, Sequence[str]],
    evidence: Evidence,
    policy: ZonePolicy,
    held_out: frozenset[str],
) -> Evidence:
    """The closure over references: a changed file in scope by a reference (an
    import, a name, a test's name) is a seed of the next hop, ``closure_hops`` deep
    and at most ``closure_files`` files a hop; each link found names its anchor's
    reason, so the chain can be checked."""
    links = {p: list(ls) for p, ls in evidence.links.items()}
    shared = dict(evidence.shared)
    tested = dict(evidence.tested)
    via: dict[str, str] = {}
    scope = set(seeds)
    for _ in range(policy.closure_hops):
        current = replace(evidence, links=links, shared=shared, tested=tested, via=via, memo={})
        new: dict[str, str] = {}
        for c in candidates:
            if c.path in scope or c.path in held_out or c.path in evidence.mirrors:
                continue
            found = by_reference(c, current) or _named_near(c, seeds, current)
            if found is not None:
                new[c.path] = found.reason
                if len(new) >= policy.closure_files:
                    break
        # A documentation page is a leaf: it names everything and nothing depends
        # on it, so what it mentions is not thereby in scope.
        steps = {p: why for p, why in new.items() if not is_doc_page(p)}
        scope.update(new)
        if not steps:
            break
        via.update(steps)
        rest = [c for c in candidates if c.path not in scope]
        hop = {p: [p] + ([by_path[p].old_path or p] if by_path[p].old_path else []) for p in steps}
        for path, found_links in find_links(reader, by_path, rest, hop).items():
            # A file named by a step of the chain is not thereby in scope (a mailer
            # preview names the User model it renders); one that refers to a step,
            # or that a step imports, is.
            kept = [k for k in found_links if k.direction == "from" or k.how == "imports"]
            links.setdefault(path, []).extend(kept)
        for path, found_name in find_shared(
            reader, by_path, rest, hop, evidence.intent_words
        ).items():
            # Two settings files sharing a key (``version`` in a workflow and in
            # pyproject.toml) share a vocabulary, not a feature.
            if not (shared_names.is_settings(path) and shared_names.is_settings(found_name[0])):
                shared.setdefault(path, found_name)
        for stem, seed in tested_stems(hop).items():
            tested.setdefault(stem, seed)
    return replace(evidence, links=links, shared=shared, tested=tested, via=via, memo={})


def _named_near(
    c: ChangedFile, seeds: Mapping[str, Sequence[str]], evidence: Evidence
) -> Judgement | None:
    """Proximity as a step of the closure: next to your file and named for the
    intent or for it (``api-hpa.yaml`` beside ``api-resources-patch.yaml``)."""
    folder = c.path.rpartition("/")[0]
    near = [s for s in seeds if s.rpartition("/")[0] == folder]
    if not near:
        return None
    found, _ = judge(c, near, evidence)
    return found if found.source == "name_proximity" else None


def find_needs(
    reader: Reader,
    by_path: Mapping[str, ChangedFile],
    candidates: Sequence[ChangedFile],
    seeds: Mapping[str, Sequence[str]],
    evidence: Evidence,
    held_out: frozenset[str],
) -> Evidence:
    """Manifest and settings files whose change declares a module the in-scope
    files' changes newly import (``dependencies``)."""
    wanted = [
        c
        for c in candidates
        if c.path not in held_out
        and c.path not in evidence.mirrors
        and (dependencies.is_manifest(c.path) or dependencies.is_settings(c.path))
    ]
    if not wanted:
        return evidence
    scope = [
        by_path[p]
        for p in [*seeds, *evidence.via]
        if p in by_path and by_path[p].status != "deleted"
    ][:SEEDS_MAX]
    reader.before([*scope, *wanted])  # one read of every HEAD side
    imports, uses = _new_imports(reader, scope)
    if not imports:
        return evidence
    specs = {key: spec for key, (_, spec) in imports.items()}
    explaining = {**uses, **specs}
    by_spec = {spec: path for path, spec in imports.values()}
    needs: dict[str, tuple[str, str, str]] = {}
    others: dict[str, tuple[str, ...]] = {}
    for c in wanted:
        manifest = dependencies.is_manifest(c.path)
        old = reader.before([c]).get(c.path) or ""
        known = dependencies.names_in(old)
        declared = dependencies.needed(reader.added(c), specs, manifest=manifest, known=known)
        if declared is not None:
            name, spec = declared
            needs[c.path] = (by_spec[spec], name, spec)
            rest = dependencies.unexplained(
                old, reader.now(c.path) or "", explaining, manifest=manifest, known=known
            )
            if rest:
                others[c.path] = tuple(rest)
    if not needs:
        return evidence
    return replace(evidence, needs=needs, unexplained=others, memo={})


def _new_imports(
    reader: Reader, scope: Sequence[ChangedFile]
) -> tuple[dict[str, tuple[str, str]], dict[str, str]]:
    """What the in-scope changes newly import (key → (the file, the import as
    written)), and what their added lines use by a path (looser: it explains a
    needed manifest's other lines, see ``dependencies.used``)."""
    own: set[str] = set()  # Elixir: the project's own module roots are no library
    for c in scope:
        if dependencies.is_elixir(c.path):
            own |= dependencies.elixir_roots((reader.now(c.path) or "").splitlines())
    if own or any(dependencies.is_elixir(c.path) for c in scope):
        own |= dependencies.mix_app(reader.now("mix.exs") or "")
    imports: dict[str, tuple[str, str]] = {}
    uses: dict[str, str] = {}
    for c in scope:
        before = (reader.before([c]).get(c.path) or "").splitlines()
        had = dependencies.imported(before)
        added = reader.added(c)
        found = dependencies.imported(added)
        if dependencies.is_elixir(c.path):
            had |= dependencies.called(before, own)
            found = {**dependencies.called(added, own), **found}
        for key, spec in found.items():
            if key not in had:
                imports.setdefault(key, (c.path, spec))
        # Added lines only: a crate the manifest held before declares nothing new
        # (``dependencies.declares`` checks), so what the file used before is moot.
        for key, spec in dependencies.used(added).items():
            uses.setdefault(key, spec)
    return imports, uses
