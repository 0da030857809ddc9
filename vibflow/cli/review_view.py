"""What a memory review run adds to the generic run rendering: the proposal it
waits on (what, why, any problem the write gate raised), the exact commands to
answer it, the answers so far — and, at a terminal, one short question per
proposal."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import typer

if TYPE_CHECKING:
    from vibflow.cli.views import Answer, WaitPrompt

WAIT = "answer"
_TEXT_KINDS = {"confirm_intent", "next_action", "explicit_file"}


def _current(public: Mapping[str, Any]) -> Mapping[str, Any] | None:
    current = public.get("current")
    return current if isinstance(current, Mapping) and public.get("review") else None


def _position(public: Mapping[str, Any]) -> str:
    review = public.get("review") or {}
    return f"{int(review.get('index', 0)) + 1} of {int(review.get('total', 0))}"


class ReviewRunView:
    """The memory_review flow's part of a run's rendering (``views.RunView``)."""

    def next_commands(
        self, run_id: str, wait: str | None, public: Mapping[str, Any]
    ) -> list[str] | None:
        item = _current(public)
        if wait != WAIT or item is None:
            return None
        step = f"vibflow step {run_id}"
        kind = item.get("kind")
        if kind == "contradiction":
            accept = [
                f"{step} accept --input keep={item.get('other')}",
                f"{step} accept --input keep={item.get('target')}",
            ]
        elif kind == "next_action":
            accept = [f'{step} accept --input text="THE NEXT ACTION"']
        else:
            accept = [f"{step} accept"]
        edit = (
            [f'{step} edit --input text="YOUR TEXT"']
            if kind in _TEXT_KINDS - {"next_action"}
            else []
        )
        return [*accept, *edit, f"{step} dismiss", f"{step} snooze", f"{step} stop"]

    def wait_lines(self, run_id: str, wait: str, public: Mapping[str, Any]) -> list[str]:
        del run_id
        item = _current(public)
        if wait != WAIT or item is None:
            return []
        lines = [
            f"  proposal {_position(public)} ({str(item.get('kind', '')).replace('_', ' ')}): "
            f"{item.get('title', '')}",
            f"    why: {item.get('why', '')}",
        ]
        if item.get("problem"):
            lines.append(f"    not written: {item['problem']}")
        return lines

    def result_lines(self, public: Mapping[str, Any]) -> list[str]:
        recap = public.get("recap")
        if not public.get("review") or not isinstance(recap, Mapping):
            return []
        return [f"  {recap.get('headline', '')}"] + [f"    {b}" for b in recap.get("bullets") or []]

    def guides(self, wait: str, public: Mapping[str, Any]) -> bool:
        return wait == WAIT and _current(public) is not None

    def guide(self, prompt: WaitPrompt) -> Answer:
        """One proposal: a letter answers it; edit (or a next action) asks the text."""
        item = _current(prompt.public)
        if item is None:
            return None
        for line in self.wait_lines(prompt.run_id, prompt.wait, prompt.public):
            typer.echo(line)
        kind = item.get("kind")
        if kind == "contradiction":
            typer.echo(
                f"    1 = keep {item.get('target')} (the earlier), 2 = keep {item.get('other')}"
            )
            choices = "1/2 keep one, d dismiss (keep both), s snooze, q stop"
        elif kind in _TEXT_KINDS:
            choices = "a accept, e edit, d dismiss, s snooze, q stop"
        else:
            choices = "a accept, d dismiss, s snooze, q stop"
        while True:
            raw = typer.prompt(f"  [{choices}]", default="q", show_default=False).strip().lower()
            if raw in ("q", "stop"):
                return ("stop", {})
            if raw in ("d", "dismiss"):
                return ("dismiss", {})
            if raw in ("s", "snooze"):
                return ("snooze", {})
            if kind == "contradiction" and raw in ("1", "2"):
                keep = item.get("target") if raw == "1" else item.get("other")
                return ("accept", {"keep": str(keep)})
            if kind == "next_action" and raw in ("a", "accept", "e", "edit"):
                text = typer.prompt("  next action").strip()
                if text:
                    return ("accept", {"text": text})
                continue
            if kind in _TEXT_KINDS and raw in ("e", "edit"):
                text = typer.prompt("  new text").strip()
                if text:
                    return ("edit", {"text": text})
                continue
            if kind != "contradiction" and raw in ("a", "accept"):
                return ("accept", {})
            typer.echo(f"  answer with one of: {choices}")
