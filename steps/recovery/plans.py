"""The plan a recover run showed, kept beside the run, and its small form in the
run's context.

A plan lists every changed file, the intent zone, the drift candidates and
each option's paths: for a 50,000-file drift that is megabytes, while a run's
context is bounded (``engine.context_max_bytes``) because it is rewritten at
every transition. So the full redacted plan is written once per run to
``.vibflow/recovery/plans/<run_id>.json`` (atomically; it is what the user
previewed and what a restore is built from), and the context keeps
:func:`context_form`: ids, levels, labels, counts, and a few paths to show,
bounded by bytes rather than by count (one path may be 4 KB long).

Each run has its own file, so two recover runs in flight never read each
other's plan.

A file subset chosen at ``choose`` travels the same way: a few paths as the
``paths`` input, any number as a *selection* saved beside the run
(:meth:`RunPlans.save_selection`) and named by the ``selection`` input — an
id derived from the paths themselves, so a stale or edited file is refused.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from vibflow.engine.atomicfile import atomic_write
from vibflow.steps.recovery.job import run_file

#: Bytes of paths a run's context may carry per list; the rest are counted.
SAMPLE_BYTES = 2048
#: The plan's lists that can be as long as the drift; the context keeps a sample.
_LISTS = (
    "intent_zone",
    "drift_candidates",
    "excluded_generated",
    "feedback_paths",
    "left_out",
    "unsure_paths",
    "regenerated",
)


def sample(items: Sequence[Any], budget: int = SAMPLE_BYTES) -> list[Any]:
    """The first ``items`` whose JSON fits in ``budget`` bytes (at least one, if any
    fits at all)."""
    out: list[Any] = []
    used = 0
    for item in items:
        size = len(json.dumps(item, ensure_ascii=False).encode("utf-8", "surrogateescape")) + 2
        if used + size > budget:
            break
        out.append(item)
        used += size
    return out


def context_form(payload: Mapping[str, Any]) -> dict[str, Any]:
    """The plan as the run's context keeps it: everything but the long lists, which
    become a bounded sample plus a ``<list>_total`` count; options keep their id,
    level, label and blocks, and count their paths."""
    out = {k: v for k, v in payload.items() if k != "changed" and k not in _LISTS}
    out["changed_total"] = len(payload.get("changed") or [])
    for key in _LISTS:
        items = list(payload.get(key) or [])
        out[key] = sample(items)
        out[f"{key}_total"] = len(items)
    options = []
    for opt in payload.get("options") or []:
        slim = {k: v for k, v in opt.items() if k not in ("affected_paths", "deletes")}
        slim["affected_paths_total"] = len(opt.get("affected_paths") or [])
        slim["deletes_total"] = len(opt.get("deletes") or [])
        options.append(slim)
    out["options"] = options
    return out


#: Every list a page cuts: the changed files and the long lists of the plan.
_PAGED = ("changed", *_LISTS)
_OPTION_PATHS = ("affected_paths", "deletes")
#: Bytes of list entries one page may carry, all its lists together: an agent's client
#: takes an answer of roughly 25,000 tokens whole, and the rest of the plan rides along.
PAGE_BYTES = 48 * 1024


def page_form(
    payload: Mapping[str, Any], offset: int, limit: int, budget: int = PAGE_BYTES
) -> dict[str, Any]:
    """The plan as one page, for a caller that reads an answer whole (an agent, whose
    context a 20,000-file drift would flood: its full plan is hundreds of KB).

    Each long list (the changed files and those :func:`context_form` samples) and
    each option's ``affected_paths`` and ``deletes`` keep the entries from ``offset``
    on, the same ``page.shown`` of them in every list, and gain a ``<list>_total``
    count; everything else — the summary, the options' ids, levels, labels and
    blocks — is whole on every page. ``shown`` is at most ``limit``, and the largest
    count whose entries, every list together, fit ``budget`` bytes of JSON (at least
    one: a single long path is shown, not skipped), so long paths make shorter
    pages, never a bigger answer. ``page.next_offset`` is ``offset + shown``, where
    the next page starts; None once every list is shown in full.
    """
    options = [dict(opt) for opt in payload.get("options") or []]
    lists = [payload.get(key) for key in _PAGED]
    lists += [opt.get(key) for opt in options for key in _OPTION_PATHS]
    cut = [items for items in lists if isinstance(items, list)]
    longest = max((len(items) for items in cut), default=0)
    shown = _fitting(cut, offset, min(limit, max(longest - offset, 0)), budget)
    end = offset + shown
    out = dict(payload)
    for key in _PAGED:
        items = payload.get(key)
        if isinstance(items, list):
            out[key] = items[offset:end]
            out[f"{key}_total"] = len(items)
    for opt in options:
        for key in _OPTION_PATHS:
            items = opt.get(key)
            if isinstance(items, list):
                opt[key] = items[offset:end]
                opt[f"{key}_total"] = len(items)
    if "options" in payload:
        out["options"] = options
    out["page"] = {
        "offset": offset,
        "limit": limit,
        "shown": shown,
        "next_offset": end if longest > end else None,
        "plan_digest": plan_digest(payload),
    }
    return out


def plan_digest(payload: Mapping[str, Any]) -> str:
    """What every page of one plan shares, as a digest: the lists pages cut and each
    option's level and paths — not the ids or times a fresh preview mints anew. Two
    previews of an unchanged tree have the same one; a page read after the tree
    changed has another, so a caller joining pages can tell (``plan_digest``)."""
    body: dict[str, Any] = {key: payload.get(key) for key in _PAGED}
    body["options"] = [
        [opt.get("level"), *(opt.get(key) for key in _OPTION_PATHS)]
        for opt in payload.get("options") or []
    ]
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    # One of vibflow's id shapes (``pln_`` + 32 hex, as ``selection_id``'s ``sel_``),
    # which the redaction contract passes: the caller needs it back as given.
    return "pln_" + hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:32]


def _fitting(lists: Sequence[Sequence[Any]], offset: int, most: int, budget: int) -> int:
    """How many entries from ``offset`` on (at most ``most``, at least one if any) every
    list can show together within ``budget`` bytes of JSON."""
    used = 0
    for k in range(most):
        at = offset + k
        used += sum(
            len(json.dumps(items[at], ensure_ascii=False).encode("utf-8", "surrogateescape")) + 2
            for items in lists
            if at < len(items)
        )
        if used > budget:
            return max(k, 1)
    return most


#: Above this many bytes of paths, the guided flow saves a selection instead.
INLINE_PATHS_BYTES = 8192


#: Why an explicitly empty ``paths`` is refused.
EMPTY_CHOICE = "an empty list chooses no file; leave paths out to take the whole option"


def selection_id(paths: Sequence[str]) -> str:
    """``sel_`` and a digest of the paths in order: names exactly that list."""
    digest = hashlib.sha256("\0".join(paths).encode("utf-8", "surrogateescape")).hexdigest()
    return f"sel_{digest[:32]}"


def chosen_paths(
    plans: RunPlans, run_id: str, inputs: Mapping[str, Any]
) -> list[str] | ValueError | None:
    """The subset ``inputs`` chose (``paths``, or a saved ``selection``); None for
    "the whole option" (neither given); a ValueError saying what is wrong with the
    choice. An explicitly empty ``paths`` is such an error, never "everything": a
    caller that filtered its list down to nothing must not restore every file."""
    given = inputs.get("paths")
    listed = list(dict.fromkeys(given or []))  # a path named twice is one file
    wanted = inputs.get("selection")
    if given is not None and not listed:
        return ValueError(EMPTY_CHOICE)
    if wanted and listed:
        return ValueError("give either paths or a selection, not both")
    if wanted:
        saved = plans.selection(run_id, str(wanted))
        if saved is None:
            return ValueError(
                f"the file selection {wanted} is not saved beside this run; choose again"
            )
        return saved
    return listed or None


class RunPlans:
    """The full redacted plan of each recover run, one file per run."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def save_selection(self, run_id: str, paths: Sequence[str]) -> str:
        """Keep a chosen file subset beside the run; its id for the ``selection`` input."""
        ident = selection_id(paths)
        target = run_file(self.folder / "selections", run_id)
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(target, json.dumps({"id": ident, "paths": list(paths)}))
        return ident

    def selection(self, run_id: str, ident: str) -> list[str] | None:
        """The subset saved as ``ident`` for the run, if it is still exactly that."""
        try:
            data = json.loads(
                run_file(self.folder / "selections", run_id).read_text(encoding="utf-8")
            )
        except (OSError, ValueError):
            return None
        paths = data.get("paths") if isinstance(data, dict) else None
        if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
            return None
        return paths if data.get("id") == ident == selection_id(paths) else None

    def save(self, run_id: str, payload: Mapping[str, Any]) -> None:
        target = run_file(self.folder, run_id)
        target.parent.mkdir(parents=True, exist_ok=True)
        # JSON's own escapes (ensure_ascii): a name that is not UTF-8 arrives as lone
        # surrogates, which UTF-8 cannot encode but \uDCxx carries back exactly.
        atomic_write(target, json.dumps(payload, separators=(",", ":")))

    def load(self, run_id: str) -> dict[str, Any] | None:
        """The run's plan, or None when there is none (or it cannot be read)."""
        try:
            data = json.loads(run_file(self.folder, run_id).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None
