"""What links a changed file to the intent, beyond memory — and how strongly. Pure.

The zone (``zone.py``) asks this module, for a changed file that no explicit
entry, correction or recent patch put in scope, for its evidence:

* **strong** (the file joins the zone, the reason says why):
  - a reference that is part of the change — the file's changed lines import
    or name an explicit file, an explicit file's changed lines import or name
    it, or it is new and imports one;
  - a reference already there, with a file whose name shares a word with the
    explicit file's or with the intent (``test_cart.py`` importing ``cart.py``;
    a Java test in the same package naming ``InvoiceService``; the header
    importing ``logo.png`` for "use the new logo");
  - a test named for an explicit file (``test_orders.py``, ``OrdersTest.java``,
    ``accounts_test.exs`` for ``orders.py`` / ``Orders.java`` / ``accounts.ex``),
    wherever it is: every ecosystem names its tests so;
  - a name the change defines in it and uses in an explicit file, or the other
    way round (``fun setDarkTheme`` in the view model, ``viewModel::setDarkTheme``
    in the screen): the names a feature introduces hold its files together;
  - a dependency the change needs: a manifest or settings file whose added
    lines name a library or app an in-scope file's added lines now import
    (``django-filter`` in ``requirements.txt`` for ``import django_filters``).
    Its other changed lines (the package's own version bumped beside it) are
    not hidden by it: the reason quotes them and the file needs review;
    it stays in scope, since half a manifest cannot be restored;
  - any of the reference rules above against a file that is in scope by a
    reference itself (the closure, ``closure_hops`` deep: a page the new link
    points at, the API route that page fetches); the reason names the chain;
  - co-change: changed together with an explicit file in at least
    ``min_together`` recent commits, or in every one of them when it has fewer
    (a young project's only commit on the file is all the history there is);
  - proximity and names: in the same folder as an explicit file, with a name
    sharing a distinctive word with the intent or with that file's name, or
    with its very name (``index.ex`` and ``index.html.heex``, ``Table.tsx`` and
    ``Table.css``: one component's two halves);
  - a move git could not see: a new file holding most of a deleted file of
    yours, or its stem beside it (``moved_apart``) — in scope for your review,
    so the partial restore does not delete your file's new place;
  - the intent's literals: added lines writing a flag, a route or an identifier
    the intent spells out (``--threads``, ``/readyz``, ``lifetime_value``);
  - the intent's words: a name holding two of them, wherever the file is
    (``add_archived_at_to_projects.rb`` for "let users archive projects": the
    migration sits far from the model), or a documentation page whose added
    lines use one that the change to your files uses too (the troubleshooting
    page now explaining ``retry``; not ``list`` in "the invoices list", which
    says where, not what);
* **none, whatever else links it** — a *deleted* test named for an explicit file
  (``D orders_test.go`` next to your ``orders.go``): removing the test of the
  code you work on is classic drift, and every name rule would call it yours.
  It is a hint at most ("please look" in the intent's category) — unless the
  intent's words say tests are being removed (``removes_tests``);
* **none, whatever else links it** — a *mirror* (``zone.py`` applies it): the
  same edit as to a file in the zone, made to its copy in a sibling place the
  intent does not name (``envs/staging/main.tf``
  when the intent says prod and ``envs/prod/main.tf`` is yours;
  ``worker-resources-patch.yaml`` next to your ``api-resources-patch.yaml``
  when the intent is about the api): the same edit there is what drift looks
  like, and every link it has (names, history) is the copy's;
* **weak** (a hint, not enough): a reference the change did not touch, one
  commit in common, the same folder without a shared word, a shared word in
  another folder. Weak evidence and the same path category as the intent's
  files make the file *unsure* ("please look"): category is a tie-breaker,
  never evidence on its own.

The evidence itself is read by ``evidence_read`` (bounded I/O).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from vibflow.steps.recovery.cochange import CoChange
from vibflow.steps.recovery.models import ChangedFile, ZoneSource
from vibflow.steps.recovery.proximity import (
    common_words,
    matched_apart,
    name_tokens,
    overlap,
    stem_under_test,
)
from vibflow.steps.recovery.reformats import NONE as NO_REFORMATS
from vibflow.steps.recovery.reformats import Reformats
from vibflow.steps.recovery.shared_names import route_of


@dataclass(frozen=True)
class Link:
    """A reference between a changed file and an explicit file (the anchor)."""

    anchor: str
    direction: Literal["from", "to"]  # from: the file refers to the anchor; to: the reverse
    how: str  # "imports" or "names"
    in_change: bool  # the line is one the change added or removed


@dataclass(frozen=True)
class Evidence:
    """Everything the signals read for the zone (empty: memory alone decides)."""

    links: Mapping[str, Sequence[Link]] = field(default_factory=dict)
    cochange: Mapping[str, CoChange] = field(default_factory=dict)
    #: Folder of an explicit file → the file names in it (for distinctive words).
    folders: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    intent_words: frozenset[str] = frozenset()
    min_together: int = 2
    proximity: bool = True
    #: Documentation page → the intent's words its added lines use.
    mentions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: An explicit file's stem as tests are named for it (``plain_stem``) → the file.
    tested: Mapping[str, str] = field(default_factory=dict)
    #: Changed file → (explicit file, "uses" | "defines", name): see ``shared_names``.
    shared: Mapping[str, tuple[str, str, str]] = field(default_factory=dict)
    #: A file in scope by a reference (not an explicit file) → why: the anchors
    #: of the closure's links, named with their own reason.
    via: Mapping[str, str] = field(default_factory=dict)
    #: Changed file → (the changed file it copies, that file's word the intent
    #: names, this file's word): see ``mirrors``; the zone keeps it out when the
    #: file it copies is in.
    mirrors: Mapping[str, tuple[str, str, str]] = field(default_factory=dict)
    #: Changed file → the intent's literal its added lines write (``literals``).
    literal: Mapping[str, str] = field(default_factory=dict)
    #: Changed file → how it carries out a rename the intent asks (``intent_renames``).
    renamed: Mapping[str, str] = field(default_factory=dict)
    #: New file → why it may be where a deleted file of yours moved (``moved_apart``).
    moved: Mapping[str, str] = field(default_factory=dict)
    #: Changed image → the changed files whose added lines name it (``embedded``).
    shown: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: Manifest or settings file → (in-scope file, the name it declares, the
    #: import that file's change adds): see ``dependencies``.
    needs: Mapping[str, tuple[str, str, str]] = field(default_factory=dict)
    #: Such a file → its changed lines that dependency does not explain (a version
    #: bumped beside it): it stays in scope — half a manifest cannot be restored —
    #: but the reason names them and the file needs the user's review.
    unexplained: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: The intent's words say tests are being removed (``removes_tests``): a deleted
    #: test of an explicit file may be in scope then.
    removes_tests: bool = False
    #: The deployment environments the intent names (``environments``): a file of
    #: another one is kept out of the zone's inferred sources.
    environments: frozenset[str] = frozenset()
    #: Which changed files only reformat code (``reformats``): asked lazily, for the
    #: files inferred evidence put in the zone; none of them stays there.
    reformats: Reformats = field(default=NO_REFORMATS, compare=False, repr=False)
    #: Judgements already made (the planner asks twice per file): not part of equality.
    memo: dict[tuple[str, str | None, tuple[str, ...]], tuple[Judgement, str]] = field(
        default_factory=dict, compare=False, repr=False
    )


NO_EVIDENCE = Evidence()


@dataclass(frozen=True)
class Judgement:
    source: ZoneSource | None  # set when the evidence is strong
    reason: str  # why in scope (strong), or the hint (weak); "" for none
    #: In scope, yet part of its change is not explained by the evidence: review it.
    review: bool = False


def who(anchor: str, ev: Evidence) -> str:
    """How a reason names the file a link points at: one of yours, or one in scope
    through a reference (with that reason, so the chain can be checked)."""
    why = ev.via.get(anchor)
    return f"your file '{anchor}'" if why is None else f"'{anchor}' (in scope: {why})"


def _link_reason(link: Link, c: ChangedFile, ev: Evidence) -> str:
    a = who(link.anchor, ev)
    if link.direction == "from":
        if c.status in ("added", "untracked"):
            return f"new file that {link.how} {a}"
        return f"{link.how} {a} in the lines that changed"
    verb = "imports" if link.how == "imports" else "names"
    return f"{a} {verb} it in the lines that changed"


def _folder(path: str) -> str:
    return path.rpartition("/")[0]


def judge(c: ChangedFile, seeds: Sequence[str], evidence: Evidence) -> tuple[Judgement, str]:
    """The strong evidence for ``c`` (or none), and the best weak hint ("" if none).
    ``seeds``: the explicit files (only those in ``c``'s folder matter here, so a
    caller with many passes just those)."""
    key = (c.path, c.old_path, tuple(seeds))
    known = evidence.memo.get(key)
    if known is not None:
        return known
    dropped = _deleted_test_of(c, evidence)
    if dropped is not None:
        evidence.memo[key] = (Judgement(None, ""), dropped)
        return evidence.memo[key]
    mine = name_tokens(c.path)
    hints: list[str] = []
    answer: tuple[Judgement, str] | None = None
    steps = (
        _by_links,
        _by_dependency,
        _by_shared_names,
        _by_test_name,
        _by_rename,
        _by_move,
        _by_literal,
        _by_cochange,
        _by_proximity,
    )
    for step in (*steps, _by_intent_words):
        found = step(c, mine, seeds, evidence, hints)
        if found is not None:
            answer = (found, "")
            break
    if answer is None:
        answer = (Judgement(None, ""), hints[0] if hints else "")
    evidence.memo[key] = answer
    return answer


def by_reference(c: ChangedFile, ev: Evidence) -> Judgement | None:
    """The strong evidence of the reference kinds alone (imports and names, names a
    change defines and uses, a test's name): what makes a file a step of the
    closure. Co-change, proximity and the intent's words do not: a chain through
    them would carry their doubt along."""
    if c.path in ev.mirrors or _deleted_test_of(c, ev) is not None:
        return None
    mine = name_tokens(c.path)
    for step in (_by_links, _by_shared_names, _by_test_name):
        found = step(c, mine, (), ev, [])
        if found is not None:
            return found
    return None


def _by_links(
    c: ChangedFile, mine: frozenset[str], _seeds: Sequence[str], ev: Evidence, hints: list[str]
) -> Judgement | None:
    links = ev.links.get(c.path, ())
    for link in links:
        if link.in_change:
            return Judgement("reference", _link_reason(link, c, ev))
    for link in links:
        shared = overlap(mine, name_tokens(link.anchor))
        said = overlap(mine, ev.intent_words)
        linked = (
            f"{link.how} {who(link.anchor, ev)}"
            if link.direction == "from"
            else f"{who(link.anchor, ev)} {link.how} it"
        )
        if shared or said:
            named = (
                f"both names have '{shared[0]}'"
                if shared
                else f"its name shares '{said[0]}' with the intent"
            )
            return Judgement("reference", f"{linked}, and {named}")
        hints.append(f"{linked} (in a line the change did not touch)")
    return None


def _by_shared_names(
    c: ChangedFile, _mine: frozenset[str], _seeds: Sequence[str], ev: Evidence, _hints: list[str]
) -> Judgement | None:
    found = ev.shared.get(c.path)
    if found is None:
        return None
    anchor, how, name = found
    of = _change_of(anchor, ev)
    if how == "defines" and name.startswith("/") and name == route_of(c.path):
        return Judgement("reference", f"a new page served at '{name}', which {of} points at")
    if how == "uses":
        return Judgement("reference", f"its changed lines use '{name}', which {of} defines")
    return Judgement("reference", f"its changed lines define '{name}', which {of} uses")


def _change_of(anchor: str, ev: Evidence) -> str:
    why = ev.via.get(anchor)
    return (
        f"the change to '{anchor}'"
        if why is None
        else f"the change to '{anchor}' (in scope: {why})"
    )


def _by_dependency(
    c: ChangedFile, _mine: frozenset[str], _seeds: Sequence[str], ev: Evidence, _hints: list[str]
) -> Judgement | None:
    found = ev.needs.get(c.path)
    if found is None:
        return None
    anchor, name, module = found
    what = f"'{name}'," if name == module else f"'{name}', for '{module}',"
    reason = f"its changed lines add {what} which {_change_of(anchor, ev)} now imports"
    others = ev.unexplained.get(c.path)
    if not others:
        return Judgement("reference", reason)
    shown = "; ".join(f"`{_clip(line)}`" for line in others[:UNEXPLAINED_SHOWN])
    more = len(others) - UNEXPLAINED_SHOWN
    return Judgement(
        "reference",
        f"{reason} — but {len(others)} other changed line(s) are not explained by it: "
        f"{shown}{f' and {more} more' if more > 0 else ''}; please review (the file is "
        "restored whole or not at all)",
        review=True,
    )


#: Unexplained lines a reason quotes, and how much of each.
UNEXPLAINED_SHOWN = 3
_LINE_SHOWN = 80


def _clip(line: str) -> str:
    return line if len(line) <= _LINE_SHOWN else line[: _LINE_SHOWN - 1] + "…"


def _by_test_name(
    c: ChangedFile, _mine: frozenset[str], _seeds: Sequence[str], ev: Evidence, _hints: list[str]
) -> Judgement | None:
    stem = stem_under_test(c.path) if ev.tested else None
    anchor = ev.tested.get(stem) if stem else None
    if anchor is None:
        return None
    return Judgement("test_of", f"the test named for {who(anchor, ev)}")


def _deleted_test_of(c: ChangedFile, ev: Evidence) -> str | None:
    """The hint for a deleted test named for an explicit file — no evidence of scope
    (see the module docstring) — or None when ``c`` is not one, or the intent says
    tests are being removed."""
    if c.status != "deleted" or ev.removes_tests or not ev.tested or c.path in ev.renamed:
        return None  # (a test moved to the new name the intent asks is no removal)
    stem = stem_under_test(c.path)
    anchor = ev.tested.get(stem) if stem else None
    if anchor is None:
        return None
    return (
        f"the test named for {who(anchor, ev)}, deleted — removing it is no part of "
        "the intent unless the intent says so"
    )


#: Words of removal (their forms spelled out: a prefix match would take ``dropdown``).
_REMOVING = frozenset(
    {
        *("remove", "removes", "removed", "removing", "removal"),
        *("delete", "deletes", "deleted", "deleting", "deletion"),
        *("drop", "drops", "dropped", "dropping"),
        *("retire", "retires", "retired", "retiring"),
        *("prune", "prunes", "pruned", "pruning"),
        *("purge", "purges", "purged", "rid"),
    }
)
_TESTS = frozenset({"test", "tests", "testing", "spec", "specs", "testcase", "testcases"})
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def removes_tests(intent: str) -> bool:
    """Whether the intent's words say tests are being removed: a word of removal and
    a word for tests, in any order (``delete the flaky OrdersTest``, ``remove
    orders_test.go``, ``get rid of the old specs``)."""
    said = {w.casefold() for w in _WORD.findall(intent)}
    return bool(said & _REMOVING) and bool(said & _TESTS)


def _by_rename(
    c: ChangedFile, _mine: frozenset[str], _seeds: Sequence[str], ev: Evidence, _hints: list[str]
) -> Judgement | None:
    found = ev.renamed.get(c.path)
    return None if found is None else Judgement("intent_words", found)


def _by_move(
    c: ChangedFile, _mine: frozenset[str], _seeds: Sequence[str], ev: Evidence, _hints: list[str]
) -> Judgement | None:
    found = ev.moved.get(c.path)
    return None if found is None else Judgement("name_proximity", found, review=True)


def _by_literal(
    c: ChangedFile, _mine: frozenset[str], _seeds: Sequence[str], ev: Evidence, _hints: list[str]
) -> Judgement | None:
    found = ev.literal.get(c.path)
    if found is None:
        return None
    return Judgement("intent_words", f"its changed lines write '{found}', which the intent names")


def _by_cochange(
    c: ChangedFile, _mine: frozenset[str], _seeds: Sequence[str], ev: Evidence, hints: list[str]
) -> Judgement | None:
    co = ev.cochange.get(c.path) or (ev.cochange.get(c.old_path) if c.old_path else None)
    if co is None:
        return None
    if co.together == co.window < ev.min_together and co.created < co.together:
        # A young history: every commit that touched your file touched this one
        # (and not only to create it: see ``CoChange.created``).
        many = "the only recent commit" if co.window == 1 else f"all {co.window} recent commits"
        return Judgement(
            "anchor_co_occurrence",
            f"changed together with your file '{co.anchor}' in {many} that touched it",
        )
    if co.together >= ev.min_together:
        return Judgement(
            "anchor_co_occurrence",
            f"changed together with your file '{co.anchor}' in {co.together} of the "
            f"last {co.window} commits that touched your files",
        )
    hints.append(f"changed together with your file '{co.anchor}' once recently")
    return None


def _by_proximity(
    c: ChangedFile, mine: frozenset[str], seeds: Sequence[str], ev: Evidence, hints: list[str]
) -> Judgement | None:
    if not ev.proximity:
        return None
    near = [s for s in seeds if _folder(s) == _folder(c.path)]
    stem = c.path.rpartition("/")[2].split(".")[0]
    for seed in near:
        if stem and seed.rpartition("/")[2].split(".")[0] == stem:
            # One name, two files: a component's template, style or header.
            return Judgement(
                "name_proximity", f"next to your file '{seed}', with the same name (its other half)"
            )
        common = common_words(ev.folders.get(_folder(seed), ()))
        words = [w for w in mine if w not in common]
        with_intent = overlap(words, ev.intent_words)
        with_seed = overlap(words, name_tokens(seed) - common)
        if with_intent or with_seed:
            what = (
                f"its name shares '{with_intent[0]}' with the intent"
                if with_intent
                else f"both names have '{with_seed[0]}'"
            )
            return Judgement("name_proximity", f"next to your file '{seed}', and {what}")
    if near:
        hints.append(f"it is in the same folder as your file '{near[0]}'")
    shared = overlap(mine, ev.intent_words)
    if shared:
        hints.append(f"its name shares '{shared[0]}' with the intent")
    return None


def _by_intent_words(
    c: ChangedFile, mine: frozenset[str], _seeds: Sequence[str], ev: Evidence, _hints: list[str]
) -> Judgement | None:
    # One shared word is a hint (``UsersFilter`` for "sort the users table"); two
    # of the intent's words in one name are what the agent named the file for.
    named = matched_apart(ev.intent_words, mine)
    if len(named) >= 2:
        return Judgement(
            "intent_words", f"its name has the intent's words '{named[0]}' and '{named[1]}'"
        )
    said = ev.mentions.get(c.path)
    if said:
        return Judgement(
            "intent_words", f"a documentation page whose added lines mention '{said[0]}'"
        )
    return None
