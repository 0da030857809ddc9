"""What a recover run adds to the generic run rendering in ``output``: its
options and their ids, the exact confirmation text, what the restore will
touch, and the apply result; at a terminal it hands the waits to
``recover_guide``, which asks them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from vibflow.cli.visible_text import one_line

if TYPE_CHECKING:
    from vibflow.cli.views import Answer, WaitPrompt


class RecoverRunView:
    """The recover flow's part of a run's rendering (``output.RunView``), read from
    the public context its steps write: ``plan``, ``confirmation_expected``,
    ``paths``/``paths_total``, ``post_sandwich_edits`` and ``result``."""

    def next_commands(
        self, run_id: str, wait: str | None, public: Mapping[str, Any]
    ) -> list[str] | None:
        """Each option that can run, by id, or the exact confirmation, then cancel."""
        if wait == "option" and (public.get("plan") or {}).get("options"):
            options = public["plan"]["options"]
            concrete = [
                f"vibflow step {run_id} choose --input option={o['option_id']}"
                for o in options
                if not o.get("blocked_reason")
            ]
            return [*concrete, f"vibflow step {run_id} cancel"]
        if wait == "confirmation" and public.get("confirmation_expected"):
            text = public["confirmation_expected"]
            return [
                f'vibflow step {run_id} confirm --input confirmation="{text}"',
                f"vibflow step {run_id} cancel",
            ]
        return None

    def wait_lines(self, run_id: str, wait: str, public: Mapping[str, Any]) -> list[str]:
        """Under "waiting for": edits since the safety checkpoint, the restore's size,
        and the options to choose from (and how to restore only some files)."""
        out = [
            f"  changed since the safety checkpoint: {edited} — a new safety "
            "checkpoint holds your edit; confirm again to restore over it"
            for edited in public.get("post_sandwich_edits") or []
        ]
        if wait == "confirmation" and "paths_total" in public:
            restore = public.get("restore") or {}
            deletes = restore.get("deletes_total") or 0
            out.append(
                f"  restoring {public['paths_total']} file(s)"
                + (f", {deletes} of them DELETED (not in the checkpoint)" if deletes else "")
                + f" — at a terminal, `vibflow resume {run_id} --all` lists them all"
            )
            out += [
                f"  added, as a rename is one change: {p['why']}"
                for p in restore.get("partners") or []
                if isinstance(p, dict) and p.get("why")
            ]
        if wait == "option":
            options = (public.get("plan") or {}).get("options") or []
            for opt in options:
                why = opt.get("blocked_reason")
                rec = " (recommended)" if opt.get("recommended") else ""
                out.append(
                    f"  option {opt['option_id']}{rec}: {opt['label']}"
                    + (f" [cannot run: {why}]" if why else "")
                )
            if any(o.get("level", 0) >= 3 and not o.get("blocked_reason") for o in options):
                out.append(
                    "  to restore only some of a restore's files, add "
                    "--input paths=PATH once per file"
                )
        return out

    def result_lines(self, public: Mapping[str, Any]) -> list[str]:
        """The apply result: the choice, files to review, what changed, how to undo."""
        outcome = public.get("result")
        if not isinstance(outcome, dict) or not outcome.get("label"):
            return []
        out = [f"  you chose: {outcome['label']}"]
        review = outcome.get("review") or []
        if review:
            out.append(
                f"  files to review ({len(review)}): "
                + ", ".join(review[:8])
                + (" …" if len(review) > 8 else "")
            )
        out.append(f"  files modified by vibflow: {outcome.get('files_modified', 0)}")
        if outcome.get("unstaged_total"):
            out.append(
                f"  unstaged what was staged on {outcome['unstaged_total']} of them "
                "(as `git reset -- PATH`): " + ", ".join(outcome.get("unstaged") or [])
            )
        if outcome.get("index_not_reset_total"):
            out.append(
                "  still staged (git's index was locked): "
                + ", ".join(outcome.get("index_not_reset") or [])
                + " — `git reset -- PATH` unstages them"
            )
        if outcome.get("aborted"):
            out.append(f"  stopped: {outcome['aborted']}")
        out += [
            f"  skipped {one_line(str(skip['path']))}: {skip['why']}"
            for skip in outcome.get("skipped") or []
        ]
        if outcome.get("undo"):
            out.append(f"  undo: {outcome['undo']}")
        out += [f"  verify next: {cmd}" for cmd in outcome.get("verify_next") or []]
        return out

    def guides(self, wait: str, public: Mapping[str, Any]) -> bool:
        """The recover waits, once their step has published what they ask about."""
        if wait == "option":
            return bool((public.get("plan") or {}).get("options"))
        return wait == "confirmation" and bool(public.get("confirmation_expected"))

    def guide(self, prompt: WaitPrompt) -> Answer:
        """At a terminal: the explanation and a numbered menu (then the files, for a
        restore), or what the restore changes and deletes before its confirmation."""
        from vibflow.cli import recover_guide

        if prompt.wait == "option":
            return recover_guide.guide_choice(prompt)
        return recover_guide.guide_confirmation(prompt)
