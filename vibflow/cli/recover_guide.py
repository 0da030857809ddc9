"""The recover flow asked at a terminal: explanation, option menu, file subset,
and a confirmation that says what will be restored and what will be deleted.

A person choosing how to undo an agent's drift needs to see *which* files are
in scope and which are drift before choosing, must be able to keep some of a
restore's files out, and must see the deletions before typing the
confirmation. A typo is asked again rather than sent (a refused event would
end the run ``blocked``), and nothing that restores or deletes is ever the
answer an Enter gives.

The prompts read the run's public context (options, ids, counts, samples)
and, for every file, the whole plan kept beside the run (``stored``). They
only ever answer with an event and inputs the flow already accepts —
``choose`` with ``option`` and, for a subset, ``paths``; ``confirm`` with
``confirmation``; ``cancel`` — so what a terminal sends is exactly what
``vibflow step`` would.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import typer

from vibflow.cli.file_pick import PickError, pick
from vibflow.cli.views import Refused
from vibflow.cli.visible_text import one_line
from vibflow.steps.recovery.models import COMMIT_ABBREV
from vibflow.steps.recovery.renames import complete, other_names

if TYPE_CHECKING:
    from vibflow.cli.views import Answer, WaitPrompt

#: Files listed before "… and N more" unless --all (or 'list' at the prompt).
SHOWN = 20
#: Wrong confirmations asked again before the prompt refuses (exit 3; the run keeps waiting).
CONFIRM_TRIES = 3
_LETTER = {
    "added": "A",
    "modified": "M",
    "deleted": "D",
    "renamed": "R",
    "type_changed": "T",
    "untracked": "?",
}
_STOP_WORDS = ("q", "quit", "stop")
_CANCEL_WORDS = ("c", "cancel")
_LIST_WORDS = ("all", "list", "l")


class _Stopped(Exception):
    """The user typed q at a nested prompt: stop asking, the run keeps waiting."""


def _full_plan(prompt: WaitPrompt) -> Mapping[str, Any] | None:
    """The stored plan, if it is the one this run shows."""
    shown = (prompt.public.get("plan") or {}).get("plan_id")
    stored = prompt.stored
    if stored is None or stored.get("plan_id") != shown:
        return None
    return stored


def _full_option(prompt: WaitPrompt, option_id: str | None) -> Mapping[str, Any] | None:
    options = (_full_plan(prompt) or {}).get("options") or []
    return next((o for o in options if o.get("option_id") == option_id), None)


def _stop_hint(run_id: str) -> str:
    return f"  (stopped: the run keeps waiting; `vibflow resume {run_id}` continues it)"


def _listing(
    paths: Sequence[str],
    label: Callable[[str], str],
    show_all: bool,
    more: str,
    numbered: bool = False,
) -> list[str]:
    """``paths`` one per line (first :data:`SHOWN` unless ``show_all``), then how
    many were left out and ``more`` (how to see them)."""
    shown = paths if show_all else paths[:SHOWN]
    width = len(str(len(paths)))
    lines = [
        (f"    {n:>{width}}. " if numbered else "    ") + label(p)
        for n, p in enumerate(shown, start=1)
    ]
    if len(paths) > len(shown):
        lines.append(f"    … and {len(paths) - len(shown)} more — {more}")
    return lines


# -- choose -----------------------------------------------------------------------------


def _restores(option: Mapping[str, Any]) -> bool:
    """Whether choosing ``option`` changes files (levels 3 and up take a sandwich)."""
    return bool(option.get("level", 0) >= 3 or option.get("requires_sandwich"))


def _menu(options: Sequence[Mapping[str, Any]]) -> list[str]:
    lines = ["", "Ways back:"]
    for n, opt in enumerate(options, start=1):
        tags = []
        if opt.get("recommended"):
            tags.append("recommended")
        if not _restores(opt):
            tags.append("changes no files")
        else:
            count = opt.get("affected_paths_total")
            deletes = opt.get("deletes_total") or 0
            if isinstance(count, int):
                tags.append(f"restores {count} file(s)")
            if deletes:
                tags.append(f"DELETES {deletes}")
        why = opt.get("blocked_reason")
        line = f"  {n}. {opt['label']}" + (f"  [{', '.join(tags)}]" if tags else "")
        lines.append(line + (f"\n       cannot run now: {why}" if why else ""))
    lines.append("  c. cancel this run (nothing is changed)")
    return lines


def _default_option(options: Sequence[Mapping[str, Any]]) -> int | None:
    """The recommended option's number if it changes no files; a restore is never
    what Enter picks."""
    for n, opt in enumerate(options, start=1):
        if opt.get("recommended") and not _restores(opt) and not opt.get("blocked_reason"):
            return n
    return None


def _explanation(prompt: WaitPrompt, show_all: bool) -> None:
    from vibflow.cli.recover_render import explain

    plan = _full_plan(prompt)
    if plan is None:
        typer.echo(
            "\nThis run's full plan is missing, so the files cannot be listed here; "
            "`vibflow recover --explain` explains the tree as it is now."
        )
        return
    text = explain(dict(plan), show_all=show_all)
    # Its closing "Next:" lines point at the commands this prompt is walking
    # the user through; the menu below replaces them.
    head, sep, _ = text.partition("\nNext:")
    typer.echo("")
    typer.echo(head.rstrip("\n") if sep else text.rstrip("\n"))
    candidate = plan.get("safe_checkpoint_candidate") or {}
    if candidate.get("why"):
        # Not the newest checkpoint from before the change: say which, and why,
        # before the user picks a restore that reads from it.
        from vibflow.cli.recover_render import safe_point_lines

        typer.echo("")
        for line in safe_point_lines(plan):
            typer.echo(line)


def guide_choice(prompt: WaitPrompt) -> Answer:
    """Explain, offer the options by number, and for a restore let the user keep
    some of its files."""
    options = list((prompt.public.get("plan") or {}).get("options") or [])
    _explanation(prompt, prompt.show_all)
    for line in _menu(options):
        typer.echo(line)
    default = _default_option(options)
    question = (
        f"Which one (1-{len(options)}, c to cancel, 'all' lists every file, q stops"
        + (f"; Enter = {default}" if default else "")
        + ")"
    )
    while True:
        answer = str(typer.prompt(question, default="", show_default=False)).strip()
        if not answer and default:
            answer = str(default)
        word = answer.lower()
        if word in _STOP_WORDS:
            typer.echo(_stop_hint(prompt.run_id))
            return None
        if word in _CANCEL_WORDS and "cancel" in prompt.events:
            return "cancel", {}
        if word in _LIST_WORDS:
            _explanation(prompt, True)
            continue
        if not answer:
            typer.echo(
                f"  type a number from 1 to {len(options)} (a restore is never what Enter "
                "picks), c to cancel or q to stop"
            )
            continue
        if not answer.isdigit() or not 1 <= int(answer) <= len(options):
            typer.echo(
                f"  '{answer}' is not one of the choices; type a number from 1 to "
                f"{len(options)}, c to cancel or q to stop"
            )
            continue
        option = options[int(answer) - 1]
        if option.get("blocked_reason"):
            typer.echo(f"  option {answer} cannot run now: {option['blocked_reason']}")
            continue
        values: dict[str, Any] = {"option": option["option_id"]}
        if _restores(option):
            try:
                paths = _choose_files(prompt, option)
            except _Stopped:
                typer.echo(_stop_hint(prompt.run_id))
                return None
            if paths is None:
                continue  # back to the menu
            if paths:
                values["paths"] = paths
        return "choose", values


def _labeller(prompt: WaitPrompt, deletes: set[str]) -> Callable[[str], str]:
    """``M src/a.py  (in scope)`` — the change, the path, and what the restore means;
    both names of a rename are ``R``, each naming the other."""
    plan = _full_plan(prompt) or {}
    status = {c.get("path"): c.get("status") for c in plan.get("changed") or []}
    zone = {z.get("path") for z in plan.get("intent_zone") or []}
    renamed = other_names(plan)

    def label(path: str) -> str:
        other = renamed.get(path)
        letter = "R" if other else _LETTER.get(str(status.get(path)), " ")
        notes = []
        if other is not None:
            name, is_old = other
            name = one_line(name)
            notes.append(f"renamed from {name}" if is_old else f"old name of {name}")
        if path in zone:
            notes.append("in scope: undoes your work on it")
        if path in deletes:
            notes.append("DELETED: not in the checkpoint")
        return f"{letter} {one_line(path)}" + (f"  ({'; '.join(notes)})" if notes else "")

    return label


def _choose_files(prompt: WaitPrompt, option: Mapping[str, Any]) -> list[str] | None:
    """The files to restore: [] for all of the option's, None to go back to the menu."""
    full = _full_option(prompt, option.get("option_id"))
    paths = list((full or {}).get("affected_paths") or [])
    if len(paths) < 2:
        return []  # nothing to choose from (or the full list is missing: all)
    label = _labeller(prompt, set((full or {}).get("deletes") or []))
    typer.echo(f"\nThis restores {len(paths)} file(s):")
    for line in _listing(paths, label, prompt.show_all, "'list' numbers them all", True):
        typer.echo(line)
    question = (
        "Which files (Enter = all; e.g. 1-5,8  src/**  *.py  !3 leaves one out; "
        "'list' shows all, b goes back, q stops)"
    )
    while True:
        answer = str(typer.prompt(question, default="", show_default=False)).strip()
        word = answer.lower()
        if word in ("b", "back"):
            return None
        if word in _STOP_WORDS:
            raise _Stopped
        if word in ("list", "l"):
            for line in _listing(paths, label, True, "", True):
                typer.echo(line)
            continue
        try:
            chosen = pick(answer, paths)
        except PickError as exc:
            typer.echo(f"  {exc}; try again")
            continue
        if chosen.every:
            typer.echo(f"  all {len(paths)} file(s)")
            return []
        typer.echo(f"  {len(chosen.paths)} of {len(paths)} file(s):")
        for line in _listing(chosen.paths, label, prompt.show_all, "all chosen"):
            typer.echo(line)
        # The flow completes the choice the same way (renames.complete); said here
        # so no name is restored or deleted without being shown first.
        _, partners = complete(chosen.paths, _full_plan(prompt) or {}, full or {})
        if partners:
            typer.echo("  A rename is one change, so its other name is taken too:")
            for line in _listing([p.words() for p in partners], str, prompt.show_all, "all"):
                typer.echo(line)
        return list(chosen.paths)


# -- confirm ----------------------------------------------------------------------------


def _restore_lists(prompt: WaitPrompt) -> tuple[list[str], list[str], bool]:
    """What the confirmation restores and deletes, in full when the stored plan
    has it (``True``), else the context's samples."""
    public = prompt.public
    restore = public.get("restore") or {}
    total = public.get("paths_total", 0)
    full = _full_option(prompt, restore.get("option_id"))
    if full is not None:
        given = list(prompt.inputs.get("paths") or [])
        chosen = complete(given, _full_plan(prompt) or {}, full)[0] if given else []
        chosen = chosen or list(full.get("affected_paths") or [])
        if len(chosen) == total:
            chosen_set = set(chosen)
            deletes = [p for p in full.get("deletes") or [] if p in chosen_set]
            return chosen, deletes, True
    return list(public.get("paths") or []), list(restore.get("deletes") or []), False


def _describe_restore(prompt: WaitPrompt, show_all: bool) -> None:
    public = prompt.public
    restore = public.get("restore") or {}
    chosen, deletes, complete = _restore_lists(prompt)
    total = public.get("paths_total", len(chosen))
    deletes_total = restore.get("deletes_total", len(deletes))
    dropped = set(deletes)
    kept = [p for p in chosen if p not in dropped]
    more = (
        "'list' shows them all"
        if complete
        else f"this run's plan is missing; `vibflow runs show {prompt.run_id}` has a sample"
    )
    label = _labeller(prompt, set())
    source = (
        f"checkpoint {restore['from_checkpoint']}"
        if restore.get("from_checkpoint")
        else f"the last commit ({restore.get('from_commit', '')[:COMMIT_ABBREV]})"
    )
    typer.echo("")
    typer.echo(
        f"Restore {total} file(s) from {source}: "
        f"{total - deletes_total} put back as they were there, {deletes_total} deleted."
    )
    partners = [p.get("why") for p in restore.get("partners") or [] if p.get("why")]
    if partners:
        typer.echo(
            f"  Added to your choice, because a rename is one change "
            f"({restore.get('partners_total', len(partners))}):"
        )
        for line in _listing(partners, str, show_all, more):
            typer.echo(line)
    if kept:
        typer.echo(f"  Put back ({total - deletes_total}):")
        for line in _listing(kept, label, show_all, more):
            typer.echo(line)
    if deletes_total:
        typer.echo(f"  DELETED — they did not exist at the checkpoint ({deletes_total}):")
        for line in _listing(deletes, label, show_all, more):
            typer.echo(line)
    else:
        typer.echo("  No file is deleted.")
    for edited in public.get("post_sandwich_edits") or []:
        typer.echo(
            f"  changed since the safety checkpoint: {edited} — a new safety checkpoint "
            "holds your edit"
        )
    sandwich = public.get("sandwich_checkpoint_id")
    typer.echo(
        f"  Safety checkpoint of your tree as it is now: {sandwich} "
        "(kept, so this restore can be undone)."
    )


def _refused(run_id: str, expected: str) -> Refused:
    return Refused(
        f"the confirmation did not match '{expected}' in {CONFIRM_TRIES} tries, so nothing "
        f"was restored; run {run_id} is still waiting for it",
        hint=f"Run `vibflow resume {run_id}` to be asked again, or "
        f'`vibflow step {run_id} confirm --input confirmation="{expected}"`.',
    )


def guide_confirmation(prompt: WaitPrompt) -> Answer:
    """Say what will be restored and deleted, then ask for the exact text; a
    mismatch is asked again, a few times, then refused (:class:`Refused`, exit 3):
    a wrong confirmation is a refused one, while q (or Enter) only stops asking.
    Either way nothing is sent and the run keeps waiting."""
    expected = str(prompt.public["confirmation_expected"])
    _describe_restore(prompt, prompt.show_all)
    question = f"Type exactly '{expected}' to restore ('list' shows every file, c cancels, q stops)"
    tries = 0
    while True:
        answer = str(typer.prompt(question, default="", show_default=False)).strip()
        word = answer.lower()
        if not answer or word in _STOP_WORDS:
            typer.echo(_stop_hint(prompt.run_id))
            return None
        if word in _CANCEL_WORDS and "cancel" in prompt.events:
            return "cancel", {}
        if word in ("list", "l"):
            _describe_restore(prompt, True)
            continue
        if answer == expected:
            return "confirm", {"confirmation": answer}
        tries += 1
        if tries >= CONFIRM_TRIES:
            typer.echo(f"  That does not match '{expected}' either.")
            raise _refused(prompt.run_id, expected)
        left = CONFIRM_TRIES - tries
        tries_left = f"{left} {'try' if left == 1 else 'tries'} left"
        typer.echo(f"  That does not match '{expected}' ({tries_left})")
