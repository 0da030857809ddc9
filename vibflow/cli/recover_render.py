"""Plain-language rendering of recovery for a terminal: the advisor's plan and
the recover flow's runs.

`--explain` says what happened; `--preview` says what each way back would
change. Long lists are grouped by folder with the top items shown (`--all`
shows everything), and the output always states that no files were modified.

A recover run's part of the run rendering is ``recover_view``; at a terminal
``recover_guide`` asks its waits.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from vibflow.cli.visible_text import one_line

TOP = 8
#: How the why of a file left out for its name ends (``restorable._BY_HAND``).
BY_HAND = "; restore it by hand"


#: A change's status as ``git status --short`` shows it.
_LETTER = {
    "modified": "M",
    "added": "A",
    "deleted": "D",
    "renamed": "R",
    "type_changed": "T",
    "untracked": "??",
}


def _changes(plan: Mapping[str, Any]) -> dict[str, Mapping[str, Any]] | None:
    """Each changed path's entry; ``None`` for a plan without them (a run's compact
    plan), whose paths are then listed without a status."""
    if "changed" not in plan:
        return None
    return {c["path"]: c for c in plan.get("changed") or [] if isinstance(c, dict)}


def _marked(path: str, changes: Mapping[str, Mapping[str, Any]]) -> str:
    """``M  path``, ``?? path``, ``R  old → new``; an unchanged path (an explicit
    relevant file no one touched) without a status."""
    c = changes.get(path)
    if c is None:
        return f"   {one_line(path)}"
    letter = _LETTER.get(str(c.get("status")), "M")
    if letter == "R" and c.get("old_path"):
        return f"R  {one_line(str(c['old_path']))} → {one_line(path)}"
    return f"{letter:<2} {one_line(path)}"


def _paths(
    items: Sequence[tuple[str, str]],
    show_all: bool,
    changes: Mapping[str, Mapping[str, Any]] | None = None,
) -> list[str]:
    """Paths with their status (when ``changes`` says it) and why, the top ones unless
    ``show_all``, the rest counted by folder."""
    shown = items if show_all else items[:TOP]
    names = [_marked(p, changes) if changes is not None else one_line(p) for p, _ in shown]
    width = min(max((len(n) for n in names), default=0), 52)
    # A why quotes names and your own words (a relevant file's why): one line too.
    lines = [
        f"    {n:<{width}}  {one_line(why)}" if why else f"    {n}"
        for n, (_, why) in zip(names, shown, strict=True)
    ]
    rest = items[len(shown) :]
    if rest:
        folders = Counter(
            one_line(p.split("/")[0]) + "/" if "/" in p else "(top level)" for p, _ in rest
        )
        top = ", ".join(f"{f} {n}" for f, n in folders.most_common(4))
        lines.append(f"    … and {len(rest)} more ({top}) — use --all to list them")
    return lines


def _since_intent(plan: dict[str, Any]) -> str | None:
    """One line on the commits made since the intent was set, if any."""
    count = plan.get("recent_commits_since_intent")
    if not isinstance(count, int) or count <= 0:
        return None
    files = plan.get("recent_commits_since_intent_files")
    newest = next(
        (c.get("commit") for c in plan.get("recent_commits", []) if c.get("since_intent")), None
    )
    line = f"{count} commit{'s' if count != 1 else ''} since the intent was set"
    if isinstance(files, int) and files > 0:
        line += f" touched {files} file{'s' if files != 1 else ''}"
    if isinstance(newest, str) and newest:
        line += f" (newest {newest[:12]})"
    return line + "."


def _last_turn(plan: dict[str, Any]) -> str | None:
    """The agent's last turn in one line (from the agent hooks' records)."""
    turn = plan.get("agent_last_turn")
    if not isinstance(turn, dict):
        return None
    files = turn.get("files") or []
    which = f"{turn.get('agent')} turn {turn.get('turn')}"
    line = f"The agent's last turn ({which}) changed {len(files)} file(s)"
    if turn.get("outside_intent") is not None:
        line += f", {turn['outside_intent']} of them outside your intent"
    if turn.get("checkpoint_id"):
        line += f"; `vibflow rewind {turn.get('turn')}` goes back to before it"
    return line + "."


def explain(plan: dict[str, Any], show_all: bool = False) -> str:
    out = ["Recovery advisor — read-only: no files were modified.", ""]
    out.append(f"What happened: {plan['summary']}")
    turn_line = _last_turn(plan)
    if turn_line:
        out.append(turn_line)
    if plan.get("intent"):
        stale = " [STALE]" if plan.get("intent_stale") else ""
        out.append(f"Your intent: {one_line(str(plan['intent']))}{stale}")
    if plan.get("memory_note"):
        out.append(f"Note: {plan['memory_note']}")
    commits = _since_intent(plan)
    if commits:
        out.append(commits)
    if plan.get("circuit_breaker_state") == "degraded":
        out.append("Drift labels: OFF (degraded) — recent labels were often wrong.")
    changes = _changes(plan)
    zone = [(z["path"], z["reason"]) for z in plan.get("intent_zone", [])]
    cands = plan.get("drift_candidates", [])
    marked = set(plan.get("unsure_paths") or [])
    drift = [(d["path"], d["why_outside_zone"]) for d in cands if d["path"] not in marked]
    unsure = [(d["path"], d["why_outside_zone"]) for d in cands if d["path"] in marked]
    if zone:
        out += ["", f"In scope ({len(zone)}):", *_paths(zone, show_all, changes)]
    if drift:
        out += [
            "",
            f"Outside what you are working on — please review ({len(drift)}):",
            *_paths(drift, show_all, changes),
        ]
    if unsure:
        out += ["", f"Unsure — please look ({len(unsure)}):", *_paths(unsure, show_all, changes)]
    regenerated = plan.get("regenerated") or []
    if regenerated:
        shown = regenerated if show_all else regenerated[:TOP]
        more = (
            f" … and {len(regenerated) - len(shown)} more" if len(shown) < len(regenerated) else ""
        )
        out += [
            "",
            f"Regenerated lockfiles, not drift ({len(regenerated)}): {', '.join(shown)}{more}",
        ]
    if (zone or drift or unsure) and changes is not None:
        out.append("  (M modified, A added, D deleted, R renamed, ?? new and untracked)")
    every_left = [(x["path"], x["why"]) for x in plan.get("left_out", [])]
    # Names the path rules refuse (steps/recovery/restorable.py ends their why so).
    by_hand = [(p, why) for p, why in every_left if why.endswith(BY_HAND)]
    left_out = [(p, why) for p, why in every_left if not why.endswith(BY_HAND)]
    if left_out:
        out += [
            "",
            f"Not in the safe checkpoint, so no restore touches them; content not shown "
            f"({len(left_out)}):",
            *_paths(left_out, show_all),
        ]
    if by_hand:
        out += [
            "",
            f"Names vibflow cannot restore, so no restore touches them ({len(by_hand)}):",
            *_paths(by_hand, show_all),
        ]
    out += _generated(plan, show_all, changes)
    best = next((o for o in plan.get("options", []) if o.get("recommended")), None)
    if best:
        out += ["", f"Recommended: {best['label']}"]
    out += [
        "",
        "Next: `vibflow recover --preview` shows what each way back would change;",
        "      `vibflow run recover` walks you through choosing one.",
    ]
    return "\n".join(out) + "\n"


def _generated(
    plan: Mapping[str, Any], show_all: bool, changes: Mapping[str, Mapping[str, Any]] | None
) -> list[str]:
    """How many generated, vendored and build files changed, one line per reason they
    were recognised by; ``show_all`` lists each file under its reason."""
    generated = plan.get("excluded_generated") or []
    if not generated:
        return []
    out = [
        "",
        f"Ignored {len(generated)} generated/cache/build file(s) — never drift, never restored:",
    ]
    reasons = plan.get("generated_reasons") or []
    if not reasons:  # a plan from before reasons were kept
        return [*out, f"    e.g. {generated[0]}"]
    by_reason: dict[str, list[str]] = {}
    if show_all:
        for path in generated:
            why = (changes or {}).get(path, {}).get("generated_why") or "generated"
            by_reason.setdefault(str(why), []).append(path)
    width = len(str(max((r["count"] for r in reasons), default=0)))
    for r in reasons:
        if show_all:
            out.append(f"    {r['count']:>{width}}  {r['reason']}:")
            out += [f"    {'':>{width}}    {one_line(p)}" for p in by_reason.get(r["reason"], [])]
        else:
            example = one_line(str(r["example"]))
            out.append(f"    {r['count']:>{width}}  {r['reason']} (e.g. {example})")
    if not show_all:
        out.append("    (--all lists them)")
    return out


def preview(plan: dict[str, Any], show_all: bool = False) -> str:
    out = ["Ways back — read-only preview: no files were modified.", "", f"{plan['summary']}", ""]
    changes = _changes(plan)
    for n, opt in enumerate(plan.get("options", []), start=1):
        tag = " (recommended)" if opt.get("recommended") else ""
        out.append(f"{n}. Level {opt['level']}{tag}: {opt['label']}")
        out.append(f"   Would change: {opt['estimated_impact']}")
        paths = [(p, "") for p in _one_line_per_change(opt.get("affected_paths", []), changes)]
        if paths:
            out += _paths(paths, show_all, changes)
        if opt.get("deletes"):
            out.append(
                "   Would delete (they did not exist at the checkpoint): "
                + ", ".join(opt["deletes"][:TOP])
                + (" …" if len(opt["deletes"]) > TOP else "")
            )
        if opt.get("blocked_reason"):
            out.append(f"   Cannot run now: {opt['blocked_reason']}")
        out.append(f"   id: {opt['option_id']}")
        out.append("")
    out += safe_point_lines(plan)
    out += [
        f"Plan id: {plan['plan_id']} (feedback: `vibflow recover feedback "
        f"{plan['plan_id']} --correct PATH --wrong PATH`)"
    ]
    return "\n".join(out) + "\n"


def _one_line_per_change(
    paths: Sequence[str], changes: Mapping[str, Mapping[str, Any]] | None
) -> list[str]:
    """A rename's old name is listed with its new one (``R old → new``), not alone."""
    if changes is None:
        return list(paths)
    listed = set(paths)
    folded = {
        str(c["old_path"])
        for p, c in changes.items()
        if c.get("status") == "renamed" and c.get("old_path") and p in listed
    }
    return [p for p in paths if p not in folded]


def safe_point_lines(plan: Mapping[str, Any]) -> list[str]:
    """What a restore reads from, and why that one when it is not the newest from
    before the change (the preview's closing lines; the guided run's too)."""
    out: list[str] = []
    cand = plan.get("safe_checkpoint_candidate")
    if cand is None:
        out.append(
            "Safe checkpoint: none yet — `vibflow checkpoint create` before letting an "
            "agent loose makes full rollback possible next time."
        )
    elif cand.get("kind") == "commit":
        out.append(
            f"Safe point: {cand.get('label') or 'the last commit'} — no checkpoint predates "
            "the change, so a restore puts tracked files back as committed (untracked files "
            "are deleted only when listed and confirmed)."
        )
    elif cand.get("predates_change"):
        out.append(
            f"Safe checkpoint: {cand['checkpoint_id']} ({cand['created_at']}), "
            "taken before the change."
        )
        if cand.get("why"):
            out.append(f"   Why this one: {cand['why']}")
    else:
        out.append(
            f"Newest checkpoint {cand['checkpoint_id']} was taken after the change "
            "began, so it is not safe to roll back to."
        )
    return out
